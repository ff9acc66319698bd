package gcs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	btcdgcs "github.com/btcsuite/btcd/btcutil/v2/gcs"
	dcrdgcs "github.com/decred/dcrd/gcs/v4"
)

// Benchmarks run chainsieve and its references side by side on the same
// data, as sub-benchmarks named chainsieve, btcd (btcutil/v2/gcs, what
// neutrino and lnd use), dcrd (decred's gcs/v4 version 2 filters with
// B = 19 and M = 784931, which encode a set of distinct items to BIP158's
// bytes, see TestDcrdBytes) and bound (the hand-written decoder of
// bound_test.go, the lower bound of decoding). Items are 25-byte random
// scripts; queries are verified non-members, so no early exit on a false
// positive distorts a timing.

// benchFilter is an N-item filter built by every implementation.
type benchFilter struct {
	key    Key
	items  [][]byte
	ours   Filter
	theirs *btcdgcs.Filter
	dcrd   *dcrdgcs.FilterV2
	set    map[uint64]bool
	f      uint64
}

func newBenchFilter(b testing.TB, n int) *benchFilter {
	r := rand.New(rand.NewPCG(uint64(n), 77))
	bf := &benchFilter{key: randomKey(r), items: scripts(r, n)}
	bf.ours, _ = Build(basicParams, bf.key, bf.items)
	bf.theirs = btcdBuild(b, basicParams, bf.key, bf.items)
	bf.dcrd = dcrdFromBytes(b, bf.ours.Bytes())
	bf.set, bf.f = exactSet(basicParams, bf.key, bf.items)
	return bf
}

// scripts returns n distinct random 25-byte items (P2PKH-sized).
func scripts(r *rand.Rand, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		s := make([]byte, 25)
		for j := range s {
			s[j] = byte(r.Uint32())
		}
		out[i] = s
	}
	return out
}

func perItem(b *testing.B, n int, unit string) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), unit)
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		r := rand.New(rand.NewPCG(uint64(n), 5))
		key, items := randomKey(r), scripts(r, n)
		b.Run(fmt.Sprintf("n=%d/chainsieve", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(basicParams, key, items); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n, "ns/item")
		})
		b.Run(fmt.Sprintf("n=%d/btcd", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := btcdgcs.BuildGCSFilter(BasicP, BasicM, key, items); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n, "ns/item")
		})
		b.Run(fmt.Sprintf("n=%d/dcrd", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dcrdgcs.NewFilterV2(BasicP, BasicM, key, items); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n, "ns/item")
		})
	}
}

// BenchmarkBuilder is Build with a reused Builder, as an indexer building a
// filter per block would; compare it with BenchmarkBuild's btcd figures.
func BenchmarkBuilder(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		r := rand.New(rand.NewPCG(uint64(n), 5))
		key, items := randomKey(r), scripts(r, n)
		b.Run(fmt.Sprintf("n=%d/chainsieve", n), func(b *testing.B) {
			var bl Builder
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bl.Build(basicParams, key, items); err != nil {
					b.Fatal(err)
				}
			}
			perItem(b, n, "ns/item")
		})
	}
}

// BenchmarkMatch tests one non-member at a time against N = 10,000, cycling
// through 64 of them: on average half the filter is decoded.
func BenchmarkMatch(b *testing.B) {
	bf := newBenchFilter(b, 10_000)
	probes := nonMembers(bf.key, bf.set, bf.f, 64)
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if bf.ours.Match(probes[i%64]) {
				b.Fatal("non-member matched")
			}
			i++
		}
	})
	b.Run("btcd", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if ok, _ := bf.theirs.Match(bf.key, probes[i%64]); ok {
				b.Fatal("non-member matched")
			}
			i++
		}
	})
	b.Run("dcrd", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if bf.dcrd.Match(bf.key, probes[i%64]) {
				b.Fatal("non-member matched")
			}
			i++
		}
	})
	b.Run("bound", func(b *testing.B) {
		bound := newBound(&bf.ours)
		targets := make([]uint64, len(probes))
		for i, p := range probes {
			targets[i] = bf.key.HashToRange(p, bf.f)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			// The bound hashes too, so that only decoding differs.
			if bound.match(bf.key.HashToRange(probes[i%64], bf.f)) {
				b.Fatal("non-member matched")
			}
			i++
		}
	})
}

