package gcs

import (
	"math/rand/v2"
	"testing"
)

// TestZeroAllocs pins the per-filter paths: once a Query's buffers have
// grown, decoding and matching a filter allocates nothing.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	r := rand.New(rand.NewPCG(31, 32))
	items := series("member-", 2000)
	f, _ := Build(basicParams, randomKey(r), items)
	enc := f.Bytes()
	for _, size := range []int{1, 10, 1000, 20000} {
		q := NewQuery(randomItems(r, size))
		var dst []int
		var s Set
		allocs := testing.AllocsPerRun(20, func() {
			g, err := Decode(basicParams, f.Key(), enc)
			if err != nil {
				t.Fatal(err)
			}
			g, _ = DecodeUnchecked(basicParams, f.Key(), enc)
			q.MatchAny(&g)
			dst = q.Matches(dst[:0], &g)
			g.Match(items[7])
			s.Reset(&g)
			s.Match(items[7])
			g.Hash()
		})
		if allocs != 0 {
			t.Errorf("Decode, Match, Query and Set with %d items: %v allocations per filter, want 0", size, allocs)
		}
	}
}

// TestBuilderAllocs pins a reused Builder to one allocation per filter: its
// encoding.
func TestBuilderAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	r := rand.New(rand.NewPCG(33, 34))
	items := randomItems(r, 3000)
	items = append(items, items[:10]...) // repeats take the dedupe path
	var b Builder
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := b.Build(basicParams, Key{}, items); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 1 {
		t.Errorf("Builder.Build allocates %v times per filter, want 1", allocs)
	}
}
