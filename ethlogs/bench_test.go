package ethlogs

import (
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

// BenchmarkTestHeader tests one header bloom against a query: the compiled
// matcher against go-ethereum's prefilter, which calls types.BloomLookup
// (Keccak-256) for every value.
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
