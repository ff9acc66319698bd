package blocked

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestEncodingRoundTrip(t *testing.T) {
	f, _ := NewWithShape(2, 3)
	f.Add([]byte("a"))
	f.Add([]byte("b"))
	var g Filter
	// magic, version 1, 2 blocks, k = 3, added = 2, then 2·64 bytes.
	filtertest.Encoded(t, f, &g, "4353424201"+"020302", 8+128)
	if !g.Equal(f) || g.Added() != 2 || !g.Test([]byte("a")) || !g.Test([]byte("b")) {
		t.Errorf("UnmarshalBinary(MarshalBinary(f)) differs from f")
	}
}

// TestEncodingLayout pins the bit layout: one element with k = 1 sets bit
// p, the top 9 bits of h2·golden, of its block, which lands in byte
// 8 + 64·block + p/8 under 1<<(p%8).
func TestEncodingLayout(t *testing.T) {
	f, _ := NewWithShape(3, 1)
	data := []byte("x")
	f.Add(data)
	b, _ := f.MarshalBinary()
	h1, h2 := bloom.Hash(data)
	idx, _ := bits.Mul64(h1, 3)
	p := h2 * golden >> 55
	want := make([]byte, 3*64)
	want[idx*64+p/8] = 1 << (p % 8)
	if got := b[8:]; string(got) != string(want) {
		t.Errorf("blocks = %x, want %x (block %d, bit %d)", got, want, idx, p)
	}
}

func TestUnmarshalRejects(t *testing.T) {
	f, _ := NewWithShape(2, 3)
	f.Add([]byte("a"))
	good, _ := f.MarshalBinary()
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("CSPB"), good[4:]...)},
		{"version 2", append([]byte("CSBB\x02"), good[5:]...)},
		{"truncated header", good[:6]},
		{"truncated blocks", good[:len(good)-1]},
		{"trailing byte", append(append([]byte{}, good...), 0)},
		{"blocks = 0", []byte("CSBB\x01\x00\x01\x00")},
		{"k = 0", append([]byte("CSBB\x01\x01\x00\x00"), make([]byte, 64)...)},
		{"k too big", append([]byte("CSBB\x01\x01\x65\x00"), make([]byte, 64)...)},
		{"huge block count", []byte("CSBB\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x01\x00")},
		{"padded uvarint", append([]byte("CSBB\x01\x81\x00\x01\x00"), make([]byte, 64)...)},
	}
	for _, tt := range tests {
		g := *f
		err := g.UnmarshalBinary(tt.data)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("UnmarshalBinary(%s = %x) = %v, want ErrCorrupt", tt.name, tt.data, err)
		}
		if !g.Equal(f) || g.Added() != 1 {
			t.Errorf("UnmarshalBinary(%s) changed the receiver on error", tt.name)
		}
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	seed, _ := NewWithShape(2, 4)
	seed.Add([]byte("seed"))
	b, _ := seed.MarshalBinary()
	f.Add(b)
	f.Add(append([]byte("CSBB\x01\x01\x01\x00"), make([]byte, 64)...))
	f.Add([]byte("CSBB\x01\x01\x01\x00\xff"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if !filtertest.Canonical(t, data, &g, g.UnmarshalBinary(data), ErrCorrupt) {
			return
		}
		g.Add(data)
		if !g.Test(data) {
			t.Fatalf("decoded filter misses %x just added", data)
		}
		g.Stats()
	})
}

// TestPositionsFollowTheLayout sets the bits of random elements by the
// layout's definition, position i the top 9 bits of h2·golden^(i+1) with
// the powers multiplied out one at a time, and compares them with Add's
// for every k up to bloom.MaxHashes.
func TestPositionsFollowTheLayout(t *testing.T) {
	for _, k := range []int{1, 2, 6, 16, 50, bloom.MaxHashes} {
		f, _ := NewWithShape(7, k)
		want := make([]block, 7)
		for i := range 20 {
			data := []byte(fmt.Sprintf("element-%d", i))
			f.Add(data)
			h1, h2 := bloom.Hash(data)
			idx, _ := bits.Mul64(h1, 7)
			x := h2
			for range k {
				x *= golden
				p := x >> 55
				want[idx][p/64] |= 1 << (p % 64)
			}
		}
		if !slices.Equal(f.blocks, want) {
			t.Fatalf("k = %d: Add set other bits than the layout's", k)
		}
	}
}
