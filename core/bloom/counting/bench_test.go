package counting

import (
	"testing"

	bab "github.com/bits-and-blooms/bloom/v3"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	boom "github.com/tylertreat/BoomFilters"
)

// BenchmarkFilter runs chainsieve's counting filter beside BoomFilters'
// CountingBloomFilter and, for Add and Test, beside bits-and-blooms' classic
// filter (the price of counters), all at 100,000 elements at 1 %: m = 958,506,
// k = 7 for the three.
//
// BoomFilters (read at the pinned version) sizes m = ⌈-n·ln p/ln²2⌉ and
// k = ⌈log2(1/p)⌉, which is our shape at 1 %; it hashes each element once
// with FNV-1 64 (byte at a time, through a hash.Hash64 kept in the filter,
// so not even Test is safe for concurrent use), derives position i as
// (lo32 + hi32·i) mod m, and keeps 4-bit buckets in a byte array read and
// written a nibble at a time. Its Remove (TestAndRemove) decrements saturated
// buckets too: after an overflow it can produce false negatives, ours cannot.
func BenchmarkFilter(b *testing.B) {
	const n, p = 100_000, 0.01
	keys := filtertest.Keys(2 * n)
	ours, _ := New(n, p)
	theirs := boom.NewCountingBloomFilter(n, 4, p)
	classic := bab.New(uint(ours.M()), uint(ours.K()))
	if uint64(theirs.Capacity()) != ours.M() || int(theirs.K()) != ours.K() {
		b.Fatalf("shapes differ: boomfilters m %d k %d, chainsieve m %d k %d", theirs.Capacity(), theirs.K(), ours.M(), ours.K())
	}
	for _, k := range keys[:n] {
		ours.Add(k)
		theirs.Add(k)
		classic.Add(k)
	}
	bitsPerElem := float64(ours.Stats().Bits) / n
	var sink bool
	b.Run("Add/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		f, _ := NewWithShape(ours.M(), ours.K())
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				f.Reset() // keep the fill, and so the saturation, realistic
			}
			f.Add(keys[i%n])
		}
		b.ReportMetric(bitsPerElem, "bits/elem")
	})
	b.Run("Add/boomfilters", func(b *testing.B) {
		b.ReportAllocs()
		f := boom.NewCountingBloomFilter(n, 4, p)
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				f.Reset()
			}
			f.Add(keys[i%n])
		}
		b.ReportMetric(bitsPerElem, "bits/elem")
	})
	b.Run("Add/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		f := bab.New(uint(ours.M()), uint(ours.K()))
		for i := 0; b.Loop(); i++ {
			f.Add(keys[i%n])
		}
		b.ReportMetric(float64(ours.M())/n, "bits/elem")
	})
	// Members: every one of the k probes is made.
	b.Run("Test/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != ours.Test(keys[i%n])
		}
	})
	b.Run("Test/boomfilters", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != theirs.Test(keys[i%n])
		}
	})
	b.Run("Test/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != classic.Test(keys[i%n])
		}
	})
	// Non-members: most probes stop at the first or second counter.
	b.Run("TestAbsent/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != ours.Test(keys[n+i%n])
		}
	})
	b.Run("TestAbsent/boomfilters", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != theirs.Test(keys[n+i%n])
		}
	})
	b.Run("TestAbsent/bitsandblooms", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink = sink != classic.Test(keys[n+i%n])
		}
	})
	// Members removed one by one; the full filter is rebuilt, untimed, every
	// n removals.
	b.Run("Remove/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		f, _ := NewWithShape(ours.M(), ours.K())
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				b.StopTimer()
				f.Reset()
				for _, k := range keys[:n] {
					f.Add(k)
				}
				b.StartTimer()
			}
			sink = sink != f.Remove(keys[i%n])
		}
	})
	b.Run("Remove/boomfilters", func(b *testing.B) {
		b.ReportAllocs()
		f := boom.NewCountingBloomFilter(n, 4, p)
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				b.StopTimer()
				f.Reset()
				for _, k := range keys[:n] {
					f.Add(k)
				}
				b.StartTimer()
			}
			sink = sink != f.TestAndRemove(keys[i%n])
		}
	})
	_ = sink
}
