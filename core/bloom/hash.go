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
	for ; len(data) >= 16; data = data[16:] {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		h1 ^= mixK1(k1)
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= mixK2(k2)
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
	}
	if len(data) > 8 {
		h2 ^= mixK2(loadTail(data[8:]))
	}
	if len(data) > 0 {
		h1 ^= mixK1(loadTail(data[:min(len(data), 8)]))
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

func mixK1(k uint64) uint64 { return bits.RotateLeft64(k*murmurC1, 31) * murmurC2 }

func mixK2(k uint64) uint64 { return bits.RotateLeft64(k*murmurC2, 33) * murmurC1 }

// loadTail reads up to 8 bytes as a little-endian integer.
func loadTail(b []byte) uint64 {
	var k uint64
	for i := len(b) - 1; i >= 0; i-- {
		k = k<<8 | uint64(b[i])
	}
	return k
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
