package bitio

import (
	"math/rand/v2"
	"testing"
)

// riceStream returns n BIP158-shaped Golomb-Rice codes (P = 19, deltas
// exponential with mean M = 784931), as a filter of N = n carries them.
func riceStream(n int) []byte {
	const p, m = 19, 784931
	r := rand.New(rand.NewPCG(9, 9))
	var w Writer
	for range n {
		d := uint64(r.ExpFloat64() * m)
		w.WriteUnary(d >> p)
		w.WriteBits(d, p)
	}
	return w.Bytes()
}

// BenchmarkGolombRiceDecode decodes 10,000 codes with ReadUnary and ReadBits
// and BenchmarkReadRice the same codes with ReadRice; the figure to read is
// ns per code. ReadRice exists because it is the measured faster of the two.
func BenchmarkGolombRiceDecode(b *testing.B) {
	const n, p = 10_000, 19
	data := riceStream(n)
	var rd Reader
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd.Reset(data)
		var sum uint64
		for range n {
			sum += rd.ReadUnary()<<p | rd.ReadBits(p)
		}
		if rd.Err() != nil {
			b.Fatal(rd.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/code")
}

func BenchmarkReadRice(b *testing.B) {
	const n, p = 10_000, 19
	data := riceStream(n)
	var rd Reader
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd.Reset(data)
		var sum uint64
		for range n {
			sum += rd.ReadRice(p)
		}
		if rd.Err() != nil {
			b.Fatal(rd.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/code")
}

func BenchmarkReadRices(b *testing.B) {
	const n, p = 10_000, 19
	data := riceStream(n)
	var rd Reader
	var buf [64]uint64
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd.Reset(data)
		var sum uint64
		for left := n; left > 0; left -= len(buf) {
			chunk := buf[:min(left, len(buf))]
			rd.ReadRices(chunk, p)
			for _, d := range chunk {
				sum += d
			}
		}
		if rd.Err() != nil {
			b.Fatal(rd.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/code")
}

// riceDeltas returns the deltas riceStream codes.
func riceDeltas(n int) []uint64 {
	const m = 784931
	r := rand.New(rand.NewPCG(9, 9))
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(r.ExpFloat64() * m)
	}
	return out
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
