package partitioned

import (
	"errors"
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// maxBits (16 GiB of bits) bounds what New, NewWithShape and UnmarshalBinary
// will allocate, as in core/bloom.
const maxBits = 1 << 37

// Filter is a partitioned Bloom filter of k slices of m/k bits each.
type Filter struct {
	slices []bitset.Set // k slices of s bits
	s      uint64
	added  uint64
}

// New returns an empty filter sized for n elements at false-positive rate p.
// It tries both integers around the optimum k = log2(1/p), gives each the
// smallest slice size whose [FalsePositiveRate] at n elements is at most p,
// and keeps the k that needs fewer bits (the smaller k on a tie: fewer
// probes). Neither rounding always wins: at n = 100,000, 1 % takes k = 7 =
// ⌈6.64⌉ (9.593 bits per element, 6 would need 9.617) but 0.01 % takes
// k = 13 = ⌊13.29⌋ (19.173 against 19.186); the k on either side costs
// more (TestNewShape). It returns an error for n = 0, for p outside (0, 1),
// and for sizes beyond 2^37 bits.
func New(n uint64, p float64) (*Filter, error) {
	if n == 0 {
		return nil, errors.New("partitioned: capacity must be at least 1")
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("partitioned: false-positive rate %g outside (0, 1)", p)
	}
	bestM, bestK := math.Inf(1), 0
	opt := math.Log2(1 / p)
	for _, k := range []float64{math.Floor(opt), math.Ceil(opt)} {
		k = min(max(k, 1), bloom.MaxHashes)
		if m := k * sliceBits(float64(n), p, int(k)); m < bestM {
			bestM, bestK = m, int(k)
		}
	}
	if bestM > maxBits {
		return nil, fmt.Errorf("partitioned: %d elements at rate %g need %.0f bits, more than %d", n, p, bestM, uint64(maxBits))
	}
	return NewWithShape(uint64(bestM), bestK)
}

// NewWithShape returns an empty filter of k slices of ⌈m/k⌉ bits: m is
// rounded up to a multiple of k, and [Filter.M] reports the rounded size. It
// returns an error for k outside [1, bloom.MaxHashes] and for m = 0 or a
// rounded m beyond 2^37 bits.
func NewWithShape(m uint64, k int) (*Filter, error) {
	if k < 1 || k > bloom.MaxHashes {
		return nil, fmt.Errorf("partitioned: hash count %d outside [1, %d]", k, bloom.MaxHashes)
	}
	if m == 0 || m > maxBits {
		return nil, fmt.Errorf("partitioned: size %d bits outside [1, %d]", m, uint64(maxBits))
	}
	s := (m + uint64(k) - 1) / uint64(k)
	if s*uint64(k) > maxBits {
		return nil, fmt.Errorf("partitioned: size %d bits rounds up to %d, more than %d", m, s*uint64(k), uint64(maxBits))
	}
	f := &Filter{slices: make([]bitset.Set, k), s: s}
	for i := range f.slices {
		f.slices[i] = *bitset.New(uint(s))
	}
	return f, nil
}

// M returns the number of bits, k times the slice size.
func (f *Filter) M() uint64 { return f.s * uint64(len(f.slices)) }

// K returns the number of hash functions, which is the number of slices.
func (f *Filter) K() int { return len(f.slices) }

// Added returns the number of Add calls: an upper bound on the distinct
// elements held.
func (f *Filter) Added() uint64 { return f.added }

// Add inserts data: one bit in each slice. It does not allocate.
func (f *Filter) Add(data []byte) {
	p := bloom.NewProbe(bloom.Hash(data))
	for i := range f.slices {
		f.slices[i].Set(uint(p.Next(f.s)))
	}
	f.added++
}

// Test reports whether data may be in the filter. A false result is certain;
// a true result is wrong with the filter's false-positive rate. It does not
// allocate.
func (f *Filter) Test(data []byte) bool {
	p := bloom.NewProbe(bloom.Hash(data))
	for i := range f.slices {
		if !f.slices[i].Test(uint(p.Next(f.s))) {
			return false
		}
	}
	return true
}

// Reset empties the filter, keeping its shape.
func (f *Filter) Reset() {
	for i := range f.slices {
		f.slices[i].Reset()
	}
	f.added = 0
}

// Equal reports whether f and g have the same shape and the same bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.s != g.s || len(f.slices) != len(g.slices) {
		return false
	}
	for i := range f.slices {
		if !f.slices[i].Equal(&g.slices[i]) {
			return false
		}
	}
	return true
}

// Stats describes a filter's fill.
type Stats struct {
	Bits    uint64 // m, the table as encoded: k slices of m/k bits
	Hashes  int    // k, also the number of slices
	Added   uint64 // see [Filter.Added]
	SetBits uint64 // population count over all slices
	// Fill is SetBits / Bits, the mean of the slice fills.
	Fill float64
	// FalsePositiveRate is the product of the k slice fills: a non-member
	// probes one uniform bit per slice, so this is its exact chance of testing
	// positive in the filter as it is, duplicates included.
	FalsePositiveRate float64
}

// Stats counts the set bits of every slice and derives the statistics.
func (f *Filter) Stats() Stats {
	st := Stats{Bits: f.M(), Hashes: f.K(), Added: f.added, FalsePositiveRate: 1}
	for i := range f.slices {
		c := uint64(f.slices[i].Count())
		st.SetBits += c
		st.FalsePositiveRate *= float64(c) / float64(f.s)
	}
	st.Fill = float64(st.SetBits) / float64(st.Bits)
	return st
}
