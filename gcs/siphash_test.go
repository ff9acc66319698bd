package gcs

import (
	"math/rand/v2"
	"testing"

	"github.com/aead/siphash"
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
