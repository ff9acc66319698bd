package bitio

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"testing"
)

// naiveBit returns bit i of data, MSB first: the reference the fast reader
// must agree with.
func naiveBit(data []byte, i uint64) uint64 {
	return uint64(data[i/8]>>(7-i%8)) & 1
}

func TestGolombRiceGenesis(t *testing.T) {
	// BIP158 testnet-19.json, height 0: one element hashed to 769941 with
	// P = 19 is coded as quotient 1 and remainder 245653: filter 01 9dfca8.
	const value, p = 769941, 19
	var w Writer
	w.WriteUnary(value >> p)
	w.WriteBits(value, p)
	if got, want := hex.EncodeToString(w.Bytes()), "9dfca8"; got != want {
		t.Errorf("Golomb-Rice(769941, P=19) = %s, want %s", got, want)
	}
	r := NewReader(w.Bytes())
	q := r.ReadUnary()
	rem := r.ReadBits(p)
	if got := q<<p | rem; got != value || r.Err() != nil {
		t.Errorf("decode = %d (err %v), want %d", got, r.Err(), value)
	}
	if r.Remaining() != 3 {
		t.Errorf("Remaining() = %d padding bits, want 3", r.Remaining())
	}
}

func TestWriterTable(t *testing.T) {
	type op struct {
		unary bool
		v     uint64
		n     uint
	}
	tests := []struct {
		name string
		ops  []op
		want string
		bits uint64
	}{
		{"nothing", nil, "", 0},
		{"one bit", []op{{v: 1, n: 1}}, "80", 1},
		{"zero width", []op{{v: 0xff, n: 0}, {v: 1, n: 1}}, "80", 1},
		{"masks high bits", []op{{v: 0xff, n: 4}}, "f0", 4},
		{"unary 0", []op{{unary: true, v: 0}}, "00", 1},
		{"unary 3", []op{{unary: true, v: 3}}, "e0", 4},
		{"unary 40", []op{{unary: true, v: 40}}, "ffffffffff00", 41},
		{"64 bits", []op{{v: 0x0123456789abcdef, n: 64}}, "0123456789abcdef", 64},
		{"straddles", []op{{v: 1, n: 3}, {v: 0xffffffff, n: 32}, {v: 0, n: 5}}, "3fffffffe0", 40},
	}
	for _, tt := range tests {
		var w Writer
		for _, o := range tt.ops {
			if o.unary {
				w.WriteUnary(o.v)
			} else {
				w.WriteBits(o.v, o.n)
			}
		}
		if got := hex.EncodeToString(w.Bytes()); got != tt.want || w.Len() != tt.bits {
			t.Errorf("%s: Bytes() = %s (Len %d), want %s (Len %d)", tt.name, got, w.Len(), tt.want, tt.bits)
		}
	}
}

func TestWriterAppendsAndResets(t *testing.T) {
	w := NewWriter([]byte{0xaa})
	w.WriteBits(0x5, 3)
	if got, want := hex.EncodeToString(w.Bytes()), "aaa0"; got != want {
		t.Errorf("Bytes() after prefix = %s, want %s", got, want)
	}
	w.Reset(nil)
	w.WriteBits(1, 2)
	if got, want := hex.EncodeToString(w.Bytes()), "40"; got != want {
		t.Errorf("Bytes() after Reset = %s, want %s", got, want)
	}
}

