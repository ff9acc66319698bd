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
// call per element would, errors included. It keeps the reader's state in
// registers across the run and takes two codes per refill of the
// accumulator, which holds at least 56 bits after one: two BIP158 codes (P =
// 19) take 43 on average. A pair that does not fit, a long quotient or the
// last 8 bytes of the data, goes through ReadRice. BenchmarkReadRices has
// the figures.
func (r *Reader) ReadRices(dst []uint64, p uint) {
	acc, n, pos, data := r.acc, r.n, r.pos, r.data
	p &= 63 // p ≤ 56; the masks on shift counts below spare the compiler a test for shifts of 64 or more
	i := 0
	for ; i+1 < len(dst) && pos+8 <= len(data); i += 2 {
		acc |= binary.BigEndian.Uint64(data[pos:pos+8]) >> (n & 63)
		pos += int(63-n) >> 3
		n |= 56
		// ones1 and ones2 count the quotients' one bits; OR 1 stops the count at 63
		// (a run of 64 cannot fit anyway), which spares the compiler the
		// zero test of the bit scan.
		ones1 := uint(bits.LeadingZeros64(^acc | 1))
		used1 := ones1 + 1 + p
		acc2 := acc << (used1 & 63)
		ones2 := uint(bits.LeadingZeros64(^acc2 | 1))
		used2 := ones2 + 1 + p
		if used1+used2 > n {
			r.acc, r.n, r.pos = acc, n, pos
			dst[i], dst[i+1] = r.ReadRice(p), r.ReadRice(p)
			acc, n, pos = r.acc, r.n, r.pos
			continue
		}
		// The remainder: the p bits after the quotient's zero; shifting by
		// 1 and then 63−p, rather than by 64−p, keeps p = 0 right.
		dst[i] = uint64(ones1)<<p | acc<<((ones1+1)&63)>>1>>((63-p)&63)
		dst[i+1] = uint64(ones2)<<p | acc2<<((ones2+1)&63)>>1>>((63-p)&63)
		acc = acc2 << (used2 & 63)
		n -= used1 + used2
	}
	r.acc, r.n, r.pos = acc, n, pos
	for ; i < len(dst); i++ {
		dst[i] = r.ReadRice(p)
	}
}

// SumRices reads Golomb-Rice codes of parameter p, at most max of them,
// adding each to sum, and stops after the first that brings sum to target
// or beyond: the walk of a query through a sorted set stored as deltas. It
// returns the new sum and the number of codes read. Errors are reported as
// by ReadRice, whose 0 after an error leaves sum as it was. It decodes as
// ReadRices does, without storing the codes.
func (r *Reader) SumRices(p uint, sum, target uint64, max int) (uint64, int) {
	acc, n, pos, data := r.acc, r.n, r.pos, r.data
	p &= 63
	read := 0
	for read+1 < max && pos+8 <= len(data) {
		acc |= binary.BigEndian.Uint64(data[pos:pos+8]) >> (n & 63)
		pos += int(63-n) >> 3
		n |= 56
		ones1 := uint(bits.LeadingZeros64(^acc | 1))
		used1 := ones1 + 1 + p
		acc2 := acc << (used1 & 63)
		ones2 := uint(bits.LeadingZeros64(^acc2 | 1))
		used2 := ones2 + 1 + p
		if used1+used2 > n {
			r.acc, r.n, r.pos = acc, n, pos
			read++
			if sum += r.ReadRice(p); sum >= target {
				return sum, read
			}
			acc, n, pos = r.acc, r.n, r.pos
			continue
		}
		read += 2
		if sum += uint64(ones1)<<p | acc<<((ones1+1)&63)>>1>>((63-p)&63); sum >= target {
			// The second code stays unread.
			r.acc, r.n, r.pos = acc<<(used1&63), n-used1, pos
			return sum, read - 1
		}
		sum += uint64(ones2)<<p | acc2<<((ones2+1)&63)>>1>>((63-p)&63)
		acc = acc2 << (used2 & 63)
		n -= used1 + used2
		if sum >= target {
			r.acc, r.n, r.pos = acc, n, pos
			return sum, read
		}
	}
	r.acc, r.n, r.pos = acc, n, pos
	for read < max {
		read++
		if sum += r.ReadRice(p); sum >= target {
			break
		}
	}
	return sum, read
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
