package counting

import (
	"encoding/binary"
	"errors"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 1:
//
//	"CSCB"        4 bytes, magic
//	version       1 byte, 1
//	m             uvarint, counters, 1..2^35
//	k             uvarint, hash functions, 1..bloom.MaxHashes
//	added         uvarint, any value
//	counters      ⌈m/2⌉ bytes, counter i in byte i/2, low nibble for even i;
//	              for odd m the high nibble of the last byte is zero
//
// Version 1 fixes the hashing and positions of core/bloom's Filter: a new hash
// or position rule needs a new version.
const (
	magic   = "CSCB"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("counting: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.m)
	b = binary.AppendUvarint(b, uint64(f.k))
	b = binary.AppendUvarint(b, f.added)
	// Little-endian words put counter i in byte i/2, low nibble first.
	full := f.m / perWord
	for _, w := range f.words[:full] {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	if rem := (f.m%perWord + 1) / 2; rem > 0 {
		b = binary.LittleEndian.AppendUint64(b, f.words[full])[:len(b)+int(rem)]
	}
	return b, nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 32+(f.m+1)/2))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding: no trailing bytes, no counter beyond m. The added
// count is not checked against the counters: a saturated counter keeps 15
// after its elements are removed, so any count goes with any counters.
// Errors wrap [ErrCorrupt] and name the byte offset; f is unchanged on error.
// Memory use is bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	m := d.Uvarint("size in counters", 1, maxCounters)
	k := d.Uvarint("hash count", 1, bloom.MaxHashes)
	added := d.Uvarint("added count", 0, 1<<64-1)
	rest := d.Rest("counters", (m+1)/2)
	if err := d.Err(); err != nil {
		return err
	}
	if m%2 == 1 && rest[len(rest)-1]>>4 != 0 {
		return d.Fail(len(data)-1, "counter %d beyond m = %d is set", m, m)
	}
	words := make([]uint64, (m+perWord-1)/perWord)
	for i := range words {
		var buf [8]byte
		copy(buf[:], rest[min(8*i, len(rest)):])
		words[i] = binary.LittleEndian.Uint64(buf[:])
	}
	*f = Filter{words: words, m: m, k: int(k), added: added}
	return nil
}
