package binenc

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

var errTest = errors.New("test: corrupt encoding")

func TestDecoder(t *testing.T) {
	header := AppendHeader(nil, "TEST", 3)
	tests := []struct {
		name    string
		data    []byte
		want    uint64 // the uvarint read, if no error
		wantErr string
	}{
		{"ok", append(append([]byte{}, header...), 0x81, 0x01, 0xaa), 129, ""},
		{"empty", nil, 0, "at byte 0: missing magic"},
		{"bad magic", []byte("TESX\x03\x01\xaa"), 0, "at byte 0: missing magic"},
		{"no version", []byte("TEST"), 0, "at byte 4: missing version"},
		{"version 4", []byte("TEST\x04\x01\xaa"), 0, "at byte 4: unknown version 4"},
		{"truncated uvarint", []byte("TEST\x03\x81"), 0, "at byte 5: bad uvarint for n"},
		{"padded uvarint", []byte("TEST\x03\x81\x00\xaa"), 0, "at byte 5: non-canonical uvarint for n"},
		{"zero", []byte("TEST\x03\x00\xaa"), 0, "at byte 5: n 0 outside [1, 1000]"},
		{"too big", []byte("TEST\x03\xe9\x07\xaa"), 0, "at byte 5: n 1001 outside [1, 1000]"},
		{"short rest", []byte("TEST\x03\x01"), 0, "at byte 6: 0 bytes of table, want 1"},
		{"long rest", []byte("TEST\x03\x01\xaa\xbb"), 0, "at byte 6: 2 bytes of table, want 1"},
	}
	for _, tt := range tests {
		d := NewDecoder(tt.data, "TEST", 3, errTest)
		n := d.Uvarint("n", 1, 1000)
		rest := d.Rest("table", 1)
		err := d.Err()
		if tt.wantErr == "" {
			if err != nil || n != tt.want || len(rest) != 1 || d.Offset() != len(tt.data) {
				t.Errorf("%s: decode(%x) = %d, %x, %v; want %d, one byte, no error", tt.name, tt.data, n, rest, err, tt.want)
			}
			continue
		}
		if !errors.Is(err, errTest) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: decode(%x) error = %v, want %q wrapping the sentinel", tt.name, tt.data, err, tt.wantErr)
		}
	}
}

func TestFailKeepsFirst(t *testing.T) {
	d := NewDecoder([]byte("TEST\x03"), "TEST", 3, errTest)
	first := d.Fail(5, "first")
	if second := d.Fail(9, "second"); second != first || d.Uvarint("n", 0, 1) != 0 || d.Rest("x", 0) != nil {
		t.Errorf("after Fail: error = %v, want the first, and zero reads", second)
	}
}

func FuzzDecoder(f *testing.F) {
	f.Add([]byte("TEST\x03\x81\x01\xaa"))
	f.Add([]byte("TEST\x03\x81\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(data, "TEST", 3, errTest)
		n := d.Uvarint("n", 0, 1<<40)
		d.Rest("table", 2)
		if d.Err() != nil {
			if !errors.Is(d.Err(), errTest) {
				t.Fatalf("error %v does not wrap the sentinel", d.Err())
			}
			return
		}
		// Accepted input is canonical: re-encoding gives it back.
		again := binary.AppendUvarint(AppendHeader(nil, "TEST", 3), n)
		again = append(again, data[len(data)-2:]...)
		if string(again) != string(data) {
			t.Fatalf("accepted %x re-encodes as %x", data, again)
		}
	})
}
