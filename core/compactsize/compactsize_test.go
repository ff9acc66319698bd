package compactsize

import (
	"encoding/hex"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		v   uint64
		hex string
	}{
		{0, "00"},
		{0xfc, "fc"},
		{0xfd, "fdfd00"},
		{253, "fdfd00"}, // BIP158 synthetic vector n-253's prefix
		{0xffff, "fdffff"},
		{0x10000, "fe00000100"},
		{10000, "fd1027"}, // the N = 10,000 filters of the gcs vectors
		{0xffffffff, "feffffffff"},
		{0x100000000, "ff0000000001000000"},
		{1<<64 - 1, "ffffffffffffffffff"},
	}
	for _, tt := range tests {
		enc := Append(nil, tt.v)
		if got := hex.EncodeToString(enc); got != tt.hex || Len(tt.v) != len(enc) {
			t.Errorf("Append(%d) = %s (Len %d), want %s", tt.v, got, Len(tt.v), tt.hex)
		}
		v, n, err := Read(append(enc, 0xaa))
		if v != tt.v || n != len(enc) || err != nil {
			t.Errorf("Read(%s‖aa) = %d, %d, %v; want %d, %d, nil", tt.hex, v, n, err, tt.v, len(enc))
		}
	}
}

func TestReadRejects(t *testing.T) {
	tests := []struct {
		hex  string
		want error
	}{
		{"", ErrShort},
		{"fd", ErrShort},
		{"fd00", ErrShort},
		{"fe000001", ErrShort},
		{"ff00000000000000", ErrShort},
		{"fdfc00", ErrNonCanonical},
		{"feffff0000", ErrNonCanonical},
		{"ffffffffff00000000", ErrNonCanonical},
	}
	for _, tt := range tests {
		b, _ := hex.DecodeString(tt.hex)
		if _, _, err := Read(b); err != tt.want {
			t.Errorf("Read(%s) error = %v, want %v", tt.hex, err, tt.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte{0xfd, 0xfd, 0x00})
	f.Add([]byte{0xff, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n, err := Read(b)
		if err != nil {
			return
		}
		if enc := Append(nil, v); string(enc) != string(b[:n]) {
			t.Fatalf("Read(%x) = %d in %d bytes, but Append gives %x", b, v, n, enc)
		}
	})
}
