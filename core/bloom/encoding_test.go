package bloom

import (
	"errors"
	"testing"

	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestEncodingRoundTrip(t *testing.T) {
	f, _ := NewWithShape(20, 3)
	f.Add([]byte("a"))
	f.Add([]byte("b"))
	var g Filter
	// magic, version 2, m = 20, k = 3, added = 2, then 3 bytes of bits.
	filtertest.Encoded(t, f, &g, "435342460214"+"0302", 8+3)
	if !g.Equal(f) || g.Added() != 2 || !g.Test([]byte("a")) {
		t.Errorf("UnmarshalBinary(MarshalBinary(f)) differs from f")
	}
}

func TestUnmarshalRejects(t *testing.T) {
	good, _ := func() ([]byte, error) {
		f, _ := NewWithShape(20, 3)
		f.Add([]byte("a"))
		return f.MarshalBinary()
	}()
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XSBF"), good[4:]...)},
		{"version 1 (double hashing)", append(append([]byte("CSBF"), 1), good[5:]...)},
		{"version 3", append(append([]byte("CSBF"), 3), good[5:]...)},
		{"truncated header", good[:6]},
		{"truncated bits", good[:len(good)-1]},
		{"trailing byte", append(append([]byte{}, good...), 0)},
		{"bit beyond m", append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]|0x80)},
		{"k = 0", []byte{'C', 'S', 'B', 'F', 2, 8, 0, 0, 0}},
		{"m = 0", []byte{'C', 'S', 'B', 'F', 2, 0, 1, 0}},
		{"huge m", []byte{'C', 'S', 'B', 'F', 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 0}},
		{"k too big", []byte{'C', 'S', 'B', 'F', 2, 8, 101, 0, 0}},
		// Found by FuzzUnmarshalBinary: k = 3 written as 83 00.
		{"padded uvarint", []byte{'C', 'S', 'B', 'F', 2, 8, 0x83, 0x00, 0, 0}},
	}
	for _, tt := range tests {
		var f Filter
		err := f.UnmarshalBinary(tt.data)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("UnmarshalBinary(%s = %x) = %v, want ErrCorrupt", tt.name, tt.data, err)
		}
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	seed, _ := NewWithShape(70, 4)
	seed.Add([]byte("seed"))
	b, _ := seed.MarshalBinary()
	f.Add(b)
	f.Add([]byte("CSBF\x02\x08\x01\x00\xff"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if !filtertest.Canonical(t, data, &g, g.UnmarshalBinary(data), ErrCorrupt) {
			return
		}
		g.Test(data)
	})
}
