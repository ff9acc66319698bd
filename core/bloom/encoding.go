package bloom

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitset"
)

// The encoding, version 1:
//
//	"CSBF"        4 bytes, magic
//	version       1 byte, 1
//	m             uvarint, bits, 1..2^37-64
//	k             uvarint, hash functions, 1..MaxHashes
//	added         uvarint
//	bits          (m+7)/8 bytes, bit i in byte i/8 under mask 1<<(i%8),
//	              unused high bits of the last byte zero
//
// Version 1 fixes the hashing described in the package doc: a new hash or
// position rule needs a new version.
const (
	magic   = "CSBF"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("bloom: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, magic...)
	b = append(b, version)
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
	d := decoder{data: data}
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return corrupt(0, "missing magic %q", magic)
	}
	d.off = len(magic)
	if v := data[d.off]; v != version {
		return corrupt(d.off, "unknown version %d", v)
	}
	d.off++
	m, k, added := d.uvarint(), d.uvarint(), d.uvarint()
	if d.err != nil {
		return d.err
	}
	if m == 0 || m > maxBits {
		return corrupt(len(magic)+1, "size %d bits outside [1, %d]", m, uint64(maxBits))
	}
	if k == 0 || k > MaxHashes {
		return corrupt(len(magic)+1, "hash count %d outside [1, %d]", k, MaxHashes)
	}
	rest := data[d.off:]
	if want := (m + 7) / 8; uint64(len(rest)) != want {
		return corrupt(d.off, "%d bytes of bits, want %d", len(rest), want)
	}
	set, err := bitset.FromBytes(uint(m), rest)
	if err != nil {
		return corrupt(len(data)-1, "%v", err)
	}
	*f = Filter{bits: set, m: m, k: int(k), added: added}
	return nil
}

type decoder struct {
	data []byte
	off  int
	err  error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.err = corrupt(d.off, "bad uvarint")
		return 0
	}
	// Uvarint accepts padded forms such as c5 00 for 0x45; the encoding
	// allows one form per value.
	if n > 1 && d.data[d.off+n-1] == 0 {
		d.err = corrupt(d.off, "non-canonical uvarint")
		return 0
	}
	d.off += n
	return v
}

func corrupt(off int, format string, args ...any) error {
	return fmt.Errorf("%w at byte %d: %s", ErrCorrupt, off, fmt.Sprintf(format, args...))
}
