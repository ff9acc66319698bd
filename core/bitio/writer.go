package bitio

import "encoding/binary"

// Writer appends a bit stream to a byte slice. The zero value writes to a new
// slice.
type Writer struct {
	buf []byte
	acc uint64 // pending bits, right-aligned; only the low n are meaningful
	n   uint   // pending bit count, always < 32 between calls
}

// NewWriter returns a Writer that appends to buf.
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Reset discards the pending bits and makes w append to buf.
func (w *Writer) Reset(buf []byte) { *w = Writer{buf: buf} }

// Len returns the number of bits written since the last Reset, not counting
// bytes that were already in the buffer.
func (w *Writer) Len() uint64 { return uint64(len(w.buf))*8 + uint64(w.n) }

// WriteBits writes the low n bits of v, most significant first. n may be 0 to
// 64; bits of v above n are ignored.
func (w *Writer) WriteBits(v uint64, n uint) {
	if n > 32 {
		w.write(v>>32&lowMask(n-32), n-32)
		n = 32
	}
	w.write(v&lowMask(n), n)
}

// WriteUnary writes q one bits followed by a zero bit, the quotient part of a
// Golomb-Rice code.
func (w *Writer) WriteUnary(q uint64) {
	for ; q >= 32; q -= 32 {
		w.write(0xffffffff, 32)
	}
	w.write(lowMask(uint(q))<<1, uint(q)+1)
}

// WriteRice writes the Golomb-Rice code of v with parameter p, 0 to 56: v>>p
// in unary, then the low p bits of v. A code of up to 32 bits, the common
// case, is written in one step.
func (w *Writer) WriteRice(v uint64, p uint) {
	q := v >> p
	if n := uint(q) + 1 + p; q < 32 && n <= 32 {
		w.write((lowMask(uint(q))<<1)<<p|v&lowMask(p), n)
		return
	}
	w.WriteUnary(q)
	w.WriteBits(v, p)
}

func lowMask(n uint) uint64 { return 1<<n - 1 } // n == 64 wraps to all ones

// write appends n <= 32 bits of v, which has no bits above n.
func (w *Writer) write(v uint64, n uint) {
	w.acc = w.acc<<n | v
	w.n += n
	if w.n >= 32 {
		w.n -= 32
		w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(w.acc>>w.n))
	}
}

// Bytes returns the stream with its last byte padded with zero bits. The
// result shares storage with the writer and stays valid until the next write;
// further writes continue after the last whole byte, not after the padding.
func (w *Writer) Bytes() []byte {
	out := w.buf
	pending := w.acc << (64 - w.n) // left-align; a shift by 64 gives 0
	for left := int(w.n); left > 0; left -= 8 {
		out = append(out, byte(pending>>56))
		pending <<= 8
	}
	return out
}
