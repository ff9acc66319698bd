package bitio

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGolombRiceDecode decodes 10,000 BIP158-shaped codes (P = 19,
// deltas uniform with mean M = 784931); the figure to read is ns per code.
func BenchmarkGolombRiceDecode(b *testing.B) {
	const n, p, m = 10_000, 19, 784931
	r := rand.New(rand.NewPCG(9, 9))
	var w Writer
	for range n {
		d := uint64(r.ExpFloat64() * m)
		w.WriteUnary(d >> p)
		w.WriteBits(d, p)
	}
	data := w.Bytes()
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
