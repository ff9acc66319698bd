package bitset

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

func TestSetBasics(t *testing.T) {
	tests := []struct {
		n    uint
		set  []uint
		want int
	}{
		{n: 0},
		{n: 1, set: []uint{0}, want: 1},
		{n: 64, set: []uint{0, 63}, want: 2},
		{n: 65, set: []uint{0, 63, 64, 64}, want: 3},
		{n: 2048, set: []uint{5, 700, 2047}, want: 3},
	}
	for _, tt := range tests {
		s := New(tt.n)
		for _, i := range tt.set {
			s.Set(i)
		}
		if got := s.Count(); got != tt.want {
			t.Errorf("New(%d) after Set(%v): Count() = %d, want %d", tt.n, tt.set, got, tt.want)
		}
		for _, i := range tt.set {
			if !s.Test(i) {
				t.Errorf("New(%d): Test(%d) = false after Set", tt.n, i)
			}
		}
		for _, i := range tt.set {
			s.Clear(i)
			if s.Test(i) {
				t.Errorf("New(%d): Test(%d) = true after Clear", tt.n, i)
			}
		}
		if got := s.Count(); got != 0 {
			t.Errorf("New(%d) after Clear: Count() = %d, want 0", tt.n, got)
		}
	}
}

func TestSetOutOfRangePanics(t *testing.T) {
	for _, op := range []struct {
		name string
		f    func(s *Set)
	}{
		{"Set", func(s *Set) { s.Set(65) }},
		{"Test", func(s *Set) { s.Test(65) }},
		{"Clear", func(s *Set) { s.Clear(100) }},
		{"Or", func(s *Set) { s.Or(New(64)) }},
		{"And", func(s *Set) { s.And(New(128)) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s on a 65-bit set did not panic", op.name)
				}
			}()
			op.f(New(65))
		}()
	}
}

func TestSetOrAndEqual(t *testing.T) {
	a, b := New(130), New(130)
	a.Set(1)
	a.Set(129)
	b.Set(1)
	b.Set(64)
	u := New(130)
	u.Or(a)
	u.Or(b)
	if got := u.Count(); got != 3 {
		t.Errorf("Count() of union = %d, want 3", got)
	}
	a.And(b)
	if got := a.Count(); got != 1 || !a.Test(1) {
		t.Errorf("intersection = %d bits (bit 1 %v), want only bit 1", got, a.Test(1))
	}
	if a.Equal(b) {
		t.Errorf("Equal() = true for different sets")
	}
	b.Clear(64)
	if !a.Equal(b) {
		t.Errorf("Equal() = false for equal sets")
	}
	if New(3).Equal(New(4)) {
		t.Errorf("Equal() = true for different lengths")
	}
	u.Reset()
	if u.Count() != 0 {
		t.Errorf("Count() after Reset = %d, want 0", u.Count())
	}
}

func TestBytesRoundTrip(t *testing.T) {
	tests := []struct {
		n    uint
		set  []uint
		want string
	}{
		{n: 0, want: ""},
		{n: 3, set: []uint{0, 2}, want: "05"},
		{n: 16, set: []uint{8, 15}, want: "0081"},
		{n: 72, set: []uint{0, 63, 71}, want: "010000000000008080"},
	}
	for _, tt := range tests {
		s := New(tt.n)
		for _, i := range tt.set {
			s.Set(i)
		}
		got := hex.EncodeToString(s.AppendBytes(nil))
		if got != tt.want {
			t.Errorf("AppendBytes() with bits %v = %s, want %s", tt.set, got, tt.want)
		}
		raw, _ := hex.DecodeString(tt.want)
		back, err := FromBytes(tt.n, raw)
		if err != nil || !back.Equal(s) {
			t.Errorf("FromBytes(%d, %s) = %v, %v; want the original set", tt.n, tt.want, back, err)
		}
		// The view reads the same bytes the same way.
		v := LittleEndian(raw)
		for _, i := range tt.set {
			if !v.Test(i) {
				t.Errorf("LittleEndian(%s).Test(%d) = false, want true", tt.want, i)
			}
		}
	}
}

