package cfscan

import (
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"time"

	btcdgcs "github.com/btcsuite/btcd/btcutil/v2/gcs"
	"github.com/btcsuite/btcd/btcutil/v2/gcs/builder"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// naiveMatch decodes the filter from scratch, strictly, for every script
// and walks it for that script alone.
func naiveMatch(scripts [][]byte) func(*gcs.Filter, []byte) bool {
	p := gcs.Params{P: gcs.BasicP, M: gcs.BasicM}
	return func(f *gcs.Filter, data []byte) bool {
		for _, s := range scripts {
			g, err := gcs.Decode(p, f.Key(), data)
			if err != nil || g.Match(s) {
				return true
			}
		}
		return false
	}
}

// btcdMatch matches as neutrino does with btcd's gcs: FromNBytes, then
// MatchAny under the block's key.
func btcdMatch(scripts [][]byte) func(*gcs.Filter, []byte) bool {
	return func(f *gcs.Filter, data []byte) bool {
		g, err := btcdgcs.FromNBytes(builder.DefaultP, builder.DefaultM, data)
		if err != nil {
			return true
		}
		ok, err := g.MatchAny(f.Key(), scripts)
		return ok || err != nil
	}
}

// BenchmarkScan scans the benchmark scenario on btcd (a new session, the
// header chain, filter headers, filters and candidate blocks) with three
// ways of matching each filter: one reused gcs.Query (chainsieve), btcd's
// gcs as neutrino uses it (btcd), and a strict decode from scratch per
// script (naive). filters/s is the whole scan's throughput, match-ns/filter
// the time spent matching alone, B-recv/block the bytes received a block.
func BenchmarkScan(b *testing.B) {
	sc := spvtest.NewScenario(b, livenode.StartBtcd, spvtest.Bench)
	wallet := sc.WatchDecoys(b, spvtest.BenchDecoys) // derived once: deriving 92 decoys takes 8 ms
	scripts := wallet.Scripts()
	want := len(sc.Want(0, sc.Tip))
	matchers := []struct {
		name  string
		match func(*gcs.Filter, []byte) bool
	}{
		{"chainsieve", nil},
		{"btcd", btcdMatch(scripts)},
		{"naive", naiveMatch(scripts)},
	}
	for _, m := range matchers {
		b.Run(m.name, func(b *testing.B) {
			b.ReportAllocs()
			var st spv.Stats
			var matching time.Duration
			filters := 0
			began := time.Now()
			for b.Loop() {
				match := m.match
				if match == nil {
					q := gcs.NewQuery(scripts) // what Run does
					match = func(f *gcs.Filter, _ []byte) bool { return q.MatchAny(f) }
				}
				timed := func(f *gcs.Filter, data []byte) bool {
					began := time.Now()
					ok := match(f, data)
					matching += time.Since(began)
					return ok
				}
				st = benchRun(b, sc, wallet.Addresses(), Config{To: -1, match: timed})
				filters += st.Filters
				if st.WalletTxs != want {
					b.Fatalf("found %d wallet transactions, want %d", st.WalletTxs, want)
				}
			}
			b.ReportMetric(float64(filters)/time.Since(began).Seconds(), "filters/s")
			b.ReportMetric(float64(matching.Nanoseconds())/float64(filters), "match-ns/filter")
			b.ReportMetric(float64(st.Traffic.BytesReceived)/float64(st.Blocks), "B-recv/block")
			b.ReportMetric(float64(st.Traffic.BytesReceived), "B-recv/op")
			b.ReportMetric(float64(st.Traffic.RoundTrips), "roundtrips/op")
			b.ReportMetric(float64(st.FalsePositives), "fp-blocks/op")
		})
	}
}

// benchRun runs one scan for the wallet's addresses on a new session.
func benchRun(b *testing.B, sc *spvtest.Scenario, wallet []address.Address, cfg Config) spv.Stats {
	s, err := spv.Dial(b.Context(), sc.Node.P2PAddr, spv.Config{Network: sc.Network, Services: wire.SFNodeCF})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	chain, err := spv.NewChain(sc.Network)
	if err != nil {
		b.Fatal(err)
	}
	watch, err := spv.NewWatch(wallet, nil)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Session, cfg.Chain, cfg.Watch = s, chain, watch
	cfg.Emit = func(spv.Tx) error { return nil }
	st, err := Run(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	return st
}
