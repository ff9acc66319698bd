package gcs

import (
	"encoding/binary"
	"fmt"
)

// appendCompactSize appends Bitcoin's CompactSize encoding of n.
func appendCompactSize(dst []byte, n uint64) []byte {
	switch {
	case n < 0xfd:
		return append(dst, byte(n))
	case n <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(dst, 0xfd), uint16(n))
	case n <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(dst, 0xfe), uint32(n))
	}
	return binary.LittleEndian.AppendUint64(append(dst, 0xff), n)
}

// readCompactSize decodes the CompactSize at the start of b and returns it
// with its length. Like Bitcoin Core it rejects a value that a shorter form
// could hold.
func readCompactSize(b []byte) (n uint64, size int, err error) {
	if len(b) == 0 {
		return 0, 0, corruptf("empty encoding, want a CompactSize N at byte 0")
	}
	var min uint64
	switch b[0] {
	default:
		return uint64(b[0]), 1, nil
	case 0xfd:
		size, min = 3, 0xfd
	case 0xfe:
		size, min = 5, 0x10000
	case 0xff:
		size, min = 9, 0x100000000
	}
	if len(b) < size {
		return 0, 0, corruptf("CompactSize N of %d bytes truncated at byte %d", size, len(b))
	}
	var buf [8]byte
	copy(buf[:], b[1:size])
	n = binary.LittleEndian.Uint64(buf[:])
	if n < min {
		return 0, 0, corruptf("non-canonical CompactSize N = %d in %d bytes at byte 0", n, size)
	}
	return n, size, nil
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("gcs: %w: "+format, append([]any{ErrCorrupt}, args...)...)
}
