package ethlogs

import (
	"slices"

	"github.com/ethereum/go-ethereum/core/types"
)

// Matcher is a [Query] compiled for header blooms: every address and topic
// hashed once into a [Value], grouped in clauses (the address list, then each
// non-wildcard topic position). A bloom passes when every clause has at
// least one value whose three bits are set. That is go-ethereum's bloom
// prefilter for eth_getLogs, without its Keccak per header and value.
//
// Passing is necessary, not sufficient: the bloom has no positions and, on
// mainnet since 2021, a third of its bits or more set, so candidates must be
// confirmed on receipts with [Query.Match]. A Matcher is immutable and safe
// for concurrent use.
type Matcher struct {
	values []Value // clause after clause
	ends   []int   // ends[i] is the end of clause i in values
}

// Compile hashes q's values and orders the clauses most selective first:
// fewer alternatives make a clause less likely to pass by chance, so testing
// it first rejects most headers after one clause.
func (q *Query) Compile() *Matcher {
	var clauses [][]Value
	if len(q.Addresses) > 0 {
		clauses = append(clauses, valuesOf(len(q.Addresses), func(i int) []byte { return q.Addresses[i][:] }))
	}
	for _, pos := range q.Topics {
		if len(pos) > 0 {
			clauses = append(clauses, valuesOf(len(pos), func(i int) []byte { return pos[i][:] }))
		}
	}
	slices.SortStableFunc(clauses, func(a, b []Value) int { return len(a) - len(b) })
	m := &Matcher{}
	for _, c := range clauses {
		m.values = append(m.values, c...)
		m.ends = append(m.ends, len(m.values))
	}
	return m
}

// valuesOf hashes n values, dropping duplicates.
func valuesOf(n int, data func(int) []byte) []Value {
	vs := make([]Value, 0, n)
	for i := range n {
		if v := ValueOf(data(i)); !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	return vs
}

// MatchAll reports whether the query has no address and no topic rule, so
// that every bloom passes (go-ethereum answers such a query by reading every
// block).
func (m *Matcher) MatchAll() bool { return len(m.ends) == 0 }

// Test reports whether bloom b passes every clause. It does not allocate.
func (m *Matcher) Test(b *Bloom) bool {
	start := 0
	for _, end := range m.ends {
		if !anyValue(b, m.values[start:end]) {
			return false
		}
		start = end
	}
	return true
}

// TestHeader tests the header's logsBloom.
func (m *Matcher) TestHeader(h *types.Header) bool { return m.Test(FromGeth(&h.Bloom)) }

func anyValue(b *Bloom, vs []Value) bool {
	for _, v := range vs {
		if b.TestValue(v) {
			return true
		}
	}
	return false
}

// Scan is the linear compiled scan: it appends to dst the number of every
// block whose bloom passes, blooms[i] being block first+i.
func (m *Matcher) Scan(dst []uint64, first uint64, blooms []Bloom) []uint64 {
	for i := range blooms {
		if m.Test(&blooms[i]) {
			dst = append(dst, first+uint64(i))
		}
	}
	return dst
}

// Clauses returns a copy of the compiled clauses, most selective first; an
// index evaluates them on its own layout.
func (m *Matcher) Clauses() [][]Value {
	out := make([][]Value, len(m.ends))
	start := 0
	for i, end := range m.ends {
		out[i] = slices.Clone(m.values[start:end])
		start = end
	}
	return out
}

// Expected returns the probability that a bloom with the given fill (0 to 1)
// passes by chance, none of the query's values having been added: the
// product over clauses of 1-(1-fill³)^n. Multiplied by a range's length it
// predicts how many receipts a scan will fetch for nothing.
func (m *Matcher) Expected(fill float64) float64 {
	p, start := 1.0, 0
	one := fill * fill * fill
	for _, end := range m.ends {
		miss := 1.0
		for range end - start {
			miss *= 1 - one
		}
		p *= 1 - miss
		start = end
	}
	return p
}
