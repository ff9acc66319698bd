// Package compactsize encodes and decodes Bitcoin's CompactSize integers, the
// length prefix of filterload data, merkle-block hash and flag lists, and the
// element count N of a BIP158 filter.
//
// Values below 0xfd take one byte; larger ones a marker byte (0xfd, 0xfe,
// 0xff) and 2, 4 or 8 little-endian bytes. Like Bitcoin Core, [Read] accepts
// only the shortest form: a value written wider than it needs is an error, so
// every value has exactly one encoding.
package compactsize

import (
	"encoding/binary"
	"errors"
)

// Errors returned by [Read]; callers add their package prefix and offset.
var (
	ErrShort        = errors.New("compactsize: truncated")
	ErrNonCanonical = errors.New("compactsize: non-canonical")
)

// Append appends the encoding of v to dst.
func Append(dst []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(dst, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(dst, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(dst, 0xfe), uint32(v))
	}
	return binary.LittleEndian.AppendUint64(append(dst, 0xff), v)
}

// Len returns the encoded length of v: 1, 3, 5 or 9 bytes.
func Len(v uint64) int {
	switch {
	case v < 0xfd:
		return 1
	case v <= 0xffff:
		return 3
	case v <= 0xffffffff:
		return 5
	}
	return 9
}

// Read decodes the CompactSize at the start of b and returns it with its
// encoded length. It returns [ErrShort] if b ends inside the encoding and
// [ErrNonCanonical] if a shorter form could hold the value; with the latter, v
// and n still report what was read, for the error message.
func Read(b []byte) (v uint64, n int, err error) {
	if len(b) == 0 {
		return 0, 0, ErrShort
	}
	switch b[0] {
	case 0xfd:
		if len(b) < 3 {
			return 0, 0, ErrShort
		}
		v, n = uint64(binary.LittleEndian.Uint16(b[1:])), 3
	case 0xfe:
		if len(b) < 5 {
			return 0, 0, ErrShort
		}
		v, n = uint64(binary.LittleEndian.Uint32(b[1:])), 5
	case 0xff:
		if len(b) < 9 {
			return 0, 0, ErrShort
		}
		v, n = binary.LittleEndian.Uint64(b[1:]), 9
	default:
		return uint64(b[0]), 1, nil
	}
	if Len(v) != n {
		return v, n, ErrNonCanonical
	}
	return v, n, nil
}
