package blocked

import (
	"testing"

	bab "github.com/bits-and-blooms/bloom/v3"
	"github.com/cespare/xxhash/v2"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	"github.com/greatroar/blobloom"
)

// implementations returns, freshly built, chainsieve's blocked filter sized
// for (n, p); greatroar/blobloom, the fastest blocked Bloom filter in Go,
// sized by its own optimizer for the same n and p and fed xxhash's Sum64 of
// each key, as its documentation does (it takes a hash, not a key); and two
// classic filters of exactly our memory and k: bits-and-blooms/bloom/v3
// (which hashes with its own 128-bit MurmurHash3 and takes four base hashes
// per element) and core/bloom's Filter, named "classic", to show what
// blocking itself buys.
func implementations(c filtertest.Case) []filtertest.Impl {
	ours, err := New(c.N, c.P)
	if err != nil {
		panic(err)
	}
	theirs := bab.New(uint(ours.M()), uint(ours.K()))
	classic, err := bloom.NewWithShape(ours.M(), ours.K())
	if err != nil {
		panic(err)
	}
	blob := blobloom.NewOptimized(blobloom.Config{Capacity: c.N, FPRate: c.P})
	return []filtertest.Impl{
		{Name: "chainsieve", Add: ours.Add, Test: ours.Test, Bits: ours.M()},
		{Name: "blobloom", Add: func(b []byte) { blob.Add(xxhash.Sum64(b)) }, Test: func(b []byte) bool { return blob.Has(xxhash.Sum64(b)) }, Bits: blob.NumBits()},
		{Name: "bitsandblooms", Add: func(b []byte) { theirs.Add(b) }, Test: theirs.Test, Bits: uint64(theirs.Cap())},
		{Name: "classic", Add: classic.Add, Test: classic.Test, Bits: classic.M()},
	}
}

// BenchmarkFilter runs Add, Test (members) and TestAbsent (non-members) for
// the blocked filter and the classic filters side by side.
func BenchmarkFilter(b *testing.B) {
	filtertest.Membership(b, filtertest.Cases(), implementations)
}
