package scalable

import (
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	boom "github.com/tylertreat/BoomFilters"
)

// BenchmarkFilter grows each filter from n0 = 1,000 to 100,000 elements at a
// bound of 1 %, beside BoomFilters' ScalableBloomFilter and a classic
// core/bloom Filter sized for 100,000 (what knowing n in advance saves).
//
// BoomFilters (read at v0.0.0-20251001182300-5b3723cc64ae): every stage has
// the same capacity hint (growth s = 1, not the paper's s ≥ 2), a stage is
// added when its estimated fill reaches 1/2, stage i has rate fpRate·r^i so
// the bound is fpRate/(1−r), each stage is a partitioned filter with
// k = ⌈log2(1/p_i)⌉ slices, and each stage re-hashes the element (FNV-64,
// positions by %). To give it the same bound and stage rates as ours it gets
// fpRate = P·(1−r); it cannot grow geometrically, so at 100,000 elements it
// has about 100 stages to our 7. Its Add does not test for duplicates.
func BenchmarkFilter(b *testing.B) {
	const n0, n, p, r = 1000, 100_000, 0.01, 0.85
	keys := filtertest.Keys(2 * n)
	params := Params{Capacity: n0, FalsePositiveRate: p, Tightening: r, Growth: 2}
	newBoom := func() *boom.ScalableBloomFilter { return boom.NewScalableBloomFilter(n0, p*(1-r), r) }
	ours, _ := New(params)
	theirs := newBoom()
	classic, _ := bloom.New(n, p)
	for _, k := range keys[:n] {
		ours.Add(k)
		theirs.Add(k)
		classic.Add(k)
	}
	st := ours.Stats()
	var sink bool
	// Add inserts 100,000 distinct elements into an empty filter, again and
	// again: the stages' allocations are part of the cost.
	b.Run("Add/chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		f, _ := New(params)
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				f.Reset()
			}
			f.Add(keys[i%n])
		}
		b.ReportMetric(float64(st.Bits)/float64(st.Added), "bits/elem")
	})
	b.Run("Add/boomfilters", func(b *testing.B) {
		b.ReportAllocs()
		f := newBoom()
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				f.Reset()
			}
			f.Add(keys[i%n])
		}
		b.ReportMetric(float64(theirs.Capacity())/n, "bits/elem")
	})
	b.Run("Add/classic", func(b *testing.B) {
		b.ReportAllocs()
		f, _ := bloom.New(n, p)
		for i := 0; b.Loop(); i++ {
			if i%n == 0 {
				f.Reset()
			}
			f.Add(keys[i%n])
		}
		b.ReportMetric(float64(classic.M())/n, "bits/elem")
	})
	members := map[string]func([]byte) bool{"chainsieve": ours.Test, "boomfilters": theirs.Test, "classic": classic.Test}
	for _, op := range []struct {
		name string
		from int
	}{{"Test", 0}, {"TestAbsent", n}} {
		for _, impl := range []string{"chainsieve", "boomfilters", "classic"} {
			test := members[impl]
			b.Run(op.name+"/"+impl, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					sink = sink != test(keys[op.from+i%n])
				}
			})
		}
	}
	_ = sink
}
