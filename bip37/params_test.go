package bip37

import (
	"math"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/wire/v2"
)

func TestParams(t *testing.T) {
	tests := []struct {
		name      string
		elements  uint32
		fpRate    float64
		size      int
		hashFuncs uint32
	}{
		// bloom_tests.cpp, read off the expected serialisations.
		{"bloom_create_insert_serialize", 3, 0.01, 3, 5},
		{"bloom_create_insert_key", 2, 0.001, 3, 8},
		{"bloom_match (10, 1e-6)", 10, 0.000001, 35, 19},
		// The example of Core's integer division: 32 bits / 7 = 4,
		// 4·ln 2 = 2.77 (btcd divides in floating point and gets 3).
		{"integer division", 7, 0.1, 4, 2},
		// A size capped at 36,000 bytes and the largest count still ≥ 1:
		// 288000 bits / 144000 = 2, 2·ln 2 = 1.39.
		{"capped", 144000, 0.0001, MaxFilterSize, 1},
		// research/bip37.md, from Core's formula: 71,887 bits, 8985 bytes,
		// ⌊71880/1000⌋·ln 2 = 49.2 (btcd clamps the rate and gets 5391, 29).
		{"fp rate 1e-15 (no clamp)", 1000, 1e-15, 8985, 49},
	}
	for _, tt := range tests {
		size, k, err := Params(tt.elements, tt.fpRate)
		if err != nil || size != tt.size || k != tt.hashFuncs {
			t.Errorf("Params(%d, %v) = %d, %d, %v, want %d, %d, nil", tt.elements, tt.fpRate, size, k, err, tt.size, tt.hashFuncs)
		}
	}
}

func TestParamsErrors(t *testing.T) {
	tests := []struct {
		elements uint32
		fpRate   float64
	}{
		{0, 0.01},              // Core divides by zero
		{10, 0},                // log(0) = -Inf
		{10, -0.5},             // NaN size
		{10, 1.5},              // negative size
		{10, math.NaN()},       //
		{10, math.Inf(1)},      //
		{10, 1},                // 0 bytes: matches everything
		{1, 0.05},              // 6.2 bits round down to 0 bytes (python-bitcoinlib#253)
		{144001, 0.0001},       // capped: 288000/144001 = 1 bit per element, ⌊ln 2⌋ = 0 functions
		{math.MaxUint32, 1e-9}, //
	}
	for _, tt := range tests {
		if size, k, err := Params(tt.elements, tt.fpRate); err == nil {
			t.Errorf("Params(%d, %v) = %d, %d, nil, want an error", tt.elements, tt.fpRate, size, k)
		}
	}
}

// TestParamsMatchBTCD sweeps the parameters wallets use: the filter size
// always equals btcd's; the hash count differs exactly where Core's integer
// division of bits by elements drops a remainder that btcd's float division
// keeps, and then by the amount that remainder is worth.
func TestParamsMatchBTCD(t *testing.T) {
	rates := []float64{0.5, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8}
	differ, total := 0, 0
	for n := uint32(1); n <= 3000; n++ {
		for _, p := range rates {
			size, k, err := Params(n, p)
			theirs := bloom.NewFilter(n, 0, p, wire.BloomUpdateNone).MsgFilterLoad()
			if err != nil {
				continue
			}
			total++
			if size != len(theirs.Filter) {
				t.Fatalf("Params(%d, %v) size = %d, btcd %d", n, p, size, len(theirs.Filter))
			}
			floatK := min(uint32(float64(size*8)/float64(n)*math.Ln2), MaxHashFuncs)
			if theirs.HashFuncs != floatK {
				t.Fatalf("btcd's hash count for (%d, %v) = %d, want the float formula's %d", n, p, theirs.HashFuncs, floatK)
			}
			if k != theirs.HashFuncs {
				differ++
				if uint32(size*8)%n == 0 || k > theirs.HashFuncs {
					t.Errorf("Params(%d, %v) hash functions = %d, btcd %d, with no remainder to explain it", n, p, k, theirs.HashFuncs)
				}
			}
		}
	}
	t.Logf("hash counts differ from btcd's in %d of %d (elements, rate) pairs", differ, total)
}
