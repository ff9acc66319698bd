package spv_test

import (
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// BenchmarkModes scans the benchmark scenario on btcd and on litecoind in
// both modes, each iteration a new session from the handshake to the last
// block, and reports what each costs on the wire: bytes each way, round
// trips, and what was downloaded for nothing (blocks for bip157,
// transactions for bip37, whose filter is at bloomscan's default rate).
func BenchmarkModes(b *testing.B) {
	for _, n := range spvtest.Nodes() {
		b.Run(n.Name, func(b *testing.B) {
			sc := spvtest.NewScenario(b, n.Start, spvtest.Bench)
			benchModes(b, sc)
		})
	}
}

func benchModes(b *testing.B, sc *spvtest.Scenario) {
	want := len(sc.Want(0, sc.Tip))
	b.Run("bip157", func(b *testing.B) {
		var st spv.Stats
		for b.Loop() {
			s, chain, watch := benchSession(b, sc, wire.SFNodeCF)
			var err error
			st, err = cfscan.Run(b.Context(), cfscan.Config{Session: s, Chain: chain, Watch: watch, To: -1,
				Emit: func(spv.Tx) error { return nil }})
			check(b, st, err, want)
			s.Close()
		}
		report(b, st)
		b.ReportMetric(float64(st.BlocksFetched), "blocks-fetched/op")
		b.ReportMetric(float64(st.FalsePositives), "fp-blocks/op")
	})
	b.Run("bip37", func(b *testing.B) {
		var st spv.Stats
		for b.Loop() {
			s, chain, watch := benchSession(b, sc, wire.SFNodeBloom)
			var err error
			st, err = bloomscan.Run(b.Context(), bloomscan.Config{Session: s, Chain: chain, Watch: watch, To: -1, Tweak: 1,
				Emit: func(spv.Tx) error { return nil }})
			check(b, st, err, want)
			s.Close()
		}
		report(b, st)
		b.ReportMetric(float64(st.TxsReceived), "txs-recv/op")
		b.ReportMetric(float64(st.FalsePositives), "fp-txs/op")
	})
}

func benchSession(b *testing.B, sc *spvtest.Scenario, services wire.ServiceFlag) (*spv.Session, *spv.Chain, *spv.Watch) {
	s, err := spv.Dial(b.Context(), sc.Node.P2PAddr, spv.Config{Network: sc.Network, Services: services})
	if err != nil {
		b.Fatal(err)
	}
	chain, err := spv.NewChain(sc.Network)
	if err != nil {
		b.Fatal(err)
	}
	return s, chain, sc.WatchDecoys(b, spvtest.BenchDecoys)
}

func check(b *testing.B, st spv.Stats, err error, want int) {
	if err != nil {
		b.Fatal(err)
	}
	if st.WalletTxs != want {
		b.Fatalf("%s found %d wallet transactions, want %d", st.Mode, st.WalletTxs, want)
	}
}

func report(b *testing.B, st spv.Stats) {
	b.ReportMetric(float64(st.Traffic.BytesReceived), "B-recv/op")
	b.ReportMetric(float64(st.Traffic.BytesSent), "B-sent/op")
	b.ReportMetric(float64(st.Traffic.RoundTrips), "roundtrips/op")
	b.ReportMetric(float64(st.Blocks), "blocks/op")
}

// BenchmarkScryptHash measures Litecoin's proof-of-work hash, which a
// header chain from litecoind computes once per header.
func BenchmarkScryptHash(b *testing.B) {
	h := spvtest.LitecoinRegtest.Params.GenesisBlock.Header
	b.ReportAllocs()
	for b.Loop() {
		spvtest.LitecoinRegtest.PoWHash(&h)
	}
}
