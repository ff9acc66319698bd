package gcs

import (
	"encoding/binary"
	"math/bits"
)

// KeySize is the length of a SipHash key in bytes.
const KeySize = 16

// Key is the 16-byte SipHash-2-4 key of a filter. For a BIP158 filter it is
// the first 16 bytes of the block hash in internal byte order (see
// [BasicKey]); SipHash reads it as two little-endian uint64 halves.
type Key [KeySize]byte

// Sum64 returns SipHash-2-4 of data under k.
func (k Key) Sum64(data []byte) uint64 {
	return sipHash24(binary.LittleEndian.Uint64(k[:8]), binary.LittleEndian.Uint64(k[8:]), data)
}

// HashToRange returns BIP158's hash_to_range(item): the high 64 bits of
// Sum64(item)·f, a value uniform in [0, f). f is N·M for a filter of N items.
func (k Key) HashToRange(item []byte, f uint64) uint64 {
	return reduce(k.Sum64(item), f)
}

// reduce maps a uniform 64-bit hash onto [0, f) by multiplication, not
// modulo: it preserves order, so hashes sorted before reduction stay sorted.
func reduce(h, f uint64) uint64 {
	hi, _ := bits.Mul64(h, f)
	return hi
}

// sipHash24 is SipHash-2-4 (Aumasson and Bernstein) with key halves k0, k1.
func sipHash24(k0, k1 uint64, p []byte) uint64 {
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	n := len(p)
	var tail uint64
	if n >= 8 {
		// The last n%8 bytes, read with one load that overlaps the last
		// whole word: a shift by 64 (no tail) gives 0.
		tail = binary.LittleEndian.Uint64(p[n-8:]) >> (64 - 8*uint(n%8))
	} else {
		tail = sipTail(p)
	}
	// An index loop over p[i:i+8] with the bound written as i ≤ n−8:
	// the compiler proves every load in range, and no slice header is
	// rebuilt per word as reslicing p would.
	for i, last := 0, n-8; i <= last; i += 8 {
		m := binary.LittleEndian.Uint64(p[i : i+8])
		v3 ^= m
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
		v0 ^= m
	}
	m := uint64(n)<<56 | tail
	v3 ^= m
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0 ^= m
	v2 ^= 0xff
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	v0, v1, v2, v3 = sipRound(v0, v1, v2, v3)
	return v0 ^ v1 ^ v2 ^ v3
}

// sipTail packs the last len(p) < 8 bytes little-endian.
func sipTail(p []byte) uint64 {
	var t uint64
	for i := len(p) - 1; i >= 0; i-- {
		t = t<<8 | uint64(p[i])
	}
	return t
}

func sipRound(v0, v1, v2, v3 uint64) (uint64, uint64, uint64, uint64) {
	v0 += v1
	v1 = bits.RotateLeft64(v1, 13) ^ v0
	v0 = bits.RotateLeft64(v0, 32)
	v2 += v3
	v3 = bits.RotateLeft64(v3, 16) ^ v2
	v0 += v3
	v3 = bits.RotateLeft64(v3, 21) ^ v0
	v2 += v1
	v1 = bits.RotateLeft64(v1, 17) ^ v2
	v2 = bits.RotateLeft64(v2, 32)
	return v0, v1, v2, v3
}
