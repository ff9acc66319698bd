package bitio

import (
	"math/rand/v2"
	"testing"
)

// riceDeltas returns n BIP158-shaped deltas: exponential with mean
// M = 784931, as a filter of N = n carries them.
func riceDeltas(n int) []uint64 {
	const m = 784931
	r := rand.New(rand.NewPCG(9, 9))
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(r.ExpFloat64() * m)
	}
	return out
}

// riceStream returns riceDeltas(n) Golomb-Rice coded with P = 19.
func riceStream(n int) []byte {
	var w Writer
	for _, d := range riceDeltas(n) {
		w.WriteRice(d, 19)
	}
	return w.Bytes()
}

// benchDecode decodes 10,000 codes with decode, which must read n codes of
// P = 19 and return their sum; the figure to read is ns per code.
func benchDecode(b *testing.B, decode func(rd *Reader, n int) uint64) {
	const n = 10_000
	data := riceStream(n)
	var rd Reader
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd.Reset(data)
		decode(&rd, n)
		if rd.Err() != nil {
			b.Fatal(rd.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/code")
}

// BenchmarkGolombRiceDecode decodes with ReadUnary and ReadBits,
// BenchmarkReadRice and BenchmarkReadRices the same codes with ReadRice and
// ReadRices, which exist because they measured faster (docs/performance.md
// has the figures).
func BenchmarkGolombRiceDecode(b *testing.B) {
	benchDecode(b, func(rd *Reader, n int) (sum uint64) {
		for range n {
			sum += rd.ReadUnary()<<19 | rd.ReadBits(19)
		}
		return sum
	})
}

func BenchmarkReadRice(b *testing.B) {
	benchDecode(b, func(rd *Reader, n int) (sum uint64) {
		for range n {
			sum += rd.ReadRice(19)
		}
		return sum
	})
}

func BenchmarkReadRices(b *testing.B) {
	var buf [64]uint64
	benchDecode(b, func(rd *Reader, n int) (sum uint64) {
		for left := n; left > 0; left -= len(buf) {
			chunk := buf[:min(left, len(buf))]
			rd.ReadRices(chunk, 19)
			for _, d := range chunk {
				sum += d
			}
		}
		return sum
	})
}

// BenchmarkSumRices walks the same codes with SumRices, as a Match of a
// value past the last one does.
func BenchmarkSumRices(b *testing.B) {
	benchDecode(b, func(rd *Reader, n int) uint64 {
		sum, _ := rd.SumRices(19, 0, 1<<64-1, n)
		return sum
	})
}

// BenchmarkWriteUnaryBits and BenchmarkWriteRice encode the same 10,000
// codes; WriteRice exists because it is the measured faster.
func BenchmarkWriteUnaryBits(b *testing.B) {
	const p = 19
	deltas := riceDeltas(10_000)
	var w Writer
	buf := make([]byte, 0, 32<<10)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		for _, d := range deltas {
			w.WriteUnary(d >> p)
			w.WriteBits(d, p)
		}
		w.Bytes()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(deltas)), "ns/code")
}

func BenchmarkWriteRice(b *testing.B) {
	const p = 19
	deltas := riceDeltas(10_000)
	var w Writer
	buf := make([]byte, 0, 32<<10)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		for _, d := range deltas {
			w.WriteRice(d, p)
		}
		w.Bytes()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(deltas)), "ns/code")
}
