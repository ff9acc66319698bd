package gcs

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	btcdgcs "github.com/btcsuite/btcd/btcutil/v2/gcs"
	"github.com/btcsuite/btcd/btcutil/v2/gcs/builder"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	dcrdgcs "github.com/decred/dcrd/gcs/v4"
)

// distinct drops repeats, keeping first occurrences: btcd's BuildGCSFilter
// does not remove them, so differential inputs must not have any.
func distinct(items [][]byte) [][]byte {
	seen := map[string]bool{}
	var out [][]byte
	for _, it := range items {
		if !seen[string(it)] {
			seen[string(it)] = true
			out = append(out, it)
		}
	}
	return out
}

// btcdBuild is the oracle's filter of the same set.
func btcdBuild(t testing.TB, p Params, key Key, items [][]byte) *btcdgcs.Filter {
	t.Helper()
	f, err := btcdgcs.BuildGCSFilter(p.P, p.M, key, items)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func btcdBytes(t testing.TB, f *btcdgcs.Filter) []byte {
	t.Helper()
	b, err := f.NBytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBuildAgainstBtcd(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	params := []Params{basicParams, {P: 1, M: 2}, {P: 8, M: 256}, {P: 20, M: 1 << 20}, {P: 32, M: 1<<32 - 1}}
	for trial := range 100 {
		p := params[trial%len(params)]
		key := randomKey(r)
		items := distinct(randomItems(r, r.IntN(2000)))
		ours, err := Build(p, key, items)
		if err != nil {
			t.Fatal(err)
		}
		theirs := btcdBuild(t, p, key, items)
		if want := btcdBytes(t, theirs); !bytes.Equal(ours.Bytes(), want) {
			t.Fatalf("Build(P=%d, M=%d, N=%d) differs from btcd", p.P, p.M, len(items))
		}
		for _, it := range append(randomItems(r, 100), items[:min(len(items), 100)]...) {
			want, err := theirs.Match(key, it)
			if err != nil {
				t.Fatal(err)
			}
			if got := ours.Match(it); got != want {
				t.Fatalf("Match(%x) = %v, btcd says %v", it, got, want)
			}
		}
	}
}

// TestMatchAnyAgainstBtcd compares MatchAny on random sets and queries.
// Where the answers differ, btcd must be the one wrong: its HashMatchAny
// (queries of at least N/2 items) compares values truncated to 32 bits.
func TestMatchAnyAgainstBtcd(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := range 40 {
		key := randomKey(r)
		items := distinct(randomItems(r, []int{0, 1, 50, 3000, 8000}[trial%5]))
		ours, _ := Build(basicParams, key, items)
		theirs := btcdBuild(t, basicParams, key, items)
		set, f := exactSet(basicParams, key, items)
		q := NewQuery(nil)
		for _, n := range []int{1, 10, 100, 4000, 9000} {
			queries := randomItems(r, n)
			if trial%2 == 0 && len(items) > 0 {
				queries[r.IntN(n)] = items[r.IntN(len(items))]
			}
			want, err := theirs.MatchAny(key, queries)
			if err != nil {
				t.Fatal(err)
			}
			q.Reset(queries)
			got := q.MatchAny(&ours)
			if got == want {
				continue
			}
			exact := false
			for _, it := range queries {
				exact = exact || set[key.HashToRange(it, f)]
			}
			if got != exact || !want || !truncatedCollision(set, key, f, queries) {
				t.Fatalf("MatchAny(N=%d, %d items) = %v, btcd %v, exact %v", len(items), n, got, want, exact)
			}
		}
	}
}

// truncatedCollision reports whether a query's value agrees with a set
// value in the low 32 bits only: btcd's false positive.
func truncatedCollision(set map[uint64]bool, key Key, f uint64, queries [][]byte) bool {
	low := map[uint32]bool{}
	for v := range set {
		low[uint32(v)] = true
	}
	for _, it := range queries {
		if v := key.HashToRange(it, f); !set[v] && low[uint32(v)] {
			return true
		}
	}
	return false
}

// TestBtcdTruncationTrap builds the case the issue names: an N = 10000
// filter (F > 2^32) and 6000 verified non-members, one of which shares the
// low 32 bits of its value with a member's. btcd's MatchAny takes its hash
// path (6000 ≥ N/2) and answers true; the exact answer, and ours, is false.
func TestBtcdTruncationTrap(t *testing.T) {
	key := Key{0x74, 0x72, 0x61, 0x70}
	items := series("member-", 10000)
	set, f := exactSet(basicParams, key, items)
	low := map[uint32]bool{}
	for v := range set {
		low[uint32(v)] = true
	}
	var trap []byte
	for i := 0; trap == nil; i++ {
		it := []byte("trap-" + strconv.Itoa(i))
		if v := key.HashToRange(it, f); !set[v] && low[uint32(v)] {
			trap = it
		}
	}
	queries := append(nonMembers(key, set, f, 5999), trap)
	ours, _ := Build(basicParams, key, items)
	theirs := btcdBuild(t, basicParams, key, items)
	btcdSays, err := theirs.MatchAny(key, queries)
	if err != nil {
		t.Fatal(err)
	}
	if !btcdSays {
		t.Fatalf("btcd MatchAny = false: the trap %q did not trip its 32-bit truncation", trap)
	}
	var s Set
	s.Reset(&ours)
	if NewQuery(queries).MatchAny(&ours) || ours.MatchAny(queries) || s.MatchAny(queries) {
		t.Errorf("MatchAny(6000 non-members with trap %q) = true, want false (exact over 64 bits)", trap)
	}
}

// randomBlock returns a block of random transactions whose scripts include
// empty ones, OP_RETURN ones and repeats, and the scripts its inputs spend.
func randomBlock(r *rand.Rand) (*wire.MsgBlock, [][]byte) {
	script := func() []byte {
		switch r.IntN(6) {
		case 0:
			return nil
		case 1:
			return []byte{opReturn, 4, 1, 2, 3, 4}
		case 2:
			return []byte{0x51}
		}
		return randomItems(r, 1)[0]
	}
	block := wire.NewMsgBlock(wire.NewBlockHeader(1, &chainhash.Hash{byte(r.Uint32())}, &chainhash.Hash{}, r.Uint32(), r.Uint32()))
	var prev [][]byte
	for i := range 1 + r.IntN(8) {
		tx := wire.NewMsgTx(2)
		for range 1 + r.IntN(3) {
			tx.AddTxIn(wire.NewTxIn(wire.NewOutPoint(&chainhash.Hash{byte(r.Uint32())}, r.Uint32()), nil, nil))
			if i > 0 {
				prev = append(prev, script())
			}
		}
		for range r.IntN(4) {
			tx.AddTxOut(wire.NewTxOut(1, script()))
		}
		block.AddTransaction(tx)
	}
	return block, prev
}

func TestBuildBasicAgainstBtcd(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	var prevHeader chainhash.Hash
	for range 200 {
		block, prev := randomBlock(r)
		ours, err := BuildBasic(block, prev)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := builder.BuildBasicFilter(block, prev)
		if err != nil {
			t.Fatal(err)
		}
		// btcd keeps repeated scripts, so compare where the block has none.
		elements, _ := BasicElements(nil, block, prev)
		if len(distinct(elements)) == len(elements) && !bytes.Equal(ours.Bytes(), btcdBytes(t, theirs)) {
			t.Fatalf("BuildBasic = %x, btcd %x", ours.Bytes(), btcdBytes(t, theirs))
		}
		wantHash, _ := builder.GetFilterHash(theirs)
		wantHeader, _ := builder.MakeHeaderForFilter(theirs, prevHeader)
		if got := FilterHash(btcdBytes(t, theirs)); got != wantHash {
			t.Fatalf("FilterHash = %s, btcd %s", got, wantHash)
		}
		if got := FilterHeader(wantHash, prevHeader); got != wantHeader {
			t.Fatalf("FilterHeader = %s, btcd %s", got, wantHeader)
		}
		if got := BasicKey(block.BlockHash()); got != builder.DeriveKey(ptr(block.BlockHash())) {
			t.Fatalf("BasicKey = %x, btcd DeriveKey %x", got, builder.DeriveKey(ptr(block.BlockHash())))
		}
		prevHeader = wantHeader
	}
}

func ptr[T any](v T) *T { return &v }

// dcrdFromBytes parses a BIP158 encoding with decred's gcs/v4 as a version 2
// filter of B = P = 19 and M = 784931, as a dcrd client parses the filters
// it receives.
func dcrdFromBytes(t testing.TB, enc []byte) *dcrdgcs.FilterV2 {
	t.Helper()
	f, err := dcrdgcs.FromBytesV2(BasicP, BasicM, enc)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDcrdBytes checks that decred's version 2 filters, with BIP158's
// parameters, encode sets of distinct items to our bytes and answer Match
// and MatchAny as we do: what makes dcrd a reference doing the same work in
// the benchmarks. (dcrd also drops empty items and merges colliding hashes,
// which BIP158 keeps; random items of 1 to 40 bytes hit neither.)
func TestDcrdBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for range 50 {
		key := randomKey(r)
		items := distinct(randomItems(r, r.IntN(3000)))
		ours, err := Build(basicParams, key, items)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := dcrdgcs.NewFilterV2(BasicP, BasicM, key, items)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) > 0 && !bytes.Equal(ours.Bytes(), theirs.Bytes()) {
			t.Fatalf("N = %d: dcrd encodes %x, we %x", len(items), theirs.Bytes(), ours.Bytes())
		}
		parsed := dcrdFromBytes(t, ours.Bytes())
		probes := append(randomItems(r, 20), items[:min(len(items), 20)]...)
		for _, p := range probes {
			if got, want := parsed.Match(key, p), ours.Match(p); got != want {
				t.Fatalf("dcrd Match(%x) = %v, ours %v", p, got, want)
			}
		}
		if got, want := parsed.MatchAny(key, probes), ours.MatchAny(probes); got != want {
			t.Fatalf("dcrd MatchAny = %v, ours %v", got, want)
		}
	}
}
