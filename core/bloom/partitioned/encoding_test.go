package partitioned

import (
	"errors"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestEncodingRoundTrip(t *testing.T) {
	f, _ := NewWithShape(30, 3)
	f.Add([]byte("a"))
	f.Add([]byte("b"))
	var g Filter
	// magic, version 1, m = 30, k = 3, added = 2, then 3 slices of 2 bytes.
	filtertest.Encoded(t, f, &g, "4353504201"+"1e0302", 8+3*2)
	if !g.Equal(f) || g.Added() != 2 || !g.Test([]byte("a")) || !g.Test([]byte("b")) {
		t.Errorf("UnmarshalBinary(MarshalBinary(f)) differs from f")
	}
}

// TestEncodingLayout pins the bit layout: one element in one slice of 10
// bits sets the bit the position rule picks, in the LittleEndian layout.
func TestEncodingLayout(t *testing.T) {
	f, _ := NewWithShape(10, 1)
	f.Add([]byte("x"))
	b, _ := f.MarshalBinary()
	p := bloom.NewProbe(bloom.Hash([]byte("x")))
	pos := p.Next(10)
	want := [2]byte{}
	want[pos/8] = 1 << (pos % 8)
	if got := [2]byte(b[len(b)-2:]); got != want {
		t.Errorf("bits of slice 0 = %x, want %x (position %d)", got, want, pos)
	}
}

func TestUnmarshalRejects(t *testing.T) {
	f, _ := NewWithShape(30, 3)
	f.Add([]byte("a"))
	good, _ := f.MarshalBinary()
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("CSBF"), good[4:]...)},
		{"version 2", append([]byte("CSPB\x02"), good[5:]...)},
		{"truncated header", good[:6]},
		{"truncated bits", good[:len(good)-1]},
		{"trailing byte", append(append([]byte{}, good...), 0)},
		{"bit beyond slice 2", append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]|0x80)},
		{"bit beyond slice 0", append(append(append([]byte{}, good[:9]...), good[9]|0x04), good[10:]...)},
		{"m not a multiple of k", []byte("CSPB\x01\x1f\x03\x00\x00\x00\x00\x00\x00\x00")},
		{"k = 0", []byte("CSPB\x01\x08\x00\x00\x00")},
		{"m = 0", []byte("CSPB\x01\x00\x01\x00")},
		{"k too big", []byte("CSPB\x01\xe8\x07\x65\x00")},
		{"huge m", []byte("CSPB\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x01\x00")},
		{"padded uvarint", []byte("CSPB\x01\x08\x81\x00\x00\x00")},
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
	seed, _ := NewWithShape(70, 4)
	seed.Add([]byte("seed"))
	b, _ := seed.MarshalBinary()
	f.Add(b)
	f.Add([]byte("CSPB\x01\x08\x01\x00\xff"))
	f.Add([]byte("CSPB\x01\x1e\x03\x00\x00\x00\x00\x00\x00\x00"))
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
