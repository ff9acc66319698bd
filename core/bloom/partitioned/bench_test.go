package partitioned

import (
	"testing"

	bab "github.com/bits-and-blooms/bloom/v3"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
	boom "github.com/tylertreat/BoomFilters"
)

// implementations returns, freshly built, chainsieve's filter and the others
// at the closest parameters each allows. bits-and-blooms' classic filter
// takes our m and k exactly. BoomFilters' PartitionedBloomFilter only takes
// (n, p): it picks k = ⌈log2(1/p)⌉ (7 at 1 %, 20 at 1/784,931, as ours does
// here), m = ⌈n·ln(1/p)/ln²2⌉ (the classic optimum, 958,506 bits at 1 %
// against our 959,301, so its rate is a little above p) in k slices of
// ⌈m/k⌉ bits; it hashes with FNV-64 (split into two 32-bit halves for double
// hashing), maps with %, keeps one byte slice per partition read bit by bit,
// and shares one hash.Hash64 across calls, so even its Test is unsafe for
// concurrent use.
func implementations(c filtertest.Case) []filtertest.Impl {
	ours, err := New(c.N, c.P)
	if err != nil {
		panic(err)
	}
	classic := bab.New(uint(ours.M()), uint(ours.K()))
	boomF := boom.NewPartitionedBloomFilter(uint(c.N), c.P)
	return []filtertest.Impl{
		{Name: "chainsieve", Add: ours.Add, Test: ours.Test, Bits: ours.M()},
		{Name: "bitsandblooms", Add: func(b []byte) { classic.Add(b) }, Test: classic.Test, Bits: uint64(classic.Cap())},
		{Name: "boomfilters", Add: func(b []byte) { boomF.Add(b) }, Test: boomF.Test, Bits: uint64(boomF.Capacity())},
	}
}

// BenchmarkFilter runs Add, Test (members: every probe made) and TestAbsent
// (non-members: most stop after a probe or two) for chainsieve, bits-and-
// blooms and BoomFilters side by side.
func BenchmarkFilter(b *testing.B) {
	filtertest.Membership(b, filtertest.Cases(), implementations)
}