// BenchmarkDecode matches an item whose value lies past the last one, so
// every code is decoded: the figure to read is ns/elem.
func BenchmarkDecode(b *testing.B) {
	const n = 10_000
	bf := newBenchFilter(b, n)
	values, _ := bf.ours.Values(nil)
	var beyond []byte
	for _, it := range nonMembers(bf.key, bf.set, bf.f, 100_000) {
		if bf.key.HashToRange(it, bf.f) > values[n-1] {
			beyond = it
			break
		}
	}
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if bf.ours.Match(beyond) {
				b.Fatal("matched")
			}
		}
		perItem(b, n, "ns/elem")
	})
	b.Run("btcd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ok, _ := bf.theirs.Match(bf.key, beyond); ok {
				b.Fatal("matched")
			}
		}
		perItem(b, n, "ns/elem")
	})
	b.Run("dcrd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if bf.dcrd.Match(bf.key, beyond) {
				b.Fatal("matched")
			}
		}
		perItem(b, n, "ns/elem")
	})
	b.Run("bound", func(b *testing.B) {
		bound := newBound(&bf.ours)
		b.ReportAllocs()
		for b.Loop() {
			if bound.match(bf.key.HashToRange(beyond, bf.f)) {
				b.Fatal("matched")
			}
		}
		perItem(b, n, "ns/elem")
	})
}

// BenchmarkMatchAny queries N = 10,000 with q verified non-members: a
// reused Query against btcd's MatchAny (which picks its own strategy).
func BenchmarkMatchAny(b *testing.B) {
	bf := newBenchFilter(b, 10_000)
	for _, q := range []int{10, 1000, 10_000} {
		queries := nonMembers(bf.key, bf.set, bf.f, q)
		b.Run(fmt.Sprintf("q=%d/chainsieve", q), func(b *testing.B) {
			query := NewQuery(queries)
			b.ReportAllocs()
			for b.Loop() {
				if query.MatchAny(&bf.ours) {
					b.Fatal("non-members matched")
				}
			}
			perItem(b, bf.ours.Len(), "ns/elem")
		})
		b.Run(fmt.Sprintf("q=%d/btcd", q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ok, _ := bf.theirs.MatchAny(bf.key, queries); ok {
					b.Fatal("non-members matched")
				}
			}
			perItem(b, bf.ours.Len(), "ns/elem")
		})
		b.Run(fmt.Sprintf("q=%d/dcrd", q), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if bf.dcrd.MatchAny(bf.key, queries) {
					b.Fatal("non-members matched")
				}
			}
			perItem(b, bf.ours.Len(), "ns/elem")
		})
	}
}

// BenchmarkMatchAnyStrategy times the two ways to answer MatchAny once per
// filter over a grid of q and N: the merge walk Query uses, and decoding the
// filter into a Set to probe. docs/gcs.md records why Query always merges.
func BenchmarkMatchAnyStrategy(b *testing.B) {
	for _, n := range []int{100, 1000, 10_000} {
		bf := newBenchFilter(b, n)
		for _, ratio := range []int{1, 4, 8, 16, 64} {
			q := NewQuery(nonMembers(bf.key, bf.set, bf.f, n*ratio))
			b.Run(fmt.Sprintf("n=%d/q=%dn/merge", n, ratio), func(b *testing.B) {
				for b.Loop() {
					bf.ours.matchSorted(q.sortedValues(&bf.ours))
				}
			})
			b.Run(fmt.Sprintf("n=%d/q=%dn/set", n, ratio), func(b *testing.B) {
				var s Set
				for b.Loop() {
					s.Reset(&bf.ours)
					s.MatchAny(q.items)
				}
			})
		}
	}
}

// BenchmarkScan is a light client's loop: 200 filters of N = 2,000, each
// with its own key, against one wallet of 100 scripts; ns/filter.
func BenchmarkScan(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 1))
	wallet := scripts(r, 100)
	type pair struct {
		ours   Filter
		theirs *btcdgcs.Filter
		dcrd   *dcrdgcs.FilterV2
		key    Key
	}
	filters := make([]pair, 200)
	for i := range filters {
		key, items := randomKey(r), scripts(r, 2000)
		ours, _ := Build(basicParams, key, items)
		filters[i] = pair{ours, btcdBuild(b, basicParams, key, items), dcrdFromBytes(b, ours.Bytes()), key}
	}
	b.Run("chainsieve", func(b *testing.B) {
		q := NewQuery(wallet)
		b.ReportAllocs()
		for b.Loop() {
			for i := range filters {
				q.MatchAny(&filters[i].ours)
			}
		}
		perItem(b, len(filters), "ns/filter")
	})
	b.Run("btcd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range filters {
				f.theirs.MatchAny(f.key, wallet)
			}
		}
		perItem(b, len(filters), "ns/filter")
	})
	b.Run("dcrd", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range filters {
				f.dcrd.MatchAny(f.key, wallet)
			}
		}
		perItem(b, len(filters), "ns/filter")
	})
}
