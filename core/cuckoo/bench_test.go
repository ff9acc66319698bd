package cuckoo

import (
	"testing"

	"github.com/FastFilter/xorfilter"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	seiflotfy "github.com/seiflotfy/cuckoofilter"
	boom "github.com/tylertreat/BoomFilters"
)

// The other cuckoo filters, read in the module cache:
//
//   - seiflotfy/cuckoofilter: buckets of four 8-bit fingerprints (one byte
//     each, fp = hash%255 + 1), metro hash, a power-of-two bucket count
//     (NewFilter(c) rounds c up to a power of two and divides by 4: 100,000
//     gives 32,768 buckets), alternate bucket i ^ H(fp), 500 kicks with
//     math/rand victims, and on failure the last victim is dropped: an
//     element already inserted is lost.
//   - BoomFilters' CuckooFilter: fingerprints of whole bytes (1 at 1 %),
//     stored as []byte slices of the FNV-32 hash, 2^⌈log2(8n)⌉ buckets
//     (1,048,576 for n = 100,000, so its shape cannot be matched), 500
//     kicks, allocations on every operation.
//
// The comparison runs ours at the shape of seiflotfy: f = 8, 32,768 buckets.
const (
	benchN       = 100_000
	benchBuckets = 32768
)

// benchImpl adapts one filter to the four operations measured.
type benchImpl struct {
	name   string
	insert func([]byte) bool
	lookup func([]byte) bool
	delete func([]byte) bool
	reset  func()
}

func benchImpls() []benchImpl {
	ours, _ := NewWithShape(benchBuckets, 8)
	theirs := seiflotfy.NewFilter(benchN)
	bf := boom.NewCuckooFilter(benchN, 0.01)
	return []benchImpl{
		{"chainsieve", func(k []byte) bool { return ours.Add(k) == nil }, ours.Test, ours.Remove, ours.Reset},
		{"seiflotfy", theirs.Insert, theirs.Lookup, theirs.Delete, theirs.Reset},
		{"boomfilters", func(k []byte) bool { return bf.Add(k) == nil }, bf.Test, bf.TestAndRemove, func() { bf.Reset() }},
	}
}

// BenchmarkCuckoo runs chainsieve, seiflotfy and boomfilters side by side on
// 100,000 32-byte keys (load 0.76 in 32,768 buckets of 4).
func BenchmarkCuckoo(b *testing.B) {
	keys := filtertest.Keys(2 * benchN)
	impls := benchImpls()
	fill := func(im benchImpl) {
		im.reset()
		for _, k := range keys[:benchN] {
			if !im.insert(k) {
				b.Fatalf("%s: insert failed below capacity", im.name)
			}
		}
	}
	var sink bool
	for _, im := range impls {
		// Each pass over the keys starts from an empty filter, so every
		// insert sees loads from 0 to 0.76.
		b.Run("Insert/"+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%benchN == 0 {
					im.reset()
				}
				im.insert(keys[i%benchN])
			}
		})
	}
	for _, im := range impls {
		fill(im)
		b.Run("Lookup/"+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != im.lookup(keys[i%benchN])
			}
		})
		b.Run("LookupAbsent/"+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != im.lookup(keys[benchN+i%benchN])
			}
		})
		b.Run("Delete/"+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%benchN == 0 && i > 0 {
					b.StopTimer()
					fill(im)
					b.StartTimer()
				}
				im.delete(keys[i%benchN])
			}
		})
	}
	_ = sink
}

// BenchmarkWidth measures ours at the widths the issue names: 8, 12 and 16
// bits read a bucket in one load, 23 (BIP158's rate) in two halves.
func BenchmarkWidth(b *testing.B) {
	keys := filtertest.Keys(2 * benchN)
	var sink bool
	for _, w := range []int{8, 12, 16, 23} {
		f, _ := NewWithShape(bucketsFor(benchN), w)
		name := "f=" + string(rune('0'+w/10)) + string(rune('0'+w%10))
		b.Run(name+"/Insert", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if i%benchN == 0 {
					f.Reset()
				}
				_ = f.Add(keys[i%benchN])
			}
		})
		f.Reset()
		for _, k := range keys[:benchN] {
			_ = f.Add(k)
		}
		b.Run(name+"/Lookup", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != f.Test(keys[i%benchN])
			}
		})
		b.Run(name+"/LookupAbsent", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != f.Test(keys[benchN+i%benchN])
			}
		})
	}
	_ = sink
}

// BenchmarkBuild builds each structure on the same 100,000 keys and reports
// its size per element: ours from New(n, 0.01) (10-bit fingerprints at load
// 0.934), seiflotfy at its 32,768 buckets of 8 bits, and the space
// reference, FastFilter's xor filters with 8-bit fingerprints (rate 1/256,
// static: no insert after the build, no delete): BinaryFuse8 as bits/elem,
// Xor8 as xor8-bits/elem.
func BenchmarkBuild(b *testing.B) {
	keys := filtertest.Keys(benchN)
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		var f *Filter
		for b.Loop() {
			f, _ = New(benchN, 0.01)
			for _, k := range keys {
				_ = f.Add(k)
			}
		}
		b.ReportMetric(float64(f.Stats().Bits)/benchN, "bits/elem")
	})
	b.Run("seiflotfy", func(b *testing.B) {
		b.ReportAllocs()
		var f *seiflotfy.Filter
		for b.Loop() {
			f = seiflotfy.NewFilter(benchN)
			for _, k := range keys {
				f.Insert(k)
			}
		}
		b.ReportMetric(float64(len(f.Encode())*8)/benchN, "bits/elem")
	})
	b.Run("xorfilter", func(b *testing.B) {
		b.ReportAllocs()
		hashes := make([]uint64, len(keys))
		var fuse *xorfilter.BinaryFuse8
		for b.Loop() {
			for i, k := range keys {
				hashes[i], _ = bloom.Hash(k)
			}
			fuse, _ = xorfilter.PopulateBinaryFuse8(hashes)
		}
		b.ReportMetric(float64(len(fuse.Fingerprints)*8)/benchN, "bits/elem")
		xor8, err := xorfilter.Populate(hashes)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(xor8.Fingerprints)*8)/benchN, "xor8-bits/elem")
	})
}
