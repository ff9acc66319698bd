package bip37

import (
	"encoding/binary"
	"fmt"

	"github.com/chainsieve/chainsieve/core/compactsize"
)

// The filterload payload: CompactSize(len(data)) ‖ data ‖ uint32le
// hashFuncs ‖ uint32le tweak ‖ uint8 flags.

// AppendBinary appends the filterload payload of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = compactsize.Append(b, uint64(len(f.data)))
	b = append(b, f.data...)
	b = binary.LittleEndian.AppendUint32(b, f.hashFuncs)
	b = binary.LittleEndian.AppendUint32(b, f.tweak)
	return append(b, byte(f.flags)), nil
}

// MarshalBinary returns the filterload payload of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 9+len(f.data)+9))
}

// UnmarshalBinary replaces f with the filter in a filterload payload. It
// enforces Core's limits before allocating, and rejects bytes after the
// flags; errors name the byte offset.
func (f *Filter) UnmarshalBinary(b []byte) error {
	n, off, err := readCompactSize(b, 0, "filterload")
	if err != nil {
		return err
	}
	if n > MaxFilterSize {
		return fmt.Errorf("bip37: filterload: filter of %d bytes exceeds %d", n, MaxFilterSize)
	}
	if need := off + int(n) + 9; len(b) < need {
		return fmt.Errorf("bip37: filterload: %d bytes, want %d: truncated at byte %d", len(b), need, len(b))
	} else if len(b) > need {
		return fmt.Errorf("bip37: filterload: %d unexpected bytes at byte %d", len(b)-need, need)
	}
	data := b[off : off+int(n)]
	tail := b[off+int(n):]
	k := binary.LittleEndian.Uint32(tail)
	if k > MaxHashFuncs {
		return fmt.Errorf("bip37: filterload: %d hash functions at byte %d exceed %d", k, off+int(n), MaxHashFuncs)
	}
	*f = *newFilter(append([]byte(nil), data...), k, binary.LittleEndian.Uint32(tail[4:]), Flags(tail[8]))
	return nil
}

// readCompactSize reads a CompactSize at b[off:] and returns it with the
// offset after it. Like Core it rejects encodings longer than needed.
func readCompactSize(b []byte, off int, what string) (uint64, int, error) {
	if off >= len(b) {
		return 0, off, fmt.Errorf("bip37: %s: truncated at byte %d, want a length", what, off)
	}
	v, n, err := compactsize.Read(b[off:])
	switch err {
	case compactsize.ErrShort:
		return 0, off, fmt.Errorf("bip37: %s: truncated length at byte %d", what, off)
	case compactsize.ErrNonCanonical:
		return 0, off, fmt.Errorf("bip37: %s: non-canonical length %d at byte %d", what, v, off)
	}
	return v, off + n, nil
}
