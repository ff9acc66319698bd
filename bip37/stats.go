package bip37

import (
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// Fill returns the fraction of bits set, or 1 for a filter that matches
// everything.
func (f *Filter) Fill() float64 {
	if f.MatchesAll() {
		return 1
	}
	return float64(bitset.LittleEndian(f.data).Count()) / float64(len(f.data)*8)
}

// EstimatedCount returns the number of distinct elements that most likely
// produced the filter's bits (Swamidass and Baldi, 2007). Outpoints that
// matching inserted count too. It returns +Inf when every bit is set and for
// a filter that matches everything.
func (f *Filter) EstimatedCount() float64 {
	if f.MatchesAll() {
		return math.Inf(1)
	}
	m := float64(len(f.data) * 8)
	return bloom.EstimatedCount(m, float64(f.hashFuncs), float64(bitset.LittleEndian(f.data).Count()))
}

// FalsePositiveRate returns the expected false-positive rate once elements
// distinct elements are in the filter, (1 - e^(-k·n/m))^k, as bitcoinj's
// getFalsePositiveRate. Pass [Filter.EstimatedCount] for the current rate.
// It returns 1 for a filter that matches everything.
func (f *Filter) FalsePositiveRate(elements float64) float64 {
	if f.MatchesAll() {
		return 1
	}
	return bloom.FalsePositiveRate(float64(len(f.data)*8), float64(f.hashFuncs), elements)
}

// FilledFalsePositiveRate returns the false-positive rate of the filter as
// its bits stand, [bloom.FilledFalsePositiveRate]: a non-member tests
// positive when all k of its positions fall on set bits, fill^k. It is
// exact for this filter when those positions are uniform, as MurmurHash3
// under k seeds behaves. It returns 1 for a filter that matches everything.
func (f *Filter) FilledFalsePositiveRate() float64 {
	if f.MatchesAll() {
		return 1
	}
	m := float64(len(f.data) * 8)
	return bloom.FilledFalsePositiveRate(m, float64(f.hashFuncs), float64(bitset.LittleEndian(f.data).Count()))
}

// Merge inserts every element of g into f by a bitwise or, so that f matches
// what either filter matched. The filters must agree on size, hash
// functions, tweak and flags; otherwise Merge returns an error and leaves f
// unchanged.
func (f *Filter) Merge(g *Filter) error {
	if len(f.data) != len(g.data) || f.hashFuncs != g.hashFuncs || f.tweak != g.tweak || f.flags != g.flags {
		return fmt.Errorf("bip37: cannot merge a filter of %d bytes, %d functions, tweak %d, flags %d into one of %d bytes, %d functions, tweak %d, flags %d",
			len(g.data), g.hashFuncs, g.tweak, g.flags, len(f.data), f.hashFuncs, f.tweak, f.flags)
	}
	bitset.LittleEndian(f.data).Or(g.data)
	return nil
}
