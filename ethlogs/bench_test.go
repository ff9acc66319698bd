package ethlogs

import (
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// benchQueries builds one-, two- and six-value queries from logs of mainnet
// block 22869878 (67% of its bloom set), so every value tests positive and
// both matchers do their whole work; in the six-value query the present
// value of each OR-list comes second.
func benchQueries(b *testing.B) (*types.Header, map[string]Query) {
	blk := loadBlock(b, "mainnet-22869878.json")
	var l *types.Log
	for _, x := range Logs(blk.header, blk.receipts) {
		if len(x.Topics) >= 3 {
			l = x
			break
		}
	}
	absentA, absentT := common.Address{0xee}, common.Hash{0xee}
	return blk.header, map[string]Query{
		"values=1": {Topics: [][]common.Hash{{l.Topics[0]}}},
		"values=2": {Addresses: []common.Address{l.Address}, Topics: [][]common.Hash{{l.Topics[0]}}},
		"values=6": {
			Addresses: []common.Address{absentA, l.Address},
			Topics:    [][]common.Hash{{absentT, l.Topics[0]}, {l.Topics[1]}, {l.Topics[2]}},
		},
	}
}

// gethHashed is go-ethereum's bloom prefilter as its best users write it:
// go-ethereum's own types.Bloom hashes each query value once (Add into an
// empty bloom), and a header then passes when, for the address list and
// each non-empty topic position, some value's bytes are all set in the
// header's types.Bloom. The reference for the compiled Matcher.
type gethHashed struct {
	clauses [][]gethValue
}

// gethValue is a value's set bytes in a types.Bloom: one to three.
type gethValue []struct {
	i    int
	mask byte
}

func newGethHashed(addresses []common.Address, topics [][]common.Hash) *gethHashed {
	value := func(data []byte) gethValue {
		var one types.Bloom
		one.Add(data)
		var v gethValue
		for i, m := range one {
			if m != 0 {
				v = append(v, struct {
					i    int
					mask byte
				}{i, m})
			}
		}
		return v
	}
	g := &gethHashed{}
	if len(addresses) > 0 {
		var c []gethValue
		for _, a := range addresses {
			c = append(c, value(a[:]))
		}
		g.clauses = append(g.clauses, c)
	}
	for _, pos := range topics {
		if len(pos) == 0 {
			continue
		}
		var c []gethValue
		for _, t := range pos {
			c = append(c, value(t[:]))
		}
		g.clauses = append(g.clauses, c)
	}
	return g
}

func (g *gethHashed) test(bloom *types.Bloom) bool {
	for _, c := range g.clauses {
		pass := false
		for _, v := range c {
			all := true
			for _, p := range v {
				all = all && bloom[p.i]&p.mask == p.mask
			}
			if all {
				pass = true
				break
			}
		}
		if !pass {
			return false
		}
	}
	return true
}

// TestGethHashedIsGeth: the hash-once reference answers as go-ethereum's
// own prefilter on mainnet and random blooms.
func TestGethHashedIsGeth(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	addrs := []common.Address{{1}, {2}, {3}, common.HexToAddress("0xdac17f958d2ee523a2206206994597c13d831ec7")}
	topics := []common.Hash{{1}, {2}, randomHash(r), common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")}
	blooms := portalBlooms(t)
	for range 50 {
		var b Bloom
		for range r.IntN(6) {
			b.AddLog(randomLog(r, addrs, topics))
		}
		blooms = append(blooms, b)
	}
	for range 500 {
		q := randomQuery(r, addrs, topics)
		g := newGethHashed(q.Addresses, q.Topics)
		for i := range blooms {
			if got, want := g.test(blooms[i].Geth()), gethBloomFilter(*blooms[i].Geth(), q.Addresses, q.Topics); got != want {
				t.Fatalf("gethHashed(bloom %d, query %+v) = %v, go-ethereum's prefilter says %v", i, q, got, want)
			}
		}
	}
}

// BenchmarkTestHeader tests one header bloom against a query: the compiled
// matcher; go-ethereum's eth_getLogs prefilter (types.BloomLookup, a
// Keccak-256 for every value and header, as the node runs it on blocks it
// has not indexed); and geth-hashed, go-ethereum's types.Bloom with each
// value hashed once per query, the strongest way to use go-ethereum here.
func BenchmarkTestHeader(b *testing.B) {
	h, queries := benchQueries(b)
	for _, name := range []string{"values=1", "values=2", "values=6"} {
		q := queries[name]
		b.Run(name+"/chainsieve", func(b *testing.B) {
			m := q.Compile()
			b.ReportAllocs()
			for b.Loop() {
				if !m.TestHeader(h) {
					b.Fatal("the header must pass")
				}
			}
		})
		b.Run(name+"/geth", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !gethBloomFilter(h.Bloom, q.Addresses, q.Topics) {
					b.Fatal("the header must pass")
				}
			}
		})
		b.Run(name+"/geth-hashed", func(b *testing.B) {
			g := newGethHashed(q.Addresses, q.Topics)
			b.ReportAllocs()
			for b.Loop() {
				if !g.test(&h.Bloom) {
					b.Fatal("the header must pass")
				}
			}
		})
	}
}

// BenchmarkAdd adds one 32-byte topic to a bloom.
func BenchmarkAdd(b *testing.B) {
	topic := common.Hash{1, 2, 3}
	b.Run("chainsieve", func(b *testing.B) {
		var bl Bloom
		b.ReportAllocs()
		for b.Loop() {
			bl.Add(topic[:])
		}
	})
	b.Run("geth", func(b *testing.B) {
		var bl types.Bloom
		b.ReportAllocs()
		for b.Loop() {
			bl.Add(topic[:])
		}
	})
}

// BenchmarkBlockBloom rebuilds the header bloom of mainnet block 22869878
// (301 receipts, 714 logs) from its receipts.
func BenchmarkBlockBloom(b *testing.B) {
	blk := loadBlock(b, "mainnet-22869878.json")
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			BlockBloom(blk.receipts)
		}
	})
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var all types.Bloom
			for _, r := range blk.receipts {
				rb := types.CreateBloom(r)
				for i := range all {
					all[i] |= rb[i]
				}
			}
		}
	})
}
