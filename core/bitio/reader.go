package bitio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
)

// Reader reads a bit stream from a byte slice. The zero value reads an empty
// stream; [Reader.Reset] points it at data without allocating.
type Reader struct {
	data []byte
	pos  int    // bytes of data moved into acc
	acc  uint64 // unread bits, left-aligned: the next bit is bit 63
	n    uint   // number of valid bits in acc
	err  error
}

// NewReader returns a Reader of data.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// Reset makes r read data from its start and clears the error.
func (r *Reader) Reset(data []byte) { *r = Reader{data: data} }

// Err returns the first error met: an error wrapping io.ErrUnexpectedEOF, with
// the bit offset, if a read ran past the end of the data.
func (r *Reader) Err() error { return r.err }

// Offset returns the number of bits consumed.
func (r *Reader) Offset() uint64 { return uint64(r.pos)*8 - uint64(r.n) }

// Remaining returns the number of bits not yet consumed.
func (r *Reader) Remaining() uint64 { return uint64(len(r.data))*8 - r.Offset() }

// refill tops the accumulator up to at least 56 bits, or to the end of the
// data. The 8-byte path may load bits beyond the count it records; they are
// the stream's own next bits, so later loads OR the same values over them.
func (r *Reader) refill() {
	if r.pos+8 <= len(r.data) {
		r.acc |= binary.BigEndian.Uint64(r.data[r.pos:]) >> r.n
		r.pos += int(63-r.n) >> 3
		r.n |= 56
		return
	}
	for r.n <= 56 && r.pos < len(r.data) {
		r.acc |= uint64(r.data[r.pos]) << (56 - r.n)
		r.pos++
		r.n += 8
	}
}

// ReadBits reads n bits, 0 to 64, most significant first. After an error it
// returns 0.
func (r *Reader) ReadBits(n uint) uint64 {
	if n > 56 {
		hi := r.ReadBits(n - 32)
		return hi<<32 | r.ReadBits(32)
	}
	if r.n < n {
		r.refill()
		if r.n < n {
			r.fail()
			return 0
		}
	}
	v := r.acc >> (64 - n) // n == 0 shifts by 64, giving 0
	r.acc <<= n
	r.n -= n
	return v
}

// ReadUnary counts one bits up to the next zero bit and consumes both: the
// quotient of a Golomb-Rice code. After an error it returns 0.
func (r *Reader) ReadUnary() uint64 {
	var q uint64
	for {
		if r.n == 0 {
			r.refill()
			if r.n == 0 {
				r.fail()
				return 0
			}
		}
		ones := uint(bits.LeadingZeros64(^r.acc))
		if ones < r.n {
			r.acc <<= ones + 1
			r.n -= ones + 1
			return q + uint64(ones)
		}
		q += uint64(r.n)
		r.acc <<= r.n
		r.n = 0
	}
}

// ReadRice reads one Golomb-Rice code with parameter p, 0 to 56: a unary
// quotient q, then p remainder bits. It returns q<<p | remainder, or 0 after an
// error. It equals ReadUnary()<<p | ReadBits(p) but decodes a code that lies in
// the accumulator with one count and two shifts, the common case in BIP158
// filters, where q averages 1.5.
func (r *Reader) ReadRice(p uint) uint64 {
	if r.n < 56 {
		r.refill()
	}
	ones := uint(bits.LeadingZeros64(^r.acc))
	if used := ones + 1 + p; used <= r.n {
		rem := r.acc << (ones + 1) >> (64 - p) // p == 0 shifts by 64, giving 0
		r.acc <<= used
		r.n -= used
		return uint64(ones)<<p | rem
	}
	return r.readRiceSlow(p)
}

// ReadRices fills dst with Golomb-Rice codes of parameter p, as a ReadRice
// call per element would. It keeps the reader's state in registers across
// the run, which decodes a long stream about a fifth faster
// (BenchmarkReadRices); errors are reported the same way.
func (r *Reader) ReadRices(dst []uint64, p uint) {
	acc, n, pos, data := r.acc, r.n, r.pos, r.data
	for i := range dst {
		if n < 56 && pos+8 <= len(data) {
			acc |= binary.BigEndian.Uint64(data[pos:]) >> n
			pos += int(63-n) >> 3
			n |= 56
		}
		ones := uint(bits.LeadingZeros64(^acc))
		used := ones + 1 + p
		if used > n { // the end of the data, or a quotient past the accumulator
			r.acc, r.n, r.pos = acc, n, pos
			dst[i] = r.ReadRice(p)
			acc, n, pos = r.acc, r.n, r.pos
			continue
		}
		dst[i] = uint64(ones)<<p | acc<<(ones+1)>>(64-p)
		acc <<= used
		n -= used
	}
	r.acc, r.n, r.pos = acc, n, pos
}

// readRiceSlow reads a code whose unary run or remainder goes past the bits
// in the accumulator.
func (r *Reader) readRiceSlow(p uint) uint64 {
	q := r.ReadUnary()
	rem := r.ReadBits(p)
	if r.err != nil {
		return 0
	}
	return q<<p | rem
}

func (r *Reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("bitio: %w at bit %d of %d", io.ErrUnexpectedEOF, r.Offset(), len(r.data)*8)
	}
	// Drain so that every later read fails too.
	r.pos, r.n, r.acc = len(r.data), 0, 0
}
