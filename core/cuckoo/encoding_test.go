package cuckoo

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestEncodingRoundTrip(t *testing.T) {
	f, _ := NewWithShape(3, 10)
	for _, s := range []string{"a", "b", "c"} {
		if err := f.Add([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	var g Filter
	// magic, version 1, buckets = 3, f = 10, items = 3, then ⌈120/8⌉ = 15
	// bytes of table.
	b := filtertest.Encoded(t, f, &g, "435343460103"+"0a03", 8+15)
	if g.Count() != 3 || !g.Test([]byte("b")) || g.Stats() != f.Stats() {
		t.Errorf("UnmarshalBinary(MarshalBinary(f)) = %+v, want %+v", g.Stats(), f.Stats())
	}
	prefix := []byte("xy")
	if got, _ := f.AppendBinary(prefix); string(got) != "xy"+string(b) {
		t.Errorf("AppendBinary(%q) = %x, want the prefix then %x", prefix, got, b)
	}
}

// TestEncodingLayout pins the packed bit order with one fingerprint placed by
// hand: slot 1 of bucket 0 starts at bit 12 when f = 12.
func TestEncodingLayout(t *testing.T) {
	f, _ := NewWithShape(1, 12)
	f.t.set(12, 0xabc)
	f.items = 1
	b := mustMarshal(t, f)
	// Bits 12..23 = 0xabc: byte 1 high nibble c, byte 2 = ab.
	if got, want := hex.EncodeToString(b[8:]), "00c0ab000000"; got != want {
		t.Errorf("table bytes = %s, want %s", got, want)
	}
}

func TestUnmarshalRejects(t *testing.T) {
	good := func() []byte {
		f, _ := NewWithShape(3, 10)
		_ = f.Add([]byte("a"))
		b, _ := f.MarshalBinary()
		return b
	}()
	with := func(i int, c byte) []byte {
		b := append([]byte{}, good...)
		b[i] = c
		return b
	}
	tests := []struct {
		name, data, wantErr string
	}{
		{"empty", "", "at byte 0: missing magic"},
		{"bad magic", "XSCF" + string(good[4:]), "at byte 0"},
		{"version 2", string(with(4, 2)), "at byte 4: unknown version 2"},
		{"truncated header", string(good[:7]), "at byte 7"},
		{"truncated table", string(good[:len(good)-1]), "14 bytes of table, want 15"},
		{"trailing byte", string(good) + "\x00", "16 bytes of table, want 15"},
		{"zero buckets", string(with(5, 0)), "at byte 5: bucket count 0"},
		{"f = 1", string(with(6, 1)), "at byte 6: fingerprint width 1"},
		{"f = 33", string(with(6, 33)), "at byte 6: fingerprint width 33"},
		{"items above slots", string(with(7, 13)), "at byte 7: item count 13"},
		{"items miscounted", string(with(7, 2)), "at byte 7: item count 2, but 1 slots"},
		{"padded uvarint", "CSCF\x01\x83\x00\x0a\x00" + strings.Repeat("\x00", 15), "at byte 5: non-canonical"},
		{"table too big", "CSCF\x01\x80\x80\x80\x80\x08\x20\x00", "at byte 10: 2147483648 buckets of 32-bit fingerprints exceed"},
		{"huge buckets", "CSCF\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x0a\x00", "at byte 5: bucket count"},
		{"bit beyond table", "CSCF\x01\x01\x03\x00\x00\x10", "at byte 9: bits set beyond the table"},
	}
	for _, tt := range tests {
		f, _ := NewWithShape(1, 8)
		_ = f.Add([]byte("kept"))
		before := mustMarshal(t, f)
		err := f.UnmarshalBinary([]byte(tt.data))
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("UnmarshalBinary(%s = %x) = %v, want ErrCorrupt with %q", tt.name, tt.data, err, tt.wantErr)
		}
		if string(mustMarshal(t, f)) != string(before) {
			t.Errorf("UnmarshalBinary(%s) changed the receiver", tt.name)
		}
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	seed, _ := NewWithShape(5, 9)
	for _, s := range []string{"x", "y", "z", "x"} {
		_ = seed.Add([]byte(s))
	}
	b, _ := seed.MarshalBinary()
	f.Add(b)
	f.Add([]byte("CSCF\x01\x01\x03\x00\x00\x00"))
	f.Add([]byte("CSCF\x01\x02\x20\x01\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if !filtertest.Canonical(t, data, &g, g.UnmarshalBinary(data), ErrCorrupt) {
			return
		}
		if g.t.occupied() != g.Count() {
			t.Fatalf("decoded Count() = %d, %d slots in use", g.Count(), g.t.occupied())
		}
		// Exercise the decoded filter: an inserted element is found and
		// deleted again, and a failure must leave the table as it was.
		if err := g.Add(data); err == nil {
			if !g.Test(data) || !g.Remove(data) {
				t.Fatalf("decoded filter lost an element it just took")
			}
		} else if after, _ := g.MarshalBinary(); string(after) != string(data) {
			t.Fatalf("failed Add into a decoded filter changed it")
		}
		g.Stats()
	})
}