func TestFromBytesRejects(t *testing.T) {
	tests := []struct {
		n   uint
		hex string
	}{
		{n: 3, hex: ""},
		{n: 3, hex: "0000"},
		{n: 3, hex: "08"},
		{n: 65, hex: "000000000000000002"},
	}
	for _, tt := range tests {
		raw, _ := hex.DecodeString(tt.hex)
		if _, err := FromBytes(tt.n, raw); err == nil {
			t.Errorf("FromBytes(%d, %q) = nil error, want an error", tt.n, tt.hex)
		}
	}
}

func TestViewsLayout(t *testing.T) {
	le := make(LittleEndian, 3)
	le.Set(0)
	le.Set(9)
	le.Set(23)
	if got, want := hex.EncodeToString(le), "010280"; got != want {
		t.Errorf("LittleEndian bits {0,9,23} = %s, want %s", got, want)
	}
	be := make(BigEndian, 3)
	be.Set(0)
	be.Set(9)
	be.Set(23)
	if got, want := hex.EncodeToString(be), "800201"; got != want {
		t.Errorf("BigEndian bits {0,9,23} = %s, want %s", got, want)
	}
	if le.Count() != 3 || be.Count() != 3 {
		t.Errorf("Count() = %d, %d, want 3, 3", le.Count(), be.Count())
	}
	be.Clear(23)
	le.Clear(23)
	if be.Test(23) || le.Test(23) {
		t.Errorf("Test(23) after Clear = true")
	}
}

func TestViewsMatchSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, nbytes := range []int{1, 7, 8, 9, 31, 256, 1001} {
		s := New(uint(nbytes) * 8)
		le := make(LittleEndian, nbytes)
		be := make(BigEndian, nbytes)
		other := make(LittleEndian, nbytes)
		for range nbytes * 3 {
			i := uint(r.IntN(nbytes * 8))
			s.Set(i)
			le.Set(i)
			be.Set(uint(nbytes*8-1) - i) // mirror image: same bytes, reversed byte order
			other.Set(uint(r.IntN(nbytes * 8)))
		}
		if !bytes.Equal(s.AppendBytes(nil), le) {
			t.Fatalf("%d bytes: Set and LittleEndian disagree", nbytes)
		}
		if le.Count() != s.Count() || be.Count() != s.Count() {
			t.Fatalf("%d bytes: Count() = %d, %d, want %d", nbytes, le.Count(), be.Count(), s.Count())
		}
		o, _ := FromBytes(uint(nbytes)*8, other)
		u := append(LittleEndian(nil), le...)
		u.Or(other)
		s2, _ := FromBytes(s.Len(), le)
		s2.Or(o)
		if !bytes.Equal(s2.AppendBytes(nil), u) {
			t.Fatalf("%d bytes: Or on Set and LittleEndian disagree", nbytes)
		}
		u.And(other)
		s2.And(o)
		if !bytes.Equal(s2.AppendBytes(nil), u) {
			t.Fatalf("%d bytes: And on Set and LittleEndian disagree", nbytes)
		}
	}
}

func FuzzFromBytes(f *testing.F) {
	f.Add(uint16(3), []byte{0x05})
	f.Add(uint16(72), []byte{1, 0, 0, 0, 0, 0, 0, 0x80, 0x80})
	f.Add(uint16(65), []byte{0, 0, 0, 0, 0, 0, 0, 0, 2})
	f.Fuzz(func(t *testing.T, n uint16, b []byte) {
		s, err := FromBytes(uint(n), b)
		if err != nil {
			return
		}
		if got := s.AppendBytes(nil); !bytes.Equal(got, b) {
			t.Fatalf("FromBytes(%d, %x).AppendBytes() = %x, want the input", n, b, got)
		}
	})
}
