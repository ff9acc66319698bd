package ethlogs

import (
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// gethBloomFilter is go-ethereum's eth_getLogs bloom prefilter
// (eth/filters.bloomFilter, unexported) restated with its public
// types.BloomLookup: any address, then every non-empty topic position.
func gethBloomFilter(bloom types.Bloom, addresses []common.Address, topics [][]common.Hash) bool {
	if len(addresses) > 0 {
		included := false
		for _, a := range addresses {
			if types.BloomLookup(bloom, a) {
				included = true
				break
			}
		}
		if !included {
			return false
		}
	}
	for _, sub := range topics {
		included := len(sub) == 0
		for _, t := range sub {
			if types.BloomLookup(bloom, t) {
				included = true
				break
			}
		}
		if !included {
			return false
		}
	}
	return true
}

func randomQuery(r *rand.Rand, addrs []common.Address, topics []common.Hash) Query {
	var q Query
	for range r.IntN(3) {
		q.Addresses = append(q.Addresses, addrs[r.IntN(len(addrs))])
	}
	for range r.IntN(MaxTopics + 1) {
		var pos []common.Hash
		for range r.IntN(3) {
			pos = append(pos, topics[r.IntN(len(topics))])
		}
		q.Topics = append(q.Topics, pos)
	}
	return q
}

// TestMatcherMatchesGeth compares the compiled matcher with go-ethereum's
// prefilter on real mainnet blooms and on blooms of random logs.
func TestMatcherMatchesGeth(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	addrs := []common.Address{{1}, {2}, {3}, {4}, common.HexToAddress("0xdac17f958d2ee523a2206206994597c13d831ec7")}
	topics := []common.Hash{{1}, {2}, {3}, randomHash(r), common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")}
	blooms := portalBlooms(t)
	for range 50 {
		var b Bloom
		for range r.IntN(6) {
			b.AddLog(randomLog(r, addrs, topics))
		}
		blooms = append(blooms, b)
	}
	for range 2000 {
		q := randomQuery(r, addrs, topics)
		m := q.Compile()
		for i := range blooms {
			if got, want := m.Test(&blooms[i]), gethBloomFilter(*blooms[i].Geth(), q.Addresses, q.Topics); got != want {
				t.Fatalf("Matcher.Test(bloom %d, query %+v) = %v, go-ethereum's prefilter says %v", i, q, got, want)
			}
		}
	}
}

func TestMatcherNoFalseNegatives(t *testing.T) {
	for _, name := range []string{"mainnet-14764013.json", "mainnet-22869878.json"} {
		b := loadBlock(t, name)
		for i, l := range Logs(b.header, b.receipts) {
			q := Query{Addresses: []common.Address{l.Address}}
			for _, topic := range l.Topics {
				q.Topics = append(q.Topics, []common.Hash{topic})
			}
			if !q.Compile().TestHeader(b.header) {
				t.Fatalf("%s: the query for log %d fails the header bloom", name, i)
			}
		}
	}
}

func TestMatcherOrdersClauses(t *testing.T) {
	q := Query{
		Addresses: []common.Address{{1}, {2}, {3}},
		Topics:    [][]common.Hash{{{1}, {2}}, nil, {{3}}},
	}
	var sizes []int
	for _, c := range q.Compile().Clauses() {
		sizes = append(sizes, len(c))
	}
	if len(sizes) != 3 || sizes[0] != 1 || sizes[1] != 2 || sizes[2] != 3 {
		t.Errorf("Compile().Clauses() sizes = %v, want [1 2 3]", sizes)
	}
	if m := (&Query{Topics: [][]common.Hash{nil, {}}}).Compile(); !m.MatchAll() {
		t.Error("Compile(wildcards only).MatchAll() = false, want true")
	}
}

func TestMatcherExpected(t *testing.T) {
	m := (&Query{Addresses: []common.Address{{1}}, Topics: [][]common.Hash{{{2}}}}).Compile()
	tests := []struct{ fill, want float64 }{{0, 0}, {1, 1}, {0.5, 0.125 * 0.125}}
	for _, tt := range tests {
		if got := m.Expected(tt.fill); got != tt.want {
			t.Errorf("Expected(%v) = %v, want %v", tt.fill, got, tt.want)
		}
	}
}

func TestScan(t *testing.T) {
	blooms := portalBlooms(t)
	m := (&Query{Topics: [][]common.Hash{{{9}}}}).Compile()
	got := m.Scan(nil, 100, blooms)
	var want []uint64
	for i := range blooms {
		if m.Test(&blooms[i]) {
			want = append(want, 100+uint64(i))
		}
	}
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("Scan = %v, want %v (the saturated Merge block at least)", got, want)
	}
}
