package gcs

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"testing"
)

// boundDecoder is the measured lower bound of Golomb-Rice decoding on this
// machine: the `bound` sub-benchmarks. It is the fastest short decoder we
// could write, and does only what any decoder must: one refill of a 64-bit
// accumulator per two codes (one unaligned load), one bit scan and three
// shifts per code. It leaves out everything that makes a decoder safe to
// ship: no check of N against the length, no end of data (it needs 8 spare
// bytes after the codes, which newBound copies once, untimed), no error
// path and no quotient of more than 36 bits (random filters of any
// realistic size never have one; TestBoundDecoder checks the benchmark
// filters). A hostile filter would make it read garbage.
type boundDecoder struct {
	body []byte // the codes, then 8 zero bytes
	n    int
	p    uint
}

func newBound(f *Filter) boundDecoder {
	body := append(slices.Clip(f.body), make([]byte, 8)...)
	return boundDecoder{body: body, n: int(f.n), p: uint(f.p)}
}

// match reports whether target is among the values, decoding until one
// reaches it. The accumulator holds the complement of the unread bits, so
// that the bit scan of a quotient's ones needs no NOT on the way.
func (b *boundDecoder) match(target uint64) bool {
	var acc, v uint64 // acc: the complement of the unread bits, left-aligned
	var cnt, pos uint // valid bits in acc; bytes of body moved into acc
	body, p := b.body, b.p&63
	mask := uint64(1)<<p - 1
	for left := b.n; left > 0; {
		acc |= ^binary.BigEndian.Uint64(body[pos:]) >> (cnt & 63)
		pos += (63 - cnt) >> 3
		cnt |= 56
		len1 := uint(bits.Len64(acc | 1)) // 64 − the first quotient
		acc2 := acc << ((p + 1) & 63) << ((64 - len1) & 63)
		len2 := uint(bits.Len64(acc2 | 1))
		v += uint64(64-len1)<<p | ^acc>>((len1-1-p)&63)&mask
		if 128+2*p+2-len1-len2 > cnt || left == 1 { // one code only
			acc = acc2
			cnt -= 64 + p + 1 - len1
			left--
			if v >= target {
				return v == target
			}
			continue
		}
		if v >= target {
			return v == target
		}
		v += uint64(64-len2)<<p | ^acc2>>((len2-1-p)&63)&mask
		acc = acc2 << ((p + 1) & 63) << ((64 - len2) & 63)
		cnt -= 128 + 2*p + 2 - len1 - len2
		left -= 2
		if v >= target {
			return v == target
		}
	}
	return false
}

// values returns every value for TestBoundDecoder, with the same
// accumulator and refill as match (one code per fit check, not two).
func (b *boundDecoder) values() []uint64 {
	var out []uint64
	var acc, v uint64
	var cnt, pos uint
	for len(out) < b.n {
		acc |= binary.BigEndian.Uint64(b.body[pos:]) >> (cnt & 63)
		pos += (63 - cnt) >> 3
		cnt |= 56
		for range 2 {
			q := uint(bits.LeadingZeros64(^acc | 1))
			used := q + 1 + b.p
			if used > cnt || len(out) == b.n {
				break
			}
			v += uint64(q)<<b.p | acc<<((q+1)&63)>>1>>((63-b.p)&63)
			acc <<= used & 63
			cnt -= used
			out = append(out, v)
		}
	}
	return out
}

// TestBoundDecoder checks that the bound decodes the benchmark filters as
// Values does, so that its timings are of a correct decoder.
func TestBoundDecoder(t *testing.T) {
	for _, n := range []int{2000, 10_000} {
		bf := newBenchFilter(t, n)
		want, err := bf.ours.Values(nil)
		if err != nil {
			t.Fatal(err)
		}
		bound := newBound(&bf.ours)
		if got := bound.values(); !slices.Equal(got, want) {
			t.Fatalf("N = %d: the bound decodes %d values that differ from Values' %d", n, len(got), len(want))
		}
		for _, target := range []uint64{0, want[0], want[n/2], want[n/2] + 1, want[n-1], want[n-1] + 1} {
			if got := bound.match(target); got != slices.Contains(want, target) {
				t.Fatalf("N = %d: the bound's match(%d) = %v", n, target, got)
			}
		}
	}
}
