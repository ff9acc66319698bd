package blocked

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/chainsieve/chainsieve/core/bloom"
)

const (
	blockBits  = 512 // one 64-byte cache line
	blockWords = blockBits / 64
	// maxBlocks (16 GiB of bits, as in core/bloom) bounds what New,
	// NewWithShape and UnmarshalBinary will allocate.
	maxBlocks = 1 << 37 / blockBits
)

// golden is 2^64/φ rounded to odd: multiplying by it walks the in-block
// positions (see probe).
const golden = 0x9e3779b97f4a7c15

type block [blockWords]uint64

// Filter is a blocked Bloom filter: blocks of 512 bits, and all k bits of an
// element in one block.
type Filter struct {
	blocks []block
	k      int
	added  uint64
}

// New returns an empty filter sized for n elements at false-positive rate p:
// of every k and block count whose [FalsePositiveRate] at n elements is at
// most p, the one with the fewest blocks (the smaller k on a tie). Blocking
// costs memory, more as p falls: at n = 100,000 it takes 9.92 bits per
// element and k = 6 at 1 % (the classic filter 9.59 and k = 7), 15.55 and
// k = 9 at 0.1 % (14.38), 37.78 and k = 16 at 1/784,931 (28.25). It returns
// an error for n = 0, for p outside (0, 1), and for sizes beyond 2^37 bits.
func New(n uint64, p float64) (*Filter, error) {
	if n == 0 {
		return nil, errors.New("blocked: capacity must be at least 1")
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("blocked: false-positive rate %g outside (0, 1)", p)
	}
	blocks, k := size(float64(n), p)
	if k == 0 {
		return nil, fmt.Errorf("blocked: %d elements at rate %g need more than %d bits", n, p, uint64(maxBlocks*blockBits))
	}
	return NewWithShape(blocks, k)
}

// size returns the fewest blocks, and the k that needs them, holding n
// elements at rate p, or k = 0 if more than maxBlocks are needed. The memory
// needed falls and then rises with k, so the search stops two k past the
// best (TestNewIsOptimal checks it against every k).
func size(n, p float64) (blocks uint64, k int) {
	for j := 1; j <= bloom.MaxHashes && (k == 0 || j <= k+2); j++ {
		if b, ok := fewestBlocks(n, p, j); ok && (k == 0 || b < blocks) {
			blocks, k = b, j
		}
	}
	return blocks, k
}

// fewestBlocks returns the fewest blocks that hold n elements with k bits
// each at rate p, if at most maxBlocks do. The rate falls as blocks are
// added, so it gallops up from the classic filter's size, which a blocked
// filter never beats, then bisects.
func fewestBlocks(n, p float64, k int) (uint64, bool) {
	occ := newOccupancy(k)
	ok := func(b uint64) bool {
		m := float64(b) * blockBits
		if r, done := edgeRate(m, float64(k), n); done {
			return r <= p
		}
		return occ.mixture(n*blockBits/m) <= p
	}
	lo := uint64(min(max(math.Floor(bloom.OptimalBits(n, p)/blockBits), 1), maxBlocks))
	if ok(lo) {
		for lo > 1 && ok(lo/2) {
			lo /= 2
		}
		return bisect(lo/2, lo, ok), true
	}
	hi := lo
	for !ok(hi) {
		if hi == maxBlocks {
			return 0, false
		}
		lo, hi = hi, min(2*hi, maxBlocks)
	}
	return bisect(lo, hi, ok), true
}

