package bloom

import (
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitset"
)

// MaxHashes is the largest number of hash functions a [Filter] accepts. The
// optimal count exceeds it only for false-positive rates below 1e-30.
const MaxHashes = 100

// maxBits (16 GiB of bits) bounds what New, NewWithShape and UnmarshalBinary
// will allocate.
const maxBits = 1 << 37

// ErrShape is returned when two filters of different size or hash count are
// combined.
var ErrShape = errors.New("bloom: filters differ in shape")

// Filter is a classic Bloom filter of m bits and k hash functions.
type Filter struct {
	bits  *bitset.Set
	m     uint64
	k     int
	added uint64
}

// New returns an empty filter sized for n elements at false-positive rate p:
// m bits and k hash functions as [Shape] gives them, k at most [MaxHashes].
// It returns an error for n = 0, for p outside (0, 1), and for sizes beyond
// 2^37 bits.
func New(n uint64, p float64) (*Filter, error) {
	if n == 0 {
		return nil, errors.New("bloom: capacity must be at least 1")
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("bloom: false-positive rate %g outside (0, 1)", p)
	}
	m, k := Shape(float64(n), p)
	if m > maxBits {
		return nil, fmt.Errorf("bloom: %d elements at rate %g need %.0f bits, more than %d", n, p, m, uint64(maxBits))
	}
	return NewWithShape(uint64(m), min(k, MaxHashes))
}

// NewWithShape returns an empty filter of exactly m bits and k hash functions.
func NewWithShape(m uint64, k int) (*Filter, error) {
	if m == 0 || m > maxBits {
		return nil, fmt.Errorf("bloom: size %d bits outside [1, %d]", m, uint64(maxBits))
	}
	if k < 1 || k > MaxHashes {
		return nil, fmt.Errorf("bloom: hash count %d outside [1, %d]", k, MaxHashes)
	}
	return &Filter{bits: bitset.New(uint(m)), m: m, k: k}, nil
}

// M returns the number of bits.
func (f *Filter) M() uint64 { return f.m }

// K returns the number of hash functions.
func (f *Filter) K() int { return f.k }

// Added returns the number of Add calls, plus those of filters merged in by
// [Filter.Union]: an upper bound on the distinct elements held.
func (f *Filter) Added() uint64 { return f.added }

// Add inserts data. It does not allocate.
func (f *Filter) Add(data []byte) {
	p := NewProbe(Hash(data))
	for range f.k {
		f.bits.Set(uint(p.Next(f.m)))
	}
	f.added++
}

// Test reports whether data may be in the filter. A false result is certain;
// a true result is wrong with the filter's false-positive rate. It does not
// allocate.
func (f *Filter) Test(data []byte) bool {
	p := NewProbe(Hash(data))
	for range f.k {
		if !f.bits.Test(uint(p.Next(f.m))) {
			return false
		}
	}
	return true
}

// Reset empties the filter, keeping its shape.
func (f *Filter) Reset() {
	f.bits.Reset()
	f.added = 0
}

// Stats describes a filter's fill.
type Stats struct {
	Bits    uint64 // m
	Hashes  int    // k
	Added   uint64 // see [Filter.Added]
	SetBits uint64 // population count
	// Fill is SetBits / Bits.
	Fill float64
	// EstimatedCount is the [EstimatedCount] of distinct elements.
	EstimatedCount float64
	// FalsePositiveRate is the [FilledFalsePositiveRate] of the filter as it
	// is, which accounts for duplicates and merges that Added cannot see.
	FalsePositiveRate float64
}

// Stats counts the set bits and derives the filter's statistics from them.
func (f *Filter) Stats() Stats {
	x := uint64(f.bits.Count())
	m, k := float64(f.m), float64(f.k)
	return Stats{
		Bits:              f.m,
		Hashes:            f.k,
		Added:             f.added,
		SetBits:           x,
		Fill:              float64(x) / m,
		EstimatedCount:    EstimatedCount(m, k, float64(x)),
		FalsePositiveRate: FilledFalsePositiveRate(m, k, float64(x)),
	}
}

// Union adds every element of g to f. Both must have the same shape; otherwise
// it returns an error wrapping [ErrShape] and leaves f unchanged.
func (f *Filter) Union(g *Filter) error {
	if err := f.sameShape(g); err != nil {
		return err
	}
	f.bits.Or(g.bits)
	f.added += g.added
	return nil
}

// Intersect keeps in f only the bits also set in g, so f tests positive for
// every element added to both (and for some others: the intersection of two
// filters has a higher false-positive rate than a filter of the common
// elements). Both must have the same shape; otherwise it returns an error
// wrapping [ErrShape] and leaves f unchanged. Added becomes the smaller of the
// two counts, still an upper bound.
func (f *Filter) Intersect(g *Filter) error {
	if err := f.sameShape(g); err != nil {
		return err
	}
	f.bits.And(g.bits)
	f.added = min(f.added, g.added)
	return nil
}

func (f *Filter) sameShape(g *Filter) error {
	if f.m != g.m || f.k != g.k {
		return fmt.Errorf("%w: m=%d k=%d and m=%d k=%d", ErrShape, f.m, f.k, g.m, g.k)
	}
	return nil
}

// Equal reports whether f and g have the same shape and the same bits.
func (f *Filter) Equal(g *Filter) bool {
	return f.m == g.m && f.k == g.k && f.bits.Equal(g.bits)
}
