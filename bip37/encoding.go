package bip37

import (
	"encoding/binary"
	"fmt"
)

// The filterload payload: CompactSize(len(data)) ‖ data ‖ uint32le
// hashFuncs ‖ uint32le tweak ‖ uint8 flags.

// AppendBinary appends the filterload payload of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = appendCompactSize(b, uint64(len(f.data)))
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

// appendCompactSize appends Bitcoin's variable-length integer.
func appendCompactSize(b []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(b, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(b, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(v))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xff), v)
}

// readCompactSize reads a CompactSize at b[off:] and returns it with the
// offset after it. Like Core it rejects encodings longer than needed.
func readCompactSize(b []byte, off int, what string) (uint64, int, error) {
	if off >= len(b) {
		return 0, off, fmt.Errorf("bip37: %s: truncated at byte %d, want a length", what, off)
	}
	width, least := 0, uint64(0)
	switch b[off] {
	case 0xfd:
		width, least = 2, 0xfd
	case 0xfe:
		width, least = 4, 0x10000
	case 0xff:
		width, least = 8, 0x100000000
	default:
		return uint64(b[off]), off + 1, nil
	}
	if len(b)-off-1 < width {
		return 0, off, fmt.Errorf("bip37: %s: truncated length at byte %d", what, off)
	}
	var v uint64
	for i := width; i >= 1; i-- {
		v = v<<8 | uint64(b[off+i])
	}
	if v < least {
		return 0, off, fmt.Errorf("bip37: %s: non-canonical length %d at byte %d", what, v, off)
	}
	return v, off + 1 + width, nil
}
