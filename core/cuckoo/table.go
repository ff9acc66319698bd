package cuckoo

import "math/bits"

// slotsPerBucket is b of the paper: four fingerprints share a bucket.
const slotsPerBucket = 4

// maxBits (16 GiB of fingerprints) bounds the table that NewWithShape and
// UnmarshalBinary will allocate.
const maxBits = 1 << 37

// table is the bit-packed array of buckets: slot j of bucket i holds an f-bit
// fingerprint at bit (4i + j)·f of the stream, and bit k of the stream is bit
// k%64 of words[k/64]. A zero slot is empty. One word of padding after the
// last slot lets every read and write touch two words without a bounds test.
type table struct {
	words   []uint64
	buckets uint64
	f       uint64 // fingerprint bits, 2..32
	fpMask  uint64 // 2^f − 1
	// step is the bits compared per load: all four slots (4f) when they fit
	// in a word, two halves of two slots (2f) when f > 16.
	step uint64
	// SWAR constants for step/f lanes of f bits: ones has the low bit of
	// every lane, high the top bit, low every other lane bit.
	ones, high, low uint64
}

func newTable(buckets uint64, f uint) table {
	t := table{buckets: buckets, f: uint64(f), fpMask: 1<<f - 1}
	lanes := uint64(slotsPerBucket)
	if slotsPerBucket*f > 64 {
		lanes = 2
	}
	t.step = lanes * t.f
	for j := range lanes {
		t.ones |= 1 << (j * t.f)
	}
	t.high = t.ones << (f - 1)
	t.low = t.ones * t.fpMask &^ t.high
	t.words = make([]uint64, (t.bits()+63)/64+1)
	return t
}

// bits returns the size of the table without its padding.
func (t *table) bits() uint64 { return t.buckets * slotsPerBucket * t.f }

// load returns the 64 bits of the stream that start at bit pos. Bits of the
// next word enter only when pos is not word-aligned (a shift by 64 is 0 in Go).
func (t *table) load(pos uint64) uint64 {
	w, s := pos/64, pos%64
	return t.words[w]>>s | t.words[w+1]<<(64-s)
}

// slot returns the fingerprint at bit pos.
func (t *table) slot(pos uint64) uint64 { return t.load(pos) & t.fpMask }

// set writes fingerprint v (or 0, to empty it) at bit pos. The second word's
// mask is zero when the slot does not straddle, so both writes always run.
func (t *table) set(pos, v uint64) {
	w, s := pos/64, pos%64
	t.words[w] = t.words[w]&^(t.fpMask<<s) | v<<s
	t.words[w+1] = t.words[w+1]&^(t.fpMask>>(64-s)) | v>>(64-s)
}

// zeroLanes returns the top bit of every lane of x that is zero. Adding low
// to the lane's low bits cannot carry out of the lane (the sum is below 2^f),
// so the result is exact per lane, unlike the borrow-based (x − ones) &^ x
// test, whose borrows can flag the lane above a zero one. Bits of x above
// the lanes are ignored.
func (t *table) zeroLanes(x uint64) uint64 {
	return ^((x&t.low + t.low) | x) & t.high
}

// find returns the bit position of the first slot of bucket i that holds v
// (0 finds an empty slot). pattern is v·ones: a slot equals v exactly when
// its lane of load ^ pattern is zero.
func (t *table) find(i, pattern uint64) (pos uint64, ok bool) {
	off := i * slotsPerBucket * t.f
	end := off + slotsPerBucket*t.f
	for p := off; p < end; p += t.step {
		if z := t.zeroLanes(t.load(p) ^ pattern); z != 0 {
			return p + uint64(bits.TrailingZeros64(z)) + 1 - t.f, true
		}
	}
	return 0, false
}

// occupied counts the nonzero slots.
func (t *table) occupied() uint64 {
	var n uint64
	for pos := uint64(0); pos < t.bits(); pos += t.f {
		if t.slot(pos) != 0 {
			n++
		}
	}
	return n
}

func (t *table) reset() { clear(t.words) }