// bisect returns the smallest b in (lo, hi] with ok(b), given ok(hi) and
// ok monotone.
func bisect(lo, hi uint64, ok func(uint64) bool) uint64 {
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// NewWithShape returns an empty filter of the given number of 512-bit blocks
// and k bits per element. It returns an error for k outside
// [1, bloom.MaxHashes] and for blocks outside [1, 2^28].
func NewWithShape(blocks uint64, k int) (*Filter, error) {
	if blocks == 0 || blocks > maxBlocks {
		return nil, fmt.Errorf("blocked: %d blocks outside [1, %d]", blocks, maxBlocks)
	}
	if k < 1 || k > bloom.MaxHashes {
		return nil, fmt.Errorf("blocked: hash count %d outside [1, %d]", k, bloom.MaxHashes)
	}
	return &Filter{blocks: make([]block, blocks), k: k}, nil
}

// Blocks returns the number of 512-bit blocks.
func (f *Filter) Blocks() uint64 { return uint64(len(f.blocks)) }

// M returns the number of bits, 512 per block.
func (f *Filter) M() uint64 { return f.Blocks() * blockBits }

// K returns the number of bits set per element.
func (f *Filter) K() int { return f.k }

// Added returns the number of Add calls: an upper bound on the distinct
// elements held.
func (f *Filter) Added() uint64 { return f.added }

// Add inserts data: k bits of one block. It does not allocate.
func (f *Filter) Add(data []byte) {
	h1, x := bloom.Hash(data)
	b := f.block(h1)
	for range f.k {
		var p uint64
		x, p = probe(x)
		b[p/64] |= 1 << (p % 64)
	}
	f.added++
}

// Test reports whether data may be in the filter, reading one cache line. A
// false result is certain; a true result is wrong with the filter's
// false-positive rate. It does not allocate.
//
// Testing bit by bit and stopping at the first clear bit measured faster
// than building the element's 8-word mask and comparing it once: equal for
// members, 25 against 26–30 ns for non-members at 100,000 elements, and
// about 100 against 170 ns for non-members at 10,000,000, where the early
// return lets the next query's cache miss start sooner (both versions
// benchmarked side by side, 6 runs, on this package's BenchmarkFilter keys;
// Add likewise, 18–23 against 25–27 ns at 100,000).
func (f *Filter) Test(data []byte) bool {
	h1, x := bloom.Hash(data)
	b := f.block(h1)
	for range f.k {
		var p uint64
		x, p = probe(x)
		if b[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// block picks the element's block from h1 by multiplication: the high word
// of h1·blocks is uniform on [0, blocks).
func (f *Filter) block(h1 uint64) *block {
	hi, _ := bits.Mul64(h1, uint64(len(f.blocks)))
	return &f.blocks[hi]
}

// probe returns the next state and in-block position of an element whose
// state starts at h2: position i is the top 9 bits of h2·golden^(i+1). h2 is
// independent of the h1 that chose the block, and multiplying by an odd
// constant permutes [0, 2^64), so every position is uniform on [0, 512) and
// successive ones behave as independent (TestRateAndPenalty measures the rate
// the theory predicts). Double hashing, the top bits of h2 + i·s with s
// taken from the low word of h1·blocks, was measured and dropped: one element
// in 512 draws a step whose top 9 bits are 0 and sets a single bit, others
// a handful, and at n = 100,000 and 1/784,931 (k = 16) it measured 1.6e-4
// false positives, 123 times the theory; at 1 % 0.0107 against 0.0100.
func probe(x uint64) (next, pos uint64) {
	x *= golden
	return x, x >> 55
}

// Reset empties the filter, keeping its shape.
func (f *Filter) Reset() {
	clear(f.blocks)
	f.added = 0
}

// Equal reports whether f and g have the same shape and the same bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.k != g.k || len(f.blocks) != len(g.blocks) {
		return false
	}
	for i := range f.blocks {
		if f.blocks[i] != g.blocks[i] {
			return false
		}
	}
	return true
}

// Stats describes a filter's fill.
type Stats struct {
	Bits    uint64 // 512 per block, the table as encoded
	Blocks  uint64
	Hashes  int    // k, bits set per element
	Added   uint64 // see [Filter.Added]
	SetBits uint64 // population count
	// Fill is SetBits / Bits.
	Fill float64
	// FalsePositiveRate is the mean over blocks of (set bits / 512)^k: a
	// random non-member picks a uniform block and k uniform bits in it, so
	// this is its chance of testing positive in the filter as it is. It
	// exceeds Fill^k because the blocks fill unevenly.
	FalsePositiveRate float64
}

// Stats counts the set bits of every block and derives the statistics.
func (f *Filter) Stats() Stats {
	var rate [blockBits + 1]float64 // (c/512)^k for every count c
	for c := range rate {
		rate[c] = math.Pow(float64(c)/blockBits, float64(f.k))
	}
	st := Stats{Bits: f.M(), Blocks: f.Blocks(), Hashes: f.k, Added: f.added}
	for i := range f.blocks {
		c := 0
		for _, w := range f.blocks[i] {
			c += bits.OnesCount64(w)
		}
		st.SetBits += uint64(c)
		st.FalsePositiveRate += rate[c]
	}
	st.Fill = float64(st.SetBits) / float64(st.Bits)
	st.FalsePositiveRate /= float64(len(f.blocks))
	return st
}
