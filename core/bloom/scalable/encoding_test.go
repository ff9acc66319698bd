package scalable

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

// twoStages returns a filter of n0 = 3, P = r = 0.5, s = 2 holding four
// elements: stage 0 (n 3, p 0.25: m 9, k 2) full, stage 1 (n 6, p 0.125:
// m 26, k 3) holding one.
func twoStages(t testing.TB) *Filter {
	f, err := New(Params{Capacity: 3, FalsePositiveRate: 0.5, Tightening: 0.5, Growth: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf [8]byte
	for i := uint64(0); f.Added() < 4; i++ {
		f.Add(key(&buf, i))
	}
	return f
}

func TestEncodingRoundTrip(t *testing.T) {
	f := twoStages(t)
	var g Filter
	// magic, version 1, n0 = 3, s = 2, 2 stages, added 3 and 1, P = 0.5 and
	// r = 0.5 as little-endian float64, then 2 + 4 bytes of bits.
	wantHeader := "4353534201" + "03" + "02" + "02" + "0301" + "000000000000e03f" + "000000000000e03f"
	b := filtertest.Encoded(t, f, &g, wantHeader, 26+2+4)
	again, _ := g.AppendBinary([]byte("prefix"))
	if string(again[6:]) != string(b) || g.Params() != f.Params() || g.Added() != 4 || g.Stats().Bits != 35 {
		t.Errorf("UnmarshalBinary(MarshalBinary(f)) = %x, %+v, want %x, %+v", again[6:], g.Params(), b, f.Params())
	}
	// The decoded filter keeps growing as the original would.
	var buf [8]byte
	for i := uint64(100); g.Added() < 10; i++ {
		g.Add(key(&buf, i))
	}
	if g.Stages() != 3 {
		t.Errorf("decoded filter after 10 elements has %d stages, want 3", g.Stages())
	}
}

func TestUnmarshalRejects(t *testing.T) {
	good, _ := twoStages(t).MarshalBinary()
	// with replaces the bytes at off.
	with := func(off int, b ...byte) []byte {
		c := append([]byte{}, good...)
		copy(c[off:], b)
		return c
	}
	float := func(v float64) []byte { return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)) }
	tests := []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"empty", nil, "at byte 0: missing magic"},
		{"bad magic", with(0, 'X'), "at byte 0: missing magic"},
		{"version 2", with(4, 2), "at byte 4: unknown version 2"},
		{"n0 = 0", with(5, 0), "at byte 5: first capacity 0"},
		{"s = 1", with(6, 1), "at byte 6: growth 1 outside [2, 16]"},
		{"s = 17", with(6, 17), "at byte 6: growth 17 outside [2, 16]"},
		{"no stages", with(7, 0), "at byte 7: stage count 0"},
		{"65 stages", with(7, 65), "at byte 7: stage count 65"},
		{"stage 0 not full", with(8, 2), "at byte 8: stage 0 added count 2, want its capacity 3"},
		{"newest empty", with(9, 0), "at byte 9: stage 1 is empty"},
		{"newest beyond capacity", with(9, 7), "at byte 9: stage 1 added count 7 beyond its capacity 6"},
		{"P = 0", with(10, float(0)...), "at byte 10: false-positive rate 0 outside (0, 1)"},
		{"P = 1", with(10, float(1)...), "at byte 10: false-positive rate 1 outside (0, 1)"},
		{"P NaN", with(10, float(math.NaN())...), "at byte 10: false-positive rate NaN"},
		{"r = -0", with(18, float(math.Copysign(0, -1))...), "at byte 18: tightening -0 outside (0, 1)"},
		{"r = +Inf", with(18, float(math.Inf(1))...), "at byte 18: tightening +Inf"},
		{"truncated rates", good[:20], "at byte 10: 10 bytes for the two rates, want 16"},
		{"truncated bits", good[:len(good)-1], "at byte 28: 3 bytes left for stage 1, want 4"},
		{"trailing byte", append(append([]byte{}, good...), 0), "at byte 32: 1 trailing bytes"},
		{"bit beyond stage 0", with(27, good[27]|0x80), "at byte 26: stage 0: bitset: bits set beyond length 9"},
		{"bit beyond stage 1", with(31, good[31]|0x80), "at byte 28: stage 1: bitset: bits set beyond length 26"},
		{"padded uvarint", append(append([]byte("CSSB\x01"), 0x83, 0x00), good[6:]...), "at byte 5: non-canonical uvarint for first capacity"},
		// n0 = 2^62 at P = 0.5, r = 0.5 needs about 2^63 bits; the stage count at byte 15 is at fault.
		{"huge n0", append(append([]byte("CSSB\x01"), binary.AppendUvarint(nil, 1<<62)...), good[6:]...), "at byte 15: 2 stages: stage 0 needs"},
	}
	for _, tt := range tests {
		f := twoStages(t)
		before, _ := f.MarshalBinary()
		err := f.UnmarshalBinary(tt.data)
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("UnmarshalBinary(%s = %x) = %v, want ErrCorrupt %q", tt.name, tt.data, err, tt.wantErr)
		}
		if after, _ := f.MarshalBinary(); string(after) != string(before) {
			t.Errorf("UnmarshalBinary(%s) changed the receiver", tt.name)
		}
	}
}

func FuzzUnmarshalBinary(f *testing.F) {
	f.Add(func() []byte { b, _ := twoStages(f).MarshalBinary(); return b }())
	empty, _ := New(Params{Capacity: 1, FalsePositiveRate: 0.3, Tightening: 0.9, Growth: 16})
	b, _ := empty.MarshalBinary()
	f.Add(b)
	f.Add([]byte("CSSB\x01\x01\x02\x01\x00"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var g Filter
		if !filtertest.Canonical(t, data, &g, g.UnmarshalBinary(data), ErrCorrupt) {
			return
		}
		g.Test(data)
		g.Stats()
		if g.Add(data) && !g.Test(data) {
			t.Fatalf("Add(%x) then Test = false", data)
		}
		g.Insert(append(data, 1))
	})
}
