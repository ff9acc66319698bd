package index

import (
	"math/rand/v2"
	"testing"
)

func naiveTranspose(a *[64]uint64) [64]uint64 {
	var out [64]uint64
	for i := range 64 {
		for k := range 64 {
			if a[i]>>k&1 != 0 {
				out[k] |= 1 << i
			}
		}
	}
	return out
}

func TestTranspose64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 100 {
		var a [64]uint64
		for i := range a {
			switch n % 3 {
			case 0:
				a[i] = r.Uint64()
			case 1:
				a[i] = r.Uint64() & r.Uint64() & r.Uint64() // sparse
			case 2:
				a[i] = 1 << uint(r.IntN(64))
			}
		}
		want := naiveTranspose(&a)
		got := a
		transpose64(&got)
		if got != want {
			t.Fatalf("transpose64(case %d) differs from the bit-by-bit transpose", n)
		}
		transpose64(&got)
		if got != a {
			t.Fatalf("transpose64 twice (case %d) is not the identity", n)
		}
	}
}
