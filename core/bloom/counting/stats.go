package counting

import (
	"math/bits"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// Stats describes a filter's counters.
type Stats struct {
	Counters uint64 // m
	Hashes   int    // k
	Bits     uint64 // 4·m, the size of the table as encoded
	Added    uint64 // see [Filter.Added]
	NonZero  uint64 // counters above zero: the set bits of the equivalent Bloom filter
	// Saturated counts counters stuck at 15. Each is a position that Remove
	// can no longer clear, so it only ever adds false positives.
	Saturated uint64
	// Fill is NonZero / Counters.
	Fill float64
	// FalsePositiveRate is the [bloom.FilledFalsePositiveRate] of the filter
	// as it is, (NonZero/m)^k.
	FalsePositiveRate float64
}

// Nibble masks: the low bit of every counter.
const lowBits = 0x1111_1111_1111_1111

// Stats counts the nonzero and saturated counters, 16 per word, and derives
// the filter's statistics from them.
func (f *Filter) Stats() Stats {
	var nonZero, sat int
	for _, w := range f.words {
		nonZero += bits.OnesCount64((w | w>>1 | w>>2 | w>>3) & lowBits)
		sat += bits.OnesCount64(w & (w >> 1) & (w >> 2) & (w >> 3) & lowBits)
	}
	m := float64(f.m)
	return Stats{
		Counters:          f.m,
		Hashes:            f.k,
		Bits:              4 * f.m,
		Added:             f.added,
		NonZero:           uint64(nonZero),
		Saturated:         uint64(sat),
		Fill:              float64(nonZero) / m,
		FalsePositiveRate: bloom.FilledFalsePositiveRate(m, float64(f.k), float64(nonZero)),
	}
}
