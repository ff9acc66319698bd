package cuckoo

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// MaxKicks is how many fingerprints one Add may relocate before it gives
// up with [ErrFull], the limit of the paper.
const MaxKicks = 500

// DesignLoad is the fraction of slots that [New] plans to fill with n
// elements (before the slack for small n, see [New]). Random fills of
// 100,000-slot tables first failed at loads 0.952 to 0.970 (1,000 seeds,
// median 0.965); at 0.94 no fill of New(n, p) measured failed and the
// longest relocation chain stayed near half of MaxKicks.
const DesignLoad = 0.94

// minNewBits is the narrowest fingerprint New uses: with fewer values the
// alternate buckets H(fp) − i are too few for the table to reach DesignLoad
// (measured: 6 bits failed in 1 of 5 fills of a million, 5 bits in 40 of 50
// fills of 100,000).
const minNewBits = 8

// ErrFull is wrapped by the error Add returns when no slot was found
// within [MaxKicks] relocations.
var ErrFull = errors.New("cuckoo: filter full")

// Filter is a cuckoo filter: buckets of four f-bit fingerprints, each
// element stored in one of two candidate buckets.
type Filter struct {
	t     table
	items uint64
	// rng drives the choice of victims; it restarts from rngSeed on New,
	// Reset and UnmarshalBinary, so a filter's kicks are reproducible.
	rng uint64
	// path holds the slots one Add swapped, so a failure can undo them.
	path [MaxKicks]uint64
}

const rngSeed = 0x853c49e6748fea9b

// New returns an empty filter for n elements at false-positive rate p. The
// fingerprint has f = ⌈log2(8/p)⌉ bits, the bound ε ≤ 2b/2^f of the paper
// with b = 4, but at least 8 (see [DesignLoad]); the table holds
// n + 2√n + 6 elements at [DesignLoad], and for n < 64 at least n/2 + 2
// buckets, because small tables fail by chance at much lower loads. It
// returns an error for n = 0, for p outside (0, 1), for rates that need more
// than 32 fingerprint bits and for tables beyond 2^37 bits.
func New(n uint64, p float64) (*Filter, error) {
	if n == 0 {
		return nil, errors.New("cuckoo: capacity must be at least 1")
	}
	if !(p > 0 && p < 1) {
		return nil, fmt.Errorf("cuckoo: false-positive rate %g outside (0, 1)", p)
	}
	f := max(math.Ceil(math.Log2(2*slotsPerBucket/p)), minNewBits)
	if f > 32 {
		return nil, fmt.Errorf("cuckoo: false-positive rate %g needs %.0f-bit fingerprints, more than 32", p, f)
	}
	if b := n / slotsPerBucket; b > maxBits/(slotsPerBucket*uint64(f)) {
		return nil, fmt.Errorf("cuckoo: %d elements at rate %g need more than %d bits", n, p, uint64(maxBits))
	}
	b := bucketsFor(n)
	if b > maxBits/(slotsPerBucket*uint64(f)) {
		return nil, fmt.Errorf("cuckoo: %d elements at rate %g need %d buckets of %.0f-bit fingerprints, more than %d bits", n, p, b, f, uint64(maxBits))
	}
	return NewWithShape(b, int(f))
}

// bucketsFor returns the bucket count New gives n elements.
func bucketsFor(n uint64) uint64 {
	x := float64(n)
	b := uint64(math.Ceil((x + 2*math.Sqrt(x) + 6) / (slotsPerBucket * DesignLoad)))
	if n < 64 {
		b = max(b, n/2+2)
	}
	return b
}

// NewWithShape returns an empty filter of exactly buckets buckets and
// fingerprints of fingerprintBits bits, 2..32. The table, buckets·4·f bits,
// must not exceed 2^37 bits. The bucket count need not be a power of two.
func NewWithShape(buckets uint64, fingerprintBits int) (*Filter, error) {
	if fingerprintBits < 2 || fingerprintBits > 32 {
		return nil, fmt.Errorf("cuckoo: fingerprint width %d bits outside [2, 32]", fingerprintBits)
	}
	if limit := maxBits / (slotsPerBucket * uint64(fingerprintBits)); buckets == 0 || buckets > limit {
		return nil, fmt.Errorf("cuckoo: %d buckets outside [1, %d] for %d-bit fingerprints", buckets, limit, fingerprintBits)
	}
	return &Filter{t: newTable(buckets, uint(fingerprintBits)), rng: rngSeed}, nil
}

// hash returns the first bucket and the fingerprint of data. The bucket comes
// from h1, the fingerprint from h2, mapped onto [1, 2^f − 1] by
// multiplication so that 0 stays free to mean empty.
func (f *Filter) hash(data []byte) (i1, fp uint64) {
	h1, h2 := bloom.Hash(data)
	i1, _ = bits.Mul64(h1, f.t.buckets)
	fp, _ = bits.Mul64(h2, f.t.fpMask)
	return i1, fp + 1
}

