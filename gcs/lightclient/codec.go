package lightclient

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// The files the client keeps in its store (see keep.go) are written with
// an encoder and read with a decoder whose first failure sticks: every
// count is checked against the bytes left before anything is allocated,
// and an error names the byte offset at fault.

// errFormat marks a kept file that does not decode.
var errFormat = errors.New("lightclient: kept file does not decode")

type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) hash(h chainhash.Hash) {
	e.b = append(e.b, h[:]...)
}

func (e *encoder) bytes(b []byte) {
	e.uvarint(uint64(len(b)))
	e.b = append(e.b, b...)
}

func (e *encoder) string(s string) { e.bytes([]byte(s)) }

// tx writes msg with its witness data, length-prefixed.
func (e *encoder) tx(msg *wire.MsgTx) {
	e.uvarint(uint64(msg.SerializeSize()))
	msg.Serialize(e) // appending does not fail
}

// Write appends p, for wire's serializers.
func (e *encoder) Write(p []byte) (int, error) {
	e.b = append(e.b, p...)
	return len(p), nil
}

type decoder struct {
	b   []byte
	off int
	err error
}

// fail records the first error, at the current offset.
func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: byte %d: %s", errFormat, d.off, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) left() int { return len(d.b) - d.off }

// magic checks the file's magic and version.
func (d *decoder) magic(magic string, version byte) {
	if d.left() < len(magic)+1 || string(d.b[:len(magic)]) != magic {
		d.fail("not a %q file", magic)
		return
	}
	if v := d.b[len(magic)]; v != version {
		d.fail("version %d, this code reads %d", v, version)
		return
	}
	d.off += len(magic) + 1
}

func (d *decoder) uvarint(what string, hi uint64) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.off:])
	switch {
	case n <= 0:
		d.fail("bad %s", what)
		return 0
	case n > 1 && d.b[d.off+n-1] == 0:
		d.fail("%s written longer than it needs", what)
		return 0
	case v > hi:
		d.fail("%s %d, more than %d", what, v, hi)
		return 0
	}
	d.off += n
	return v
}

// int32 reads a varint that must lie in lo..hi.
func (d *decoder) int32(what string, lo, hi int32) int32 {
	return int32(d.varint(what, int64(lo), int64(hi)))
}

// varint reads a varint that must lie in lo..hi.
func (d *decoder) varint(what string, lo, hi int64) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.off:])
	switch {
	case n <= 0:
		d.fail("bad %s", what)
		return 0
	case n > 1 && d.b[d.off+n-1] == 0:
		d.fail("%s written longer than it needs", what)
		return 0
	case v < lo || v > hi:
		d.fail("%s %d outside %d to %d", what, v, lo, hi)
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) uint32(what string) uint32 { return uint32(d.uvarint(what, math.MaxUint32)) }

// count reads how many items follow, each at least size bytes: no more
// than the bytes left can hold.
func (d *decoder) count(what string, size int) int {
	return int(d.uvarint(what, uint64(d.left()/size)))
}

func (d *decoder) hash() chainhash.Hash {
	var h chainhash.Hash
	if d.err == nil && d.left() < len(h) {
		d.fail("a hash cut short")
	}
	if d.err != nil {
		return h
	}
	copy(h[:], d.b[d.off:])
	d.off += len(h)
	return h
}

// bytes reads a length-prefixed run of at most max bytes; the result
// aliases the input.
func (d *decoder) bytes(what string, max int) []byte {
	n := int(d.uvarint(what+" length", uint64(max)))
	if d.err == nil && n > d.left() {
		d.fail("%s of %d bytes, %d left", what, n, d.left())
	}
	if d.err != nil {
		return nil
	}
	b := d.b[d.off : d.off+n]
	d.off += n
	return b
}

func (d *decoder) string(what string, max int) string { return string(d.bytes(what, max)) }

// tx reads a transaction tx wrote: it must use every byte of its run.
func (d *decoder) tx() *wire.MsgTx {
	raw := d.bytes("transaction", d.left())
	if d.err != nil {
		return nil
	}
	msg := new(wire.MsgTx)
	r := bytes.NewReader(raw)
	if err := msg.Deserialize(r); err != nil || r.Len() > 0 || len(msg.TxIn) == 0 {
		d.fail("a transaction that does not decode (%v, %d bytes left over)", err, r.Len())
		return nil
	}
	return msg
}

// end checks that every byte was read and returns the first error.
func (d *decoder) end() error {
	if d.err == nil && d.left() > 0 {
		d.fail("%d bytes after the end", d.left())
	}
	return d.err
}