func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		type item struct {
			unary bool
			v     uint64
			n     uint
		}
		items := make([]item, r.IntN(300))
		var w Writer
		for i := range items {
			if r.IntN(3) == 0 {
				items[i] = item{unary: true, v: uint64(r.IntN(100))}
				w.WriteUnary(items[i].v)
				continue
			}
			n := uint(r.IntN(65))
			v := r.Uint64() & lowMask(n)
			items[i] = item{v: v, n: n}
			w.WriteBits(v, n)
		}
		data := w.Bytes()
		if uint64(len(data)) != (w.Len()+7)/8 {
			t.Fatalf("trial %d: %d bytes for %d bits", trial, len(data), w.Len())
		}
		rd := NewReader(data)
		for i, it := range items {
			var got uint64
			if it.unary {
				got = rd.ReadUnary()
			} else {
				got = rd.ReadBits(it.n)
			}
			if got != it.v {
				t.Fatalf("trial %d item %d: read %d, want %d (err %v)", trial, i, got, it.v, rd.Err())
			}
		}
		if rd.Err() != nil || rd.Remaining() >= 8 || rd.Offset() != w.Len() {
			t.Fatalf("trial %d: err %v, Remaining %d, Offset %d of %d", trial, rd.Err(), rd.Remaining(), rd.Offset(), w.Len())
		}
	}
}

// TestReadRice checks ReadRice against ReadUnary and ReadBits on random
// codes of every parameter, including quotients longer than the accumulator.
func TestReadRice(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for p := uint(0); p <= 56; p++ {
		var w Writer
		want := make([]uint64, 300)
		for i := range want {
			q := uint64(r.IntN(4))
			if r.IntN(20) == 0 {
				q = uint64(r.IntN(200))
			}
			want[i] = q<<p | r.Uint64()&lowMask(p)
			w.WriteUnary(q)
			w.WriteBits(want[i], p)
		}
		var w2 Writer
		for _, v := range want {
			w2.WriteRice(v, p)
		}
		if !bytes.Equal(w2.Bytes(), w.Bytes()) {
			t.Fatalf("WriteRice(p=%d) wrote %x, WriteUnary+WriteBits %x", p, w2.Bytes(), w.Bytes())
		}
		rd := NewReader(w.Bytes())
		for i, v := range want {
			if got := rd.ReadRice(p); got != v || rd.Err() != nil {
				t.Fatalf("ReadRice(%d) code %d = %#x (err %v), want %#x", p, i, got, rd.Err(), v)
			}
		}
		batch := NewReader(w.Bytes())
		got := make([]uint64, len(want))
		for i := 0; i < len(got); {
			n := min(1+r.IntN(70), len(got)-i)
			batch.ReadRices(got[i:i+n], p)
			i += n
		}
		if !slices.Equal(got, want) || batch.Err() != nil || batch.Offset() != w.Len() {
			t.Fatalf("ReadRices(%d) = %v (err %v, offset %d), want ReadRice's %v", p, got, batch.Err(), batch.Offset(), want)
		}
		checkSumRices(t, r, w.Bytes(), w.Len(), want, p)
		over := make([]uint64, 3)
		batch.ReadRices(over, p)
		if batch.Err() == nil && batch.Remaining() < 3*(uint64(p)+1) {
			t.Errorf("ReadRices(%d) past the end gave no error", p)
		}
		if rd.Offset() != w.Len() {
			t.Errorf("ReadRice(%d): Offset() = %d after all codes, want %d", p, rd.Offset(), w.Len())
		}
		if rd.Remaining() < uint64(p)+1 {
			if got := rd.ReadRice(p); got != 0 || rd.Err() == nil {
				t.Errorf("ReadRice(%d) past the end = %d, %v; want 0 and an error", p, got, rd.Err())
			}
		}
	}
}