// alt returns the other bucket of fingerprint fp stored in bucket i:
// (H(fp) − i) mod buckets, an involution for any bucket count. The wrap is
// added without a branch: which side of i H(fp) falls is a coin toss, and a
// mispredicted branch cost a non-member lookup 3 ns of its 24.
func (f *Filter) alt(i, fp uint64) uint64 {
	h, _ := bits.Mul64(fp*0x9e3779b97f4a7c15, f.t.buckets)
	d, borrow := bits.Sub64(h, i, 0)
	return d + f.t.buckets&-borrow
}

// Add inserts data. When no slot is found within [MaxKicks] relocations it
// returns an error wrapping [ErrFull] and leaves the filter exactly as it
// was: the relocations are undone, so no element already inserted is lost.
// The same element can be inserted at most 8 times (twice b; 4 times when
// both its buckets coincide). Add allocates only the error of a failure.
func (f *Filter) Add(data []byte) error {
	i, fp := f.hash(data)
	if f.put(i, fp) {
		return nil
	}
	i2 := f.alt(i, fp)
	if f.put(i2, fp) {
		return nil
	}
	if f.next()&1 == 1 {
		i = i2
	}
	for k := range MaxKicks {
		pos := i*slotsPerBucket*f.t.f + (f.next()>>62)*f.t.f
		f.path[k] = pos
		fp = f.swap(pos, fp)
		i = f.alt(i, fp)
		if f.put(i, fp) {
			return nil
		}
	}
	for k := MaxKicks - 1; k >= 0; k-- {
		fp = f.swap(f.path[k], fp)
	}
	return fmt.Errorf("%w at load %.4f (%d of %d slots) after %d relocations",
		ErrFull, f.load(), f.items, f.slots(), MaxKicks)
}

// put stores fp in an empty slot of bucket i, if there is one.
func (f *Filter) put(i, fp uint64) bool {
	pos, ok := f.t.find(i, 0)
	if ok {
		f.t.set(pos, fp)
		f.items++
	}
	return ok
}

// swap stores fp at pos and returns the fingerprint it displaced.
func (f *Filter) swap(pos, fp uint64) uint64 {
	old := f.t.slot(pos)
	f.t.set(pos, fp)
	return old
}

// next steps the victim generator (SplitMix64) and returns its output; the
// top bits choose the slot.
func (f *Filter) next() uint64 {
	f.rng += 0x9e3779b97f4a7c15
	z := f.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Test reports whether data may be in the filter. A false result is
// certain; a true result is wrong with the filter's false-positive rate. It
// does not allocate.
func (f *Filter) Test(data []byte) bool {
	i, fp := f.hash(data)
	t := &f.t
	pattern := fp * t.ones
	oi, oj := i*slotsPerBucket*t.f, f.alt(i, fp)*slotsPerBucket*t.f
	// Every load is issued before any test, so the two cache misses of a
	// non-member overlap, and no branch depends on where a member sits
	// (measured against testing the buckets in turn: 17 against 19 ns at
	// f = 8, 23 against 30 ns at f = 23). Written out here because a
	// table method doing it is too large to inline, which cost 1 ns.
	z := t.zeroLanes(t.load(oi)^pattern) | t.zeroLanes(t.load(oj)^pattern)
	if t.step < slotsPerBucket*t.f {
		z |= t.zeroLanes(t.load(oi+t.step)^pattern) | t.zeroLanes(t.load(oj+t.step)^pattern)
	}
	return z != 0
}

// Remove removes one copy of data's fingerprint from either of its buckets
// and reports whether it found one. Remove only elements that were
// inserted: removing another element whose fingerprint and bucket collide
// with a stored one removes that one, which then tests negative. It does
// not allocate.
func (f *Filter) Remove(data []byte) bool {
	i, fp := f.hash(data)
	pattern := fp * f.t.ones
	pos, ok := f.t.find(i, pattern)
	if !ok {
		pos, ok = f.t.find(f.alt(i, fp), pattern)
	}
	if ok {
		f.t.set(pos, 0)
		f.items--
	}
	return ok
}

// Count returns the number of fingerprints stored: inserts that succeeded
// minus deletes that found one.
func (f *Filter) Count() uint64 { return f.items }

// Reset empties the filter, keeping its shape.
func (f *Filter) Reset() {
	f.t.reset()
	f.items = 0
	f.rng = rngSeed
}

func (f *Filter) slots() uint64 { return f.t.buckets * slotsPerBucket }

func (f *Filter) load() float64 { return float64(f.items) / float64(f.slots()) }
