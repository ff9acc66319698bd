package bitset

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// LittleEndian views a byte slice as bits of a little-endian integer: bit i is
// byte i/8 under mask 1<<(i%8). This is BIP37's filter layout. Indexes beyond
// the slice panic (the usual slice bounds panic).
type LittleEndian []byte

// Len returns the number of bits in the view.
func (b LittleEndian) Len() uint { return uint(len(b)) * 8 }

// Set sets bit i.
func (b LittleEndian) Set(i uint) { b[i/8] |= 1 << (i % 8) }

// Clear clears bit i.
func (b LittleEndian) Clear(i uint) { b[i/8] &^= 1 << (i % 8) }

// Test reports whether bit i is set.
func (b LittleEndian) Test(i uint) bool { return b[i/8]&(1<<(i%8)) != 0 }

// Count returns the number of set bits.
func (b LittleEndian) Count() int { return countBytes(b) }

// Or sets b to b ∪ c. It panics if the lengths differ.
func (b LittleEndian) Or(c LittleEndian) { orBytes(b, c) }

// And sets b to b ∩ c. It panics if the lengths differ.
func (b LittleEndian) And(c LittleEndian) { andBytes(b, c) }

// BigEndian views a byte slice as bits of a big-endian integer: bit i is byte
// len-1-i/8 under mask 1<<(i%8). Ethereum's logsBloom is a 256-byte BigEndian
// set of 2048 bits. Indexes beyond the slice panic.
type BigEndian []byte

// Len returns the number of bits in the view.
func (b BigEndian) Len() uint { return uint(len(b)) * 8 }

// Set sets bit i.
func (b BigEndian) Set(i uint) { b[b.byteOf(i)] |= 1 << (i % 8) }

// Clear clears bit i.
func (b BigEndian) Clear(i uint) { b[b.byteOf(i)] &^= 1 << (i % 8) }

// Test reports whether bit i is set.
func (b BigEndian) Test(i uint) bool { return b[b.byteOf(i)]&(1<<(i%8)) != 0 }

// byteOf wraps to a huge index for i beyond the view, so the slice bounds
// check still panics.
func (b BigEndian) byteOf(i uint) uint { return uint(len(b)) - 1 - i/8 }

// Count returns the number of set bits.
func (b BigEndian) Count() int { return countBytes(b) }

// Or sets b to b ∪ c. It panics if the lengths differ.
func (b BigEndian) Or(c BigEndian) { orBytes(b, c) }

// And sets b to b ∩ c. It panics if the lengths differ.
func (b BigEndian) And(c BigEndian) { andBytes(b, c) }

// Population count, union and intersection do not depend on the bit order, so
// both views share these loops, which move eight bytes per step.

func countBytes(b []byte) int {
	c := 0
	for ; len(b) >= 8; b = b[8:] {
		c += bits.OnesCount64(binary.LittleEndian.Uint64(b))
	}
	for _, x := range b {
		c += bits.OnesCount8(x)
	}
	return c
}

func orBytes(dst, src []byte) {
	sameBytes(dst, src)
	for len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(dst)|binary.LittleEndian.Uint64(src))
		dst, src = dst[8:], src[8:]
	}
	for i := range dst {
		dst[i] |= src[i]
	}
}

func andBytes(dst, src []byte) {
	sameBytes(dst, src)
	for len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(dst)&binary.LittleEndian.Uint64(src))
		dst, src = dst[8:], src[8:]
	}
	for i := range dst {
		dst[i] &= src[i]
	}
}

func sameBytes(a, b []byte) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("bitset: length mismatch %d != %d bytes", len(a), len(b)))
	}
}
