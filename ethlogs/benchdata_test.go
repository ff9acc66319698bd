package ethlogs_test

import (
	"testing"

	"github.com/chainsieve/chainsieve/testvectors/benchdata"
)

// TestBenchBloomsKeepFills: the synthetic blooms have exactly the popcounts
// of the mainnet headers they come from.
func TestBenchBloomsKeepFills(t *testing.T) {
	real, err := benchdata.MainnetBlooms()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]bool{}
	for _, b := range real {
		if b.Count() < 2048 {
			counts[b.Count()] = true
		}
	}
	blooms, err := benchdata.Blooms(1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, b := range blooms {
		if !counts[b.Count()] {
			t.Fatalf("a synthetic bloom has %d bits set, no mainnet header has", b.Count())
		}
		seen[b.Count()] = true
	}
	if len(seen) != len(counts) {
		t.Errorf("the synthetic blooms take %d of the %d mainnet fills", len(seen), len(counts))
	}
}
