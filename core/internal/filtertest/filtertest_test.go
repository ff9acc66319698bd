package filtertest

import (
	"errors"
	"testing"
)

func TestKeys(t *testing.T) {
	keys := Keys(1000)
	seen := map[string]bool{}
	for i, k := range keys {
		if len(k) != 32 || seen[string(k)] {
			t.Fatalf("Keys(1000)[%d] = %x: want 32 bytes, distinct", i, k)
		}
		seen[string(k)] = true
	}
	// Appending to one key must not overwrite the next.
	_ = append(keys[0], 1)
	if string(keys[1]) != string(Keys(2)[1]) {
		t.Errorf("append to Keys()[0] changed Keys()[1]")
	}
}

func TestKey(t *testing.T) {
	var a, b [16]byte
	if string(Key(&a, 1)) == string(Key(&b, 2)) {
		t.Errorf("Key(1) = Key(2) = %x", a)
	}
	if n := testing.AllocsPerRun(100, func() { Key(&a, 7) }); n != 0 {
		t.Errorf("Key allocates %v times, want 0", n)
	}
}

// encoded is a filter whose encoding is fixed.
type encoded string

func (e encoded) MarshalBinary() ([]byte, error) { return []byte(e), nil }

func TestCanonical(t *testing.T) {
	errCorrupt := errors.New("test: corrupt")
	if !Canonical(t, []byte("abc"), encoded("abc"), nil, errCorrupt) {
		t.Errorf("Canonical(accepted, same encoding) = false, want true")
	}
	if Canonical(t, []byte("abc"), encoded(""), errCorrupt, errCorrupt) {
		t.Errorf("Canonical(rejected) = true, want false")
	}
}

// codec decodes any bytes and encodes what it decoded.
type codec struct{ b []byte }

func (c *codec) MarshalBinary() ([]byte, error)    { return c.b, nil }
func (c *codec) UnmarshalBinary(data []byte) error { c.b = data; return nil }

func TestEncoded(t *testing.T) {
	var into codec
	b := Encoded(t, encoded("\x01\x02\x03"), &into, "0102", 3)
	if string(b) != "\x01\x02\x03" || string(into.b) != string(b) {
		t.Errorf("Encoded = %x, decoded %x; want 010203 both", b, into.b)
	}
}