// checkSumRices walks data, whose codes are want, with SumRices as a merge
// walk does: random targets in ascending order, each one call, and checks
// the sum and the count after each against the prefix sums, and the offset
// at the end against bits, the length of the codes.
func checkSumRices(t *testing.T, r *rand.Rand, data []byte, bits uint64, want []uint64, p uint) {
	t.Helper()
	prefix := make([]uint64, len(want))
	var total uint64
	for i, v := range want {
		total += v
		prefix[i] = total
	}
	rd := NewReader(data)
	var sum, target uint64
	done := 0 // codes read so far
	for done < len(want) {
		// A target at, just above or well past one of the values ahead.
		next := prefix[min(done+r.IntN(40), len(want)-1)]
		target = max(target, next+uint64(r.IntN(2)))
		if r.IntN(8) == 0 {
			target = next &^ 1 // sometimes not a value at all
		}
		target = max(target, sum)
		wantRead := 0
		for done+wantRead < len(want) && prefix[done+wantRead] < target {
			wantRead++
		}
		if done+wantRead < len(want) {
			wantRead++ // the code that reaches the target
		}
		gotSum, gotRead := rd.SumRices(p, sum, target, len(want)-done)
		if gotRead != wantRead || gotSum != prefix[done+wantRead-1] || rd.Err() != nil {
			t.Fatalf("SumRices(%d) from code %d to %d = %d after %d codes (err %v), want %d after %d",
				p, done, target, gotSum, gotRead, rd.Err(), prefix[done+wantRead-1], wantRead)
		}
		sum, done = gotSum, done+gotRead
	}
	if rd.Offset() != bits {
		t.Fatalf("SumRices(%d): offset %d after every code, want %d", p, rd.Offset(), bits)
	}
	if got, read := rd.SumRices(p, sum, sum, 0); got != sum || read != 0 {
		t.Fatalf("SumRices(max = 0) = %d, %d; want %d, 0", got, read, sum)
	}
}

func TestReaderStickyError(t *testing.T) {
	r := NewReader([]byte{0xff, 0xff})
	if got := r.ReadBits(12); got != 0xfff {
		t.Fatalf("ReadBits(12) = %#x, want 0xfff", got)
	}
	if got := r.ReadUnary(); got != 0 || r.Err() == nil {
		t.Fatalf("ReadUnary() past the end = %d, %v; want 0 and an error", got, r.Err())
	}
	if !errors.Is(r.Err(), io.ErrUnexpectedEOF) {
		t.Errorf("Err() = %v, want io.ErrUnexpectedEOF", r.Err())
	}
	first := r.Err()
	if got := r.ReadBits(1); got != 0 || r.Err() != first {
		t.Errorf("read after error = %d, %v; want 0 and the first error", got, r.Err())
	}
	var zero Reader
	if zero.ReadBits(1); zero.Err() == nil {
		t.Errorf("zero Reader: ReadBits(1) gave no error")
	}
}

func TestReaderZeroAllocs(t *testing.T) {
	data := make([]byte, 1024) // more than the reads take: no error to allocate
	for i := range data {
		data[i] = byte(i * 37)
	}
	var r Reader
	var codes [8]uint64
	allocs := testing.AllocsPerRun(100, func() {
		r.Reset(data)
		for range 10 {
			r.ReadUnary()
			r.ReadBits(19)
			r.ReadRice(19)
			r.ReadRices(codes[:], 19)
			r.SumRices(19, 0, 1<<40, 8)
		}
	})
	if allocs != 0 {
		t.Errorf("reading allocates %v times, want 0", allocs)
	}
}

