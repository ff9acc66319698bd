package bitset

import (
	"math/rand/v2"
	"testing"

	bab "github.com/bits-and-blooms/bitset"
)

const benchBits = 1 << 16

func benchIndexes() []uint {
	r := rand.New(rand.NewPCG(7, 7))
	idx := make([]uint, 4096)
	for i := range idx {
		idx[i] = uint(r.IntN(benchBits))
	}
	return idx
}

// BenchmarkLayout compares 64-bit words ([Set]) with a plain byte slice
// ([LittleEndian]) on the operations a Bloom filter runs; the package doc
// records the outcome.
func BenchmarkLayout(b *testing.B) {
	idx := benchIndexes()
	words, words2 := New(benchBits), New(benchBits)
	raw, raw2 := make(LittleEndian, benchBits/8), make(LittleEndian, benchBits/8)
	for _, i := range idx {
		words.Set(i)
		raw.Set(i)
	}
	b.Run("Set/words", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			words.Set(idx[i%len(idx)])
		}
	})
	b.Run("Set/bytes", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			raw.Set(idx[i%len(idx)])
		}
	})
	var sink bool
	b.Run("Test/words", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = sink != words.Test(idx[i%len(idx)])
		}
	})
	b.Run("Test/bytes", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = sink != raw.Test(idx[i%len(idx)])
		}
	})
	b.Run("Count/words", func(b *testing.B) {
		for b.Loop() {
			_ = words.Count()
		}
	})
	b.Run("Count/bytes", func(b *testing.B) {
		for b.Loop() {
			_ = raw.Count()
		}
	})
	b.Run("Or/words", func(b *testing.B) {
		for b.Loop() {
			words2.Or(words)
		}
	})
	b.Run("Or/bytes", func(b *testing.B) {
		for b.Loop() {
			raw2.Or(raw)
		}
	})
	_ = sink
}

// BenchmarkSet runs chainsieve's Set and bits-and-blooms/bitset side by
// side on a 65,536-bit set.
func BenchmarkSet(b *testing.B) {
	idx := benchIndexes()
	ours, ours2 := New(benchBits), New(benchBits)
	theirs, theirs2 := bab.New(benchBits), bab.New(benchBits)
	for _, i := range idx {
		ours.Set(i)
		theirs.Set(i)
	}
	var sink bool
	b.Run("Set/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			ours.Set(idx[i%len(idx)])
		}
	})
	b.Run("Set/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			theirs.Set(idx[i%len(idx)])
		}
	})
	b.Run("Test/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != ours.Test(idx[i%len(idx)])
		}
	})
	b.Run("Test/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != theirs.Test(idx[i%len(idx)])
		}
	})
	b.Run("Count/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ours.Count()
		}
	})
	b.Run("Count/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = theirs.Count()
		}
	})
	b.Run("Or/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ours2.Or(ours)
		}
	})
	b.Run("Or/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			theirs2.InPlaceUnion(theirs)
		}
	})
	_ = sink
}
