package bloom

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	"github.com/twmb/murmur3"
)

// TestSum128Verification runs SMHasher's VerificationTest: hash the keys
// {}, {0}, {0,1}, ... {0..254} with seed 256-len, hash the concatenated
// results with seed 0, and read the first four bytes as a little-endian
// uint32. The expected value 0x6384BA69 for MurmurHash3_x64_128 is published
// in aappleby/smhasher src/main.cpp (the hash table's verification column).
func TestSum128Verification(t *testing.T) {
	var key [256]byte
	hashes := make([]byte, 0, 16*256)
	for i := range 256 {
		key[i] = byte(i)
		h1, h2 := sum128(key[:i], uint32(256-i))
		hashes = binary.LittleEndian.AppendUint64(hashes, h1)
		hashes = binary.LittleEndian.AppendUint64(hashes, h2)
	}
	h1, _ := sum128(hashes, 0)
	if got, want := uint32(h1), uint32(0x6384BA69); got != want {
		t.Errorf("SMHasher verification of sum128 = %#08x, want %#08x", got, want)
	}
}

func TestSum128NoAllocs(t *testing.T) {
	data := make([]byte, 37)
	if n := testing.AllocsPerRun(100, func() { sum128(data, 0) }); n != 0 {
		t.Errorf("sum128 allocates %v times per call, want 0", n)
	}
}

// TestSum128AgainstTwmb compares every length from 0 to 80 bytes with
// twmb/murmur3's Sum128, the reference of BenchmarkHash.
func TestSum128AgainstTwmb(t *testing.T) {
	data := make([]byte, 80)
	for i := range data {
		data[i] = byte(i*131 + 7)
	}
	for n := range len(data) + 1 {
		g1, g2 := Hash(data[:n])
		w1, w2 := murmur3.Sum128(data[:n])
		if g1 != w1 || g2 != w2 {
			t.Fatalf("Hash(%d bytes) = %016x %016x, twmb %016x %016x", n, g1, g2, w1, w2)
		}
	}
}

// BenchmarkHash times the 128-bit MurmurHash3 every filter of core derives
// its positions from, beside twmb/murmur3 (pure Go, the most used Go
// implementation), on the filter benchmarks' 32-byte keys and on 8 and
// 100 bytes; and xxhash's 64-bit Sum64 (amd64 assembly), the hash the
// blobloom rows of the filter benchmarks feed blobloom: the difference is
// most of the distance between our blocked filter and blobloom
// (docs/performance.md).
func BenchmarkHash(b *testing.B) {
	for _, n := range []int{8, 32, 100} {
		data := filtertest.Keys(1)[0]
		data = append(append([]byte{}, data...), data...)
		data = append(data, data...)[:n]
		var sink uint64
		b.Run(fmt.Sprintf("len=%d/chainsieve", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h1, h2 := Hash(data)
				sink += h1 ^ h2
			}
		})
		b.Run(fmt.Sprintf("len=%d/twmb", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h1, h2 := murmur3.Sum128(data)
				sink += h1 ^ h2
			}
		})
		b.Run(fmt.Sprintf("len=%d/xxhash", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink += xxhash.Sum64(data)
			}
		})
		_ = sink
	}
}
