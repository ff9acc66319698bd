// Package binenc holds what the versioned binary encodings of core's filters
// share: a header of four magic bytes and a version byte, canonical uvarints,
// and errors that name the byte offset at fault.
//
// Every filter in core decodes untrusted bytes with it, so the rules are
// strict: one encoding per value (no padded uvarints), every length checked
// against the bytes present before anything is allocated.
package binenc

import (
	"encoding/binary"
	"fmt"
)

// AppendHeader appends magic and version.
func AppendHeader(b []byte, magic string, version byte) []byte {
	return append(append(b, magic...), version)
}

// Decoder reads an encoding from the front. The first failure sticks: later
// reads return zero values and [Decoder.Err] reports the first error.
type Decoder struct {
	data    []byte
	off     int
	err     error
	corrupt error
}

// NewDecoder checks that data starts with magic and version and returns a
// decoder positioned after them. Errors wrap corrupt, the caller's sentinel;
// a failed header check is reported by [Decoder.Err].
func NewDecoder(data []byte, magic string, version byte, corrupt error) *Decoder {
	d := &Decoder{data: data, corrupt: corrupt}
	switch {
	case len(data) < len(magic) || string(data[:len(magic)]) != magic:
		d.Fail(0, "missing magic %q", magic)
	case len(data) == len(magic):
		d.Fail(len(magic), "missing version")
	case data[len(magic)] != version:
		d.Fail(len(magic), "unknown version %d", data[len(magic)])
	default:
		d.off = len(magic) + 1
	}
	return d
}

// Err returns the first error, or nil.
func (d *Decoder) Err() error { return d.err }

// Offset returns the offset of the next unread byte.
func (d *Decoder) Offset() int { return d.off }

// Fail records an error at byte offset off unless one is recorded already,
// and returns the recorded error.
func (d *Decoder) Fail(off int, format string, args ...any) error {
	if d.err == nil {
		d.err = fmt.Errorf("%w at byte %d: %s", d.corrupt, off, fmt.Sprintf(format, args...))
	}
	return d.err
}

// Uvarint reads a canonical uvarint and checks lo ≤ v ≤ hi; what names the
// field in errors.
func (d *Decoder) Uvarint(what string, lo, hi uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	switch {
	case n <= 0:
		d.Fail(d.off, "bad uvarint for %s", what)
		return 0
	// Uvarint accepts padded forms such as c5 00 for 0x45; the encoding
	// allows one form per value.
	case n > 1 && d.data[d.off+n-1] == 0:
		d.Fail(d.off, "non-canonical uvarint for %s", what)
		return 0
	case v < lo || v > hi:
		d.Fail(d.off, "%s %d outside [%d, %d]", what, v, lo, hi)
		return 0
	}
	d.off += n
	return v
}

// Rest reads exactly n bytes, which must be the rest of the data: every
// encoding in core ends with its table. The result aliases the input.
func (d *Decoder) Rest(what string, n uint64) []byte {
	if d.err != nil {
		return nil
	}
	if rest := uint64(len(d.data) - d.off); rest != n {
		d.Fail(d.off, "%d bytes of %s, want %d", rest, what, n)
		return nil
	}
	b := d.data[d.off:]
	d.off = len(d.data)
	return b
}
