package lightclient

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// BenchmarkClient scans the benchmark scenario (spvtest.Bench: 256
// blocks, filters of 41 to 45 scripts, a wallet of 99 addresses) with a
// new client per iteration on two linked btcd nodes, in each mode
// (chainsieve), beside a one-peer scan of the same chain with the same
// wallet (bound: cfscan.Run or bloomscan.Run, the same work without the
// second peer's handshake, headers and filter headers). blocks/s is the
// throughput (in BIP157 mode, filters a second), B-recv/block and
// B-sent/block the traffic a block, every session's included.
func BenchmarkClient(b *testing.B) {
	sc := spvtest.NewScenario(b, livenode.StartBtcd, spvtest.Bench)
	other := addNode(b, sc, livenode.StartBtcd)
	wallet := sc.WatchDecoys(b, spvtest.BenchDecoys).Addresses()
	want := len(sc.Want(0, sc.Tip))
	for _, mode := range []Mode{BIP157, BIP37} {
		b.Run(mode.String()+"/chainsieve", func(b *testing.B) {
			b.ReportAllocs()
			var st Stats
			began := time.Now()
			for b.Loop() {
				c := start(b, Config{Network: sc.Network, Mode: mode, Peers: []string{sc.Node.P2PAddr, other.P2PAddr},
					Addresses: wallet, Tweak: 1, Timeout: nodeTimeout})
				collect(b, c, -1)
				if err := c.Stop(); err != nil {
					b.Fatal(err)
				}
				if st = c.Stats(); st.WalletTxs != want {
					b.Fatalf("found %d wallet transactions, want %d", st.WalletTxs, want)
				}
			}
			report(b, st.Stats, time.Since(began))
		})
		b.Run(mode.String()+"/bound", func(b *testing.B) {
			b.ReportAllocs()
			var st spv.Stats
			began := time.Now()
			for b.Loop() {
				st = onePeer(b, sc, mode, wallet)
				if st.WalletTxs != want {
					b.Fatalf("found %d wallet transactions, want %d", st.WalletTxs, want)
				}
			}
			report(b, st, time.Since(began))
		})
	}
}

// onePeer runs one scan for the wallet's addresses on one peer.
func onePeer(b *testing.B, sc *spvtest.Scenario, mode Mode, wallet []address.Address) spv.Stats {
	services := wire.SFNodeCF
	if mode == BIP37 {
		services = wire.SFNodeBloom
	}
	w, err := spv.NewWatch(wallet, nil)
	if err != nil {
		b.Fatal(err)
	}
	s := sc.NewScan(b, sc.Node.P2PAddr, services, 0, w)
	defer s.Session.Close()
	var st spv.Stats
	if mode == BIP37 {
		st, err = bloomscan.Run(b.Context(), bloomscan.Config{Session: s.Session, Chain: s.Chain, Watch: w, To: -1, Tweak: 1, Emit: s.Emit})
	} else {
		st, err = cfscan.Run(b.Context(), cfscan.Config{Session: s.Session, Chain: s.Chain, Watch: w, To: -1, Emit: s.Emit})
	}
	if err != nil {
		b.Fatal(err)
	}
	return st
}

// report adds the throughput and the traffic a block of the last scan.
func report(b *testing.B, st spv.Stats, elapsed time.Duration) {
	b.ReportMetric(float64(st.Blocks)*float64(b.N)/elapsed.Seconds(), "blocks/s")
	b.ReportMetric(float64(st.Traffic.BytesReceived)/float64(st.Blocks), "B-recv/block")
	b.ReportMetric(float64(st.Traffic.BytesSent)/float64(st.Blocks), "B-sent/block")
	b.ReportMetric(float64(st.Traffic.RoundTrips), "roundtrips/op")
}
