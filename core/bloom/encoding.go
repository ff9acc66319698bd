package bloom

import (
	"encoding/binary"
	"errors"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 2:
//
//	"CSBF"        4 bytes, magic
//	version       1 byte, 2
//	m             uvarint, bits, 1..2^37-64
//	k             uvarint, hash functions, 1..MaxHashes
//	added         uvarint
//	bits          (m+7)/8 bytes, bit i in byte i/8 under mask 1<<(i%8),
//	              unused high bits of the last byte zero
//
// A version fixes the hashing described in the package doc: a new hash or
// position rule needs a new version. Version 1 placed elements by double
// hashing (see [Probe] for why that changed) and is not read: no filter of
// that version was ever released.
const (
	magic   = "CSBF"
	version = 2
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("bloom: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.m)
	b = binary.AppendUvarint(b, uint64(f.k))
	b = binary.AppendUvarint(b, f.added)
	return f.bits.AppendBytes(b), nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 32+(f.m+7)/8))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding: no trailing bytes, no bits set beyond m. Errors wrap
// [ErrCorrupt] and name the byte offset; f is unchanged on error. Memory use is
// bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	m := d.Uvarint("size in bits", 1, maxBits)
	k := d.Uvarint("hash count", 1, MaxHashes)
	added := d.Uvarint("added count", 0, 1<<64-1)
	rest := d.Rest("bits", (m+7)/8)
	if err := d.Err(); err != nil {
		return err
	}
	set, err := bitset.FromBytes(uint(m), rest)
	if err != nil {
		return d.Fail(len(data)-1, "%v", err)
	}
	*f = Filter{bits: set, m: m, k: int(k), added: added}
	return nil
}
