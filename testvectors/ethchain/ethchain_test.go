package ethchain_test

import (
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors/ethchain"
	"github.com/ethereum/go-ethereum/core/types"
)

// The ranges docs and the package doc state for the generated chain.
const (
	meanLogsMin, meanLogsMax = 300, 380 // logs per block, mean (mainnet-like: ~340)
	fillMin, fillMax         = 0.40, 0.80
	inRangeMin               = 0.95 // share of blocks whose fill is in [fillMin, fillMax]
)

// heavyLogs is where a mainnet block counts as carrying today's load: the
// embedded vectors below it are from before 2023 or nearly empty.
const heavyLogs = 200

// TestMainnetFill measures the embedded mainnet blocks: those with at
// least 200 logs must have blooms between a third and four fifths full,
// the range the generated chain is held to (40–80 %) sits inside.
func TestMainnetFill(t *testing.T) {
	fills, err := ethchain.MainnetFill()
	if err != nil {
		t.Fatal(err)
	}
	var heavy []float64
	for _, f := range fills {
		t.Logf("block %d: %d logs, bloom %.1f %% full", f.Number, f.Logs, 100*f.Fill)
		if f.Logs >= heavyLogs && f.Fill < 1 { // the Merge block's bloom is all ones
			heavy = append(heavy, f.Fill)
		}
	}
	if len(heavy) < 5 {
		t.Fatalf("%d mainnet blocks with %d logs or more, want at least 5", len(heavy), heavyLogs)
	}
	slices.Sort(heavy)
	lo, med, hi := heavy[0], heavy[len(heavy)/2], heavy[len(heavy)-1]
	t.Logf("%d blocks with %d+ logs: fill %.1f–%.1f %%, median %.1f %%", len(heavy), heavyLogs, 100*lo, 100*hi, 100*med)
	if lo < 0.30 || hi > fillMax || med < fillMin || med > fillMax {
		t.Errorf("mainnet fill %.3f–%.3f (median %.3f) outside the range the generator is held to", lo, hi, med)
	}
}

// TestShape generates 200 blocks and checks their log counts and bloom
// fill against the stated ranges, and that each header's bloom and
// receipts root are those of its receipts.
func TestShape(t *testing.T) {
	const blocks = 200
	c, err := ethchain.Memory(blocks)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	logs, inRange, fill := 0, 0, 0.0
	contracts := map[[20]byte]bool{}
	for n := uint64(1); n <= blocks; n++ {
		h := c.Header(n)
		rs := c.GetReceiptsByHash(h.Hash())
		if types.MergeBloom(rs) != h.Bloom {
			t.Fatalf("block %d: bloom is not the receipts'", n)
		}
		for _, r := range rs {
			if types.CreateBloom(r) != r.Bloom {
				t.Fatalf("block %d: receipt %d's bloom is not its logs'", n, r.TransactionIndex)
			}
			for _, l := range r.Logs {
				contracts[l.Address] = true
			}
			logs += len(r.Logs)
		}
		f := ethchain.BloomFill(&h.Bloom)
		fill += f
		if f >= fillMin && f <= fillMax {
			inRange++
		}
	}
	mean := float64(logs) / blocks
	t.Logf("%d blocks: %.0f logs per block, bloom %.1f %% full on average, %d%% of blocks in range, %d contracts",
		blocks, mean, 100*fill/blocks, 100*inRange/blocks, len(contracts))
	if mean < meanLogsMin || mean > meanLogsMax {
		t.Errorf("%.0f logs per block, want %d–%d", mean, meanLogsMin, meanLogsMax)
	}
	if share := float64(inRange) / blocks; share < inRangeMin {
		t.Errorf("%.0f %% of blooms %.0f–%.0f %% full, want %.0f %%", 100*share, 100*fillMin, 100*fillMax, 100*inRangeMin)
	}
	if len(contracts) < 1000 {
		t.Errorf("%d contracts emitted in %d blocks, want a long tail over %d", len(contracts), blocks, ethchain.Contracts)
	}
}