// FuzzReader drives the reader with a script of reads over arbitrary bytes and
// checks every result against a bit-by-bit reference.
func FuzzReader(f *testing.F) {
	f.Add([]byte{0x9d, 0xfc, 0xa8}, []byte{0xff, 19})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}, []byte{0xff, 64, 0xff})
	f.Add([]byte{}, []byte{1})
	f.Add([]byte{0x9d, 0xfc, 0xa8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x12}, []byte{0xc0 + 19, 0xc0 + 3, 0xc0})
	f.Fuzz(func(t *testing.T, data, script []byte) {
		r := NewReader(data)
		var pos uint64
		total := uint64(len(data)) * 8
		for _, op := range script {
			if op >= 0xc0 && op <= 0xf8 { // ReadRice(0..56)
				p := uint(op - 0xc0)
				start := pos
				got := r.ReadRice(p)
				var q uint64
				for pos < total && naiveBit(data, pos) == 1 {
					q++
					pos++
				}
				if pos+1+uint64(p) > total {
					if r.Err() == nil || got != 0 {
						t.Fatalf("ReadRice(%d) at bit %d of %d = %d, %v; want 0 and an error", p, start, total, got, r.Err())
					}
					return
				}
				pos++
				want := q
				for range p {
					want = want<<1 | naiveBit(data, pos)
					pos++
				}
				if got != want || r.Err() != nil || r.Offset() != pos {
					t.Fatalf("ReadRice(%d) at bit %d = %#x, %v, offset %d; want %#x, offset %d", p, start, got, r.Err(), r.Offset(), want, pos)
				}
				continue
			}
			if op == 0xff {
				got := r.ReadUnary()
				var want uint64
				for pos < total && naiveBit(data, pos) == 1 {
					want++
					pos++
				}
				if pos == total {
					if r.Err() == nil {
						t.Fatalf("ReadUnary ran off the end without an error")
					}
					return
				}
				pos++ // the terminating zero
				if got != want {
					t.Fatalf("ReadUnary() = %d, want %d", got, want)
				}
				continue
			}
			n := uint(op % 65)
			got := r.ReadBits(n)
			if pos+uint64(n) > total {
				if r.Err() == nil {
					t.Fatalf("ReadBits(%d) at %d of %d bits gave no error", n, pos, total)
				}
				return
			}
			var want uint64
			for range n {
				want = want<<1 | naiveBit(data, pos)
				pos++
			}
			if got != want || r.Err() != nil {
				t.Fatalf("ReadBits(%d) = %#x, %v; want %#x", n, got, r.Err(), want)
			}
			if r.Offset() != pos {
				t.Fatalf("Offset() = %d, want %d", r.Offset(), pos)
			}
		}
	})
}

// FuzzRices decodes arbitrary bytes as Golomb-Rice codes of parameter p
// with ReadRices and with SumRices, and checks both against ReadRice one
// code at a time (which FuzzReader checks bit by bit): values, sums,
// counts, offsets and the error at the end of the data.
func FuzzRices(f *testing.F) {
	f.Add([]byte{0x9d, 0xfc, 0xa8}, uint8(19), uint8(1), uint64(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x12, 0x34}, uint8(3), uint8(9), uint64(40))
	f.Add(bytes.Repeat([]byte{0x5a, 0x00, 0xc3}, 30), uint8(19), uint8(7), uint64(1<<21))
	f.Fuzz(func(t *testing.T, data []byte, pb, nb uint8, target uint64) {
		p, n := uint(pb%57), int(nb)
		one := NewReader(data)
		want := make([]uint64, n)
		for i := range want {
			want[i] = one.ReadRice(p)
		}
		batch := NewReader(data)
		got := make([]uint64, n)
		batch.ReadRices(got, p)
		if !slices.Equal(got, want) || (batch.Err() == nil) != (one.Err() == nil) || batch.Offset() != one.Offset() {
			t.Fatalf("ReadRices(%d, %d codes) = %v (err %v, offset %d); ReadRice %v (err %v, offset %d)",
				p, n, got, batch.Err(), batch.Offset(), want, one.Err(), one.Offset())
		}
		// SumRices stops after the code that reaches target.
		var sum uint64
		read := 0
		ref := NewReader(data)
		for read < n {
			read++
			if sum += ref.ReadRice(p); sum >= target {
				break
			}
		}
		sr := NewReader(data)
		gotSum, gotRead := sr.SumRices(p, 0, target, n)
		if gotSum != sum || gotRead != read || (sr.Err() == nil) != (ref.Err() == nil) || sr.Offset() != ref.Offset() {
			t.Fatalf("SumRices(%d, to %d, %d codes) = %d after %d (err %v, offset %d); ReadRice %d after %d (err %v, offset %d)",
				p, target, n, gotSum, gotRead, sr.Err(), sr.Offset(), sum, read, ref.Err(), ref.Offset())
		}
		if sr.Err() != nil && sr.Err().Error() != ref.Err().Error() {
			t.Fatalf("SumRices error %q, ReadRice's %q", sr.Err(), ref.Err())
		}
	})
}
