package counting

import (
	"errors"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestEncodingRoundTrip(t *testing.T) {
	f, _ := NewWithShape(5, 3)
	f.Add([]byte("a"))
	f.Add([]byte("a"))
	f.Add([]byte("b"))
	var g Filter
	// magic, version 1, m = 5, k = 3, added = 3, then ⌈5/2⌉ = 3 counter bytes.
	b := filtertest.Encoded(t, f, &g, "435343420105"+"0303", 8+3)
	c := table(f)
	for i, want := range []byte{b[8] & 0xf, b[8] >> 4, b[9] & 0xf, b[9] >> 4, b[10] & 0xf} {
		if c[i] != want {
			t.Errorf("counter %d = %d, encoding holds %d", i, c[i], want)
		}
	}
	if b[10]>>4 != 0 {
		t.Errorf("last high nibble of odd m = %d, want 0", b[10]>>4)
	}
	if g.Added() != 3 || !g.Test([]byte("a")) {
		t.Errorf("UnmarshalBinary(%x): Added %d, Test(a) %v; want 3, true", b, g.Added(), g.Test([]byte("a")))
	}
}

// TestEncodingSizes round-trips every m across a word boundary, counters set
// to 1..15 so that each nibble is checked in place.
func TestEncodingSizes(t *testing.T) {
	for m := uint64(1); m <= 40; m++ {
		f, _ := NewWithShape(m, 1)
		for i := range m {
			f.words[i/perWord] |= (i%15 + 1) << (4 * (i % perWord))
		}
		b, _ := f.MarshalBinary()
		var g Filter
		if err := g.UnmarshalBinary(b); err != nil {
			t.Fatalf("UnmarshalBinary(m=%d %x) error: %v", m, b, err)
		}
		for i, c := range table(&g) {
			if want := byte(i%15 + 1); c != want {
				t.Errorf("m=%d: counter %d = %d after a round trip, want %d", m, i, c, want)
			}
		}
	}
}

func TestUnmarshalRejects(t *testing.T) {
	f, _ := NewWithShape(5, 3)
	f.Add([]byte("a"))
	good, _ := f.MarshalBinary() // CSCB 01 05 03 01, 3 bytes
	last := len(good) - 1
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"empty", nil, "byte 0: missing magic"},
		{"bloom's magic", append([]byte("CSBF"), good[4:]...), "byte 0: missing magic"},
		{"version 2", append(append([]byte("CSCB"), 2), good[5:]...), "byte 4: unknown version 2"},
		{"truncated header", good[:6], "byte 6: bad uvarint for hash count"},
		{"truncated counters", good[:last], "byte 8: 2 bytes of counters, want 3"},
		{"trailing byte", append(append([]byte{}, good...), 0), "byte 8: 4 bytes of counters, want 3"},
		{"counter beyond m", append(append([]byte{}, good[:last]...), good[last]|0x10), "byte 10: counter 5 beyond m = 5 is set"},
		{"m = 0", []byte("CSCB\x01\x00\x01\x00"), "byte 5: size in counters 0 outside"},
		{"huge m", []byte("CSCB\x01\x81\x80\x80\x80\x80\x01\x01\x00"), "byte 5: size in counters 34359738369 outside"},
		{"k = 0", []byte("CSCB\x01\x02\x00\x00\x00"), "byte 6: hash count 0 outside"},
		{"k too big", []byte("CSCB\x01\x02\x65\x00\x00"), "byte 6: hash count 101 outside"},
		{"padded uvarint", []byte("CSCB\x01\x02\x83\x00\x00\x00"), "byte 6: non-canonical uvarint for hash count"},
		{"padded added", []byte("CSCB\x01\x02\x01\x80\x00\x00"), "byte 7: non-canonical uvarint for added count"},
	}
	for _, tt := range tests {
		g := *f
		err := g.UnmarshalBinary(tt.data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("UnmarshalBinary(%s = %x) = %v, want ErrCorrupt %q", tt.name, tt.data, err, tt.wantErr)
		}
		if again, _ := g.MarshalBinary(); string(again) != string(good) {
			t.Errorf("UnmarshalBinary(%s) changed the receiver to %x", tt.name, again)
		}
	}
}

// TestUnmarshalAnyAdded: a saturated counter outlives its elements, so the
// decoder accepts any added count with any counters.
func TestUnmarshalAnyAdded(t *testing.T) {
	f, _ := NewWithShape(64, 2)
	for range 20 {
		f.Add([]byte("hot"))
	}
	for range 20 {
		f.Remove([]byte("hot"))
	}
	b, _ := f.MarshalBinary()
	var g Filter
	if err := g.UnmarshalBinary(b); err != nil || g.Added() != 0 || g.Stats().Saturated != 2 {
		t.Errorf("UnmarshalBinary(%x) = %v, Added %d, want nil, 0 and 2 saturated counters", b, err, g.Added())
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	seed, _ := NewWithShape(37, 4)
	seed.Add([]byte("seed"))
	seed.Add([]byte("seed"))
	b, _ := seed.MarshalBinary()
	f.Add(b)
	f.Add([]byte("CSCB\x01\x03\x01\x00\xff\x0f"))
	f.Add([]byte("CSCB\x01\x01\x64\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x0f"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if !filtertest.Canonical(t, data, &g, g.UnmarshalBinary(data), ErrCorrupt) {
			return
		}
		g.Test(data)
		g.Remove(data)
		g.Add(data)
		if !g.Test(data) {
			t.Fatalf("decoded %x: Test after Add = false", data)
		}
		g.Remove(data)
		g.Stats()
	})
}
