package bloom

import (
	"encoding/binary"
	"math/bits"
)

// MurmurHash3 x64_128 (Austin Appleby, public domain algorithm). Only seed 0
// is used: the filter needs one well-mixed 128-bit value per element, and a
// fixed seed keeps encoded filters portable.
const (
	murmurC1 = 0x87c37b91114253d5
	murmurC2 = 0x4cf5ad432745937f
)

// Hash returns the 128-bit MurmurHash3 x64_128 of data with seed 0 as two
// words: the one hash from which [Filter] and the other filters of core derive
// every position (see [Probe]). It does not allocate.
func Hash(data []byte) (h1, h2 uint64) { return sum128(data, 0) }

func sum128(data []byte, seed uint32) (h1, h2 uint64) {
	h1, h2 = uint64(seed), uint64(seed)
	n := len(data)
	// An index loop whose bound, i ≤ n−16, lets the compiler prove every
	// block in range.
	for i, last := 0, n-16; i <= last; i += 16 {
		b := (*[16]byte)(data[i : i+16])
		h1 ^= mixK1(binary.LittleEndian.Uint64(b[:8]))
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= mixK2(binary.LittleEndian.Uint64(b[8:]))
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
	}
	// The tail, r bytes: t1 holds its first eight (or fewer), t2 the rest.
	// They are read with whole-word loads that end at the end of data,
	// shifting out the bytes before the tail, rather than byte by byte: a
	// byte loop costs a mispredicted branch per length in a mix of lengths.
	if r := n & 15; r > 8 {
		t1 := binary.LittleEndian.Uint64(data[n-r : n-r+8])
		t2 := binary.LittleEndian.Uint64(data[n-8:n]) >> (8 * uint(16-r))
		h2 ^= mixK2(t2)
		h1 ^= mixK1(t1)
	} else if r > 0 {
		var t1 uint64
		if n >= 8 {
			t1 = binary.LittleEndian.Uint64(data[n-8:n]) >> (8 * uint(8-r))
		} else {
			t1 = loadShort(data)
		}
		h1 ^= mixK1(t1)
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1, h2 = fmix64(h1), fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

// loadShort reads 1 to 7 bytes as a little-endian integer.
func loadShort(b []byte) uint64 {
	n := len(b)
	if n >= 4 {
		// Two 4-byte loads that overlap: a byte they share sits at the
		// same place in both, so OR keeps it.
		return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*uint(n-4))
	}
	// The first, middle and last bytes, some of them the same.
	return uint64(b[0]) | uint64(b[n/2])<<(8*uint(n/2)) | uint64(b[n-1])<<(8*uint(n-1))
}

func mixK1(k uint64) uint64 { return bits.RotateLeft64(k*murmurC1, 31) * murmurC2 }

func mixK2(k uint64) uint64 { return bits.RotateLeft64(k*murmurC2, 33) * murmurC1 }

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
