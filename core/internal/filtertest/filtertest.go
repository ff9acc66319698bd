// Package filtertest holds what the tests and benchmarks of core's filters
// share: the keys they insert, and the check every decoder's fuzz target
// makes. Only test files import it.
package filtertest

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"testing"
)

// Keys returns n distinct 32-byte keys, the SHA-256 of the little-endian
// counters 0 to n−1: the size of the hashes and scripts the protocol filters
// hold, and as random as a hash is.
func Keys(n int) [][]byte {
	buf := make([]byte, 0, 32*n)
	keys := make([][]byte, n)
	for i := range keys {
		h := sha256.Sum256(binary.LittleEndian.AppendUint64(nil, uint64(i)))
		buf = append(buf, h[:]...)
		keys[i] = buf[32*i : 32*(i+1) : 32*(i+1)]
	}
	return keys
}

// Key writes a 16-byte key for counter i into buf and returns it, without
// allocating: distinct counters give distinct keys.
func Key(buf *[16]byte, i uint64) []byte {
	binary.LittleEndian.PutUint64(buf[:], i)
	binary.LittleEndian.PutUint64(buf[8:], ^i*0x9e3779b97f4a7c15)
	return buf[:]
}

// Canonical is the check of every decoder's fuzz target, given data, the
// filter UnmarshalBinary filled and the error it returned: a rejection must
// wrap corrupt, and an accepted filter must encode to exactly data, since
// each filter has one encoding. It reports whether data was accepted, so
// that the caller goes on to exercise the filter.
func Canonical(t testing.TB, data []byte, decoded encoding.BinaryMarshaler, err, corrupt error) bool {
	t.Helper()
	if err != nil {
		if !errors.Is(err, corrupt) {
			t.Fatalf("UnmarshalBinary error %v does not wrap %v", err, corrupt)
		}
		return false
	}
	again, err := decoded.MarshalBinary()
	if err != nil || string(again) != string(data) {
		t.Fatalf("accepted encoding is not canonical: %x re-encodes as %x (%v)", data, again, err)
	}
	return true
}

// Codec is a filter's binary encoding, both ways.
type Codec interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// Encoded is the round trip every encoding test makes: it encodes f, checks
// that the encoding starts with wantHeader (hex) and is wantLen bytes long,
// decodes it into into and checks that into encodes to the same bytes. It
// returns the encoding for the caller's own checks of the layout.
func Encoded(t testing.TB, f encoding.BinaryMarshaler, into Codec, wantHeader string, wantLen int) []byte {
	t.Helper()
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary error: %v", err)
	}
	if got := hex.EncodeToString(b[:min(len(b), len(wantHeader)/2)]); got != wantHeader {
		t.Errorf("encoding header = %s, want %s", got, wantHeader)
	}
	if len(b) != wantLen {
		t.Errorf("encoding length = %d, want %d", len(b), wantLen)
	}
	if err := into.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary(%x) error: %v", b, err)
	}
	if again, err := into.MarshalBinary(); err != nil || string(again) != string(b) {
		t.Errorf("UnmarshalBinary(%x) re-encodes as %x (%v)", b, again, err)
	}
	return b
}
