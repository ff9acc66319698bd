package cuckoo

import (
	"encoding/binary"
	"errors"

	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 1:
//
//	"CSCF"        4 bytes, magic
//	version       1 byte, 1
//	buckets       uvarint, 1..2^37/(4f)
//	f             uvarint, fingerprint bits, 2..32
//	items         uvarint, the number of nonzero slots
//	table         ⌈buckets·4·f/8⌉ bytes: bit k of the packed slot stream
//	              (slot j of bucket i at bits (4i+j)·f ..) in byte k/8
//	              under mask 1<<(k%8); unused high bits of the last byte zero
//
// Version 1 fixes the hashing and the alternate-bucket rule of the package
// doc: a new rule needs a new version. The victim generator's state is not
// encoded: it restarts from its seed.
const (
	magic   = "CSCF"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("cuckoo: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.t.buckets)
	b = binary.AppendUvarint(b, f.t.f)
	b = binary.AppendUvarint(b, f.items)
	n := (f.t.bits() + 7) / 8
	for _, w := range f.t.words[:n/8] {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for k, w := uint64(0), f.t.words[n/8]; k < n%8; k++ {
		b = append(b, byte(w>>(8*k)))
	}
	return b, nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 32+(f.t.bits()+7)/8))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding: no trailing bytes, no bits set beyond the table,
// an items field equal to the nonzero slots counted. Errors wrap
// [ErrCorrupt] and name the byte offset; f is unchanged on error. Memory use
// is bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	buckets := d.Uvarint("bucket count", 1, maxBits/(slotsPerBucket*2))
	off := d.Offset()
	fb := d.Uvarint("fingerprint width", 2, 32)
	if d.Err() == nil && buckets > maxBits/(slotsPerBucket*fb) {
		d.Fail(off, "%d buckets of %d-bit fingerprints exceed %d bits", buckets, fb, uint64(maxBits))
	}
	off = d.Offset()
	items := d.Uvarint("item count", 0, buckets*slotsPerBucket)
	nbits := buckets * slotsPerBucket * fb
	rest := d.Rest("table", (nbits+7)/8)
	if err := d.Err(); err != nil {
		return err
	}
	if r := nbits % 8; r != 0 && rest[len(rest)-1]>>r != 0 {
		return d.Fail(len(data)-1, "bits set beyond the table")
	}
	t := newTable(buckets, uint(fb))
	for k, c := range rest {
		t.words[k/8] |= uint64(c) << (8 * (k % 8))
	}
	if got := t.occupied(); got != items {
		return d.Fail(off, "item count %d, but %d slots are in use", items, got)
	}
	*f = Filter{t: t, items: items, rng: rngSeed}
	return nil
}
