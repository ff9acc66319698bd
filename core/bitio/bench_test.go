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
