package scan_test

import (
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common"
)

// TestCandidateMemoryBounded: however many blocks pass the bloom, a run
// holds at most maxKnown candidates' headers and looks candidates up one
// window of the range at a time, and the logs are still exactly
// eth_getLogs' — candidates past the bound have their header fetched again
// by hash. A query on every contract makes most of the demo chain's blocks
// candidates.
func TestCandidateMemoryBounded(t *testing.T) {
	c := startDemo(t)
	k := c.Contracts
	q := ethlogs.Query{Addresses: []common.Address{k.Token, k.Stable, k.Pool, k.Pair, k.Registry, k.Pinger, k.Anon}}
	to := c.Head
	want := getLogs(t, c.URL, withRange(q, 0, to))
	for _, tt := range []struct {
		name   string
		known  int
		window uint64
	}{
		{"unbounded", 1 << 30, 1 << 30},
		{"8 headers, 16-block windows", 8, 16},
		{"no headers, 1-block windows", 0, 1},
	} {
		if testing.Short() && tt.known != 0 {
			continue // the tightest bound alone; the looser ones in the full test
		}
		t.Run(tt.name, func(t *testing.T) {
			defer scan.SetBounds(tt.known, tt.window)()
			cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, To: &to, IndexDir: t.TempDir(), HeaderBatch: 64, ReceiptsBatch: 5}
			got, st, err := collect(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%d logs, eth_getLogs gives %d", len(got), len(want))
			}
			if st.Candidates < 32 {
				t.Fatalf("only %d candidates: the query does not exercise the bound", st.Candidates)
			}
			if peak := scan.KnownPeak(st); peak > min(tt.known, int(st.Candidates)) {
				t.Errorf("%d headers held at once, bound %d", peak, tt.known)
			}
		})
	}
}
