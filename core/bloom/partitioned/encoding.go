package partitioned

import (
	"encoding/binary"
	"errors"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 1:
//
//	"CSPB"        4 bytes, magic
//	version       1 byte, 1
//	m             uvarint, bits, 1..2^37, a multiple of k
//	k             uvarint, hash functions and slices, 1..bloom.MaxHashes
//	added         uvarint
//	slices        k times ⌈(m/k)/8⌉ bytes: bit j of a slice in byte j/8
//	              under mask 1<<(j%8), unused high bits of its last byte zero
//
// Version 1 fixes the hashing described in the package doc: a new hash or
// position rule needs a new version.
const (
	magic   = "CSPB"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("partitioned: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.M())
	b = binary.AppendUvarint(b, uint64(f.K()))
	b = binary.AppendUvarint(b, f.added)
	for i := range f.slices {
		b = f.slices[i].AppendBytes(b)
	}
	return b, nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 32+uint64(f.K())*((f.s+7)/8)))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding: m a multiple of k, no trailing bytes, no bits set
// beyond a slice. Errors wrap [ErrCorrupt] and name the byte offset; f is
// unchanged on error. Memory use is bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	m := d.Uvarint("size in bits", 1, maxBits)
	kOff := d.Offset()
	k := d.Uvarint("hash count", 1, bloom.MaxHashes)
	if d.Err() == nil && m%k != 0 {
		return d.Fail(kOff, "size %d bits is not a multiple of hash count %d", m, k)
	}
	added := d.Uvarint("added count", 0, 1<<64-1)
	s := m / max(k, 1)
	sliceBytes := (s + 7) / 8
	start := d.Offset()
	rest := d.Rest("slices", k*sliceBytes)
	if err := d.Err(); err != nil {
		return err
	}
	g := Filter{slices: make([]bitset.Set, k), s: s, added: added}
	for i := range g.slices {
		off := uint64(i) * sliceBytes
		set, err := bitset.FromBytes(uint(s), rest[off:off+sliceBytes])
		if err != nil {
			return d.Fail(start+int(off+sliceBytes)-1, "slice %d: %v", i, err)
		}
		g.slices[i] = *set
	}
	*f = g
	return nil
}
