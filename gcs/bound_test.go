package gcs

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"testing"
)

// boundDecoder is the measured lower bound of Golomb-Rice decoding on this
// machine: the `bound` sub-benchmarks. It is the shortest decoder that still
// does a real decoder's work — one unaligned 64-bit load, one count of
// leading ones and three shifts per code — and nothing else: no check of N,
// of the length or of the padding, no error path, no chunks. It needs its
// codes followed by 8 spare bytes (newBound copies them once, untimed) and
// quotients below 2^(57−P), which random filters of any realistic size
// never exceed (TestBoundDecoder checks the benchmark filters). It is not a
// decoder to ship: a hostile filter would make it read garbage.
type boundDecoder struct {
	body []byte // the codes, then 8 zero bytes
	n    int
	p    uint
}

func newBound(f *Filter) boundDecoder {
	body := append(slices.Clip(f.body), make([]byte, 8)...)
	return boundDecoder{body: body, n: int(f.n), p: uint(f.p)}
}

// match reports whether target is among the values, walking the codes until
// one reaches it.
func (b *boundDecoder) match(target uint64) bool {
	var v uint64
	var pos uint // bit offset of the next code
	body, p := b.body, b.p&63
	for range b.n {
		w := binary.BigEndian.Uint64(body[pos>>3:]) << (pos & 7)
		q := uint(bits.LeadingZeros64(^w))
		v += uint64(q)<<p | w<<(q+1&63)>>1>>(63-p&63)
		pos += q + 1 + p
		if v >= target {
			return v == target
		}
	}
	return false
}

// values returns every value, for TestBoundDecoder.
func (b *boundDecoder) values() []uint64 {
	var out []uint64
	var v uint64
	var pos uint
	for range b.n {
		w := binary.BigEndian.Uint64(b.body[pos>>3:]) << (pos & 7)
		q := uint(bits.LeadingZeros64(^w))
		v += uint64(q)<<b.p | w<<(q+1&63)>>1>>(63-b.p&63)
		out = append(out, v)
		pos += q + 1 + b.p
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
		if !bound.match(want[n/2]) || bound.match(want[n/2]+1) == (want[n/2+1] != want[n/2]+1) {
			t.Fatalf("N = %d: the bound's match is wrong", n)
		}
	}
}
