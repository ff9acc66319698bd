package gcs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aead/siphash"
	dchest "github.com/dchest/siphash"
)

// TestSipHashAgainstAead compares every length from 0 to 80 bytes, and
// random keys, with btcd's SipHash dependency.
func TestSipHashAgainstAead(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 81 {
		for range 20 {
			key := randomKey(r)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(r.Uint32())
			}
			k := [16]byte(key)
			if got, want := key.Sum64(data), siphash.Sum64(data, &k); got != want {
				t.Fatalf("Sum64(%x) under %x = %016x, want %016x", data, key, got, want)
			}
		}
	}
}

func TestReduce(t *testing.T) {
	tests := []struct{ h, f, want uint64 }{
		{0, 784931, 0},
		{1<<64 - 1, 784931, 784930},
		{1 << 63, 784931, 392465},
		{1<<64 - 1, 1<<64 - 1, 1<<64 - 2},
		{12345, 0, 0},
	}
	for _, tt := range tests {
		if got := reduce(tt.h, tt.f); got != tt.want {
			t.Errorf("reduce(%d, %d) = %d, want %d", tt.h, tt.f, got, tt.want)
		}
	}
}

// TestSipHashAgainstDchest compares every length from 0 to 80 bytes with
// dchest/siphash, the reference of BenchmarkSipHash.
func TestSipHashAgainstDchest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 80)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := range len(data) + 1 {
		k0, k1 := r.Uint64(), r.Uint64()
		if got, want := sipHash24(k0, k1, data[:n]), dchest.Hash(k0, k1, data[:n]); got != want {
			t.Fatalf("sipHash24(%d bytes) = %016x, dchest %016x", n, got, want)
		}
	}
}

// BenchmarkSipHash times SipHash-2-4 beside dchest/siphash (amd64
// assembly on this machine, the SipHash dcrd uses) with the key halves
// loaded once, as Query and Builder do, on the sizes of the scripts a
// filter holds: P2WPKH (22 bytes), P2PKH (25), P2WSH and P2TR (34), and a
// 71-byte 2-of-2 multisig.
func BenchmarkSipHash(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	k0, k1 := r.Uint64(), r.Uint64()
	for _, n := range []int{22, 25, 34, 71} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		var sink uint64
		b.Run(fmt.Sprintf("len=%d/chainsieve", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink += sipHash24(k0, k1, data)
			}
		})
		b.Run(fmt.Sprintf("len=%d/dchest", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink += dchest.Hash(k0, k1, data)
			}
		})
		_ = sink
	}
}
