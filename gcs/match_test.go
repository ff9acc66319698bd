package gcs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
)

// TestBuildMatchesModel builds random sets, some with repeats and some with
// P and M small enough that distinct items collide, and checks every query
// path against the exact model.
func TestBuildMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	params := []Params{basicParams, {P: 1, M: 2}, {P: 8, M: 256}, {P: 32, M: 1<<32 - 1}, {P: 4, M: 3}}
	for trial := range 60 {
		p := params[trial%len(params)]
		key := randomKey(r)
		items := randomItems(r, r.IntN(300))
		if len(items) > 0 && trial%3 == 0 {
			items = append(items, items[:len(items)/2]...) // repeats
		}
		f, err := Build(p, key, items)
		if err != nil {
			t.Fatal(err)
		}
		set, fr := exactSet(p, key, items)
		if f.F() != fr {
			t.Fatalf("F() = %d, want %d", f.F(), fr)
		}
		if _, err := Decode(p, key, f.Bytes()); err != nil {
			t.Fatalf("Decode(Build(...)) = %v", err)
		}
		queries := append(randomItems(r, 50), items...)
		checkQueries(t, &f, set, queries)
	}
}

// checkQueries compares Match, Set.Match, both MatchAny strategies and
// Matches with the model for every query, and MatchAny for prefixes.
func checkQueries(t *testing.T, f *Filter, set map[uint64]bool, queries [][]byte) {
	t.Helper()
	var s Set
	if err := s.Reset(f); err != nil {
		t.Fatal(err)
	}
	var want []int
	for i, it := range queries {
		exact := f.Len() > 0 && set[f.key.HashToRange(it, f.F())]
		if exact {
			want = append(want, i)
		}
		if got := f.Match(it); got != exact {
			t.Fatalf("Match(%x) = %v, want %v", it, got, exact)
		}
		if got := s.Match(it); got != exact {
			t.Fatalf("Set.Match(%x) = %v, want %v", it, got, exact)
		}
	}
	for _, n := range []int{0, 1, 2, len(queries) / 2, len(queries)} {
		q := NewQuery(queries[:n])
		exact := len(want) > 0 && want[0] < n
		if got := f.matchSorted(q.sortedValues(f)); got != exact {
			t.Fatalf("merge MatchAny over %d items = %v, want %v", n, got, exact)
		}
		if got := s.MatchAny(queries[:n]); got != exact {
			t.Fatalf("Set MatchAny over %d items = %v, want %v", n, got, exact)
		}
		if got := q.MatchAny(f); got != exact {
			t.Fatalf("Query.MatchAny over %d items = %v, want %v", n, got, exact)
		}
	}
	q := NewQuery(queries)
	if got := q.Matches(nil, f); !slices.Equal(got, want) {
		t.Fatalf("Matches = %v, want %v", got, want)
	}
	if got := q.matchesSorted(nil, f); !slices.Equal(got, want) {
		t.Fatalf("merge Matches = %v, want %v", got, want)
	}
}

// TestZeroDeltas builds a set where distinct items share hashed values (F
// smaller than N makes that certain) and checks that each is kept as a zero
// delta rather than merged.
func TestZeroDeltas(t *testing.T) {
	p := Params{P: 2, M: 1}
	items := series("item-", 40) // F = 40: collisions are certain
	f, err := Build(p, Key{1}, items)
	if err != nil {
		t.Fatal(err)
	}
	values, err := f.Values(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(values) != 40 || f.Len() != 40 {
		t.Fatalf("N = %d with %d values, want 40 distinct items kept", f.Len(), len(values))
	}
	zeros := 0
	for i := 1; i < len(values); i++ {
		if values[i] == values[i-1] {
			zeros++
		}
	}
	if zeros == 0 {
		t.Errorf("no zero deltas among %v", values)
	}
}

func TestBuildRemovesRepeats(t *testing.T) {
	a, b := []byte("a"), []byte("b")
	f1, _ := Build(basicParams, Key{}, [][]byte{a, b, a, a, b})
	f2, _ := Build(basicParams, Key{}, [][]byte{b, a})
	if f1.Len() != 2 || string(f1.Bytes()) != string(f2.Bytes()) {
		t.Errorf("Build(a b a a b) = N %d %x, want N 2 and Build(b a) = %x", f1.Len(), f1.Bytes(), f2.Bytes())
	}
	empty, _ := Build(basicParams, Key{}, nil)
	if string(empty.Bytes()) != "\x00" || empty.Match(a) || empty.MatchAny([][]byte{a}) {
		t.Errorf("Build(nothing) = %x, want 00 matching nothing", empty.Bytes())
	}
}

func TestZeroFilter(t *testing.T) {
	var f Filter
	var s Set
	if f.Match([]byte("x")) || f.MatchAny([][]byte{[]byte("x")}) || s.Reset(&f) != nil || s.Match([]byte("x")) {
		t.Errorf("the zero Filter matched")
	}
}

// TestSortsAgree checks the bucket sorts against slices.Sort, including runs
// of equal hashes large enough for the fallback.
func TestSortsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	var counts []uint32
	for _, n := range []int{0, 1, 5, 33, 100, 1000, 5000} {
		for _, dup := range []bool{false, true} {
			h := make([]uint64, n)
			e := make([]entry, n)
			for i := range h {
				h[i] = r.Uint64()
				if dup && i%2 == 0 {
					h[i] = 42
				}
				e[i] = entry{h: h[i], i: uint32(i)}
			}
			want := slices.Clone(h)
			slices.Sort(want)
			src := slices.Clone(h)
			if got := sortHashes(make([]uint64, n), h, &counts); !slices.Equal(got, want) || !slices.Equal(h, src) {
				t.Errorf("sortHashes(n=%d, dup=%v) is not sorted, or changed its source", n, dup)
			}
			got := sortEntries(e, make([]entry, n), &counts)
			for i := 1; i < len(got); i++ {
				if a, b := got[i-1], got[i]; a.h > b.h || a.h == b.h && a.i > b.i {
					t.Fatalf("sortEntries(n=%d, dup=%v): %v before %v", n, dup, a, b)
				}
			}
		}
	}
}

// TestBuilderReuse builds sets of shrinking and growing sizes with one
// Builder and compares each with a fresh Build.
func TestBuilderReuse(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var b Builder
	for _, n := range []int{500, 3, 0, 2000, 40, 40} {
		key := randomKey(r)
		items := randomItems(r, n)
		got, err := b.Build(basicParams, key, items)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Build(basicParams, key, items)
		if !slices.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("Builder.Build(n=%d) after other builds differs from Build", n)
		}
	}
	for range 20 {
		block, prev := randomBlock(r)
		got, err := b.BuildBasic(block, prev)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := BuildBasic(block, prev)
		if !slices.Equal(got.Bytes(), want.Bytes()) {
			t.Fatal("Builder.BuildBasic differs from BuildBasic")
		}
	}
	if _, err := b.BuildBasic(randomBlockWithInputs(r), nil); err == nil {
		t.Error("Builder.BuildBasic accepted missing spent scripts")
	}
}

// randomBlockWithInputs returns a block with at least one input after its
// coinbase.
func randomBlockWithInputs(r *rand.Rand) *wire.MsgBlock {
	for {
		block, prev := randomBlock(r)
		if len(prev) > 0 {
			return block
		}
	}
}
