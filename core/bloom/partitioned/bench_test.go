package partitioned

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	bab "github.com/bits-and-blooms/bloom/v3"
	boom "github.com/tylertreat/BoomFilters"
)

// member is the filter interface the benchmarks drive: the same indirect call
// for every implementation.
type member struct {
	add  func([]byte)
	test func([]byte) bool
	bits uint64
}

// benchCase is one size: n elements at rate p, key(i) the i-th 32-byte key
// (members are 0..n-1, non-members n..2n-1).
type benchCase struct {
	name string
	n    uint64
	p    float64
	key  func(i uint64) []byte
}

func benchCases() []benchCase {
	const small = 100_000
	pool := make([][]byte, 2*small)
	for i := range pool {
		h := sha256.Sum256(binary.LittleEndian.AppendUint64(nil, uint64(i)))
		pool[i] = h[:]
	}
	// Ten million sha256 keys would take 560 MB and seconds to build: these
	// are written into one buffer per call from the counter (a bijection, so
	// distinct), about 1 ns for every implementation alike.
	var buf [32]byte
	big := func(i uint64) []byte {
		binary.LittleEndian.PutUint64(buf[0:], i*0x9e3779b97f4a7c15)
		binary.LittleEndian.PutUint64(buf[8:], i)
		return buf[:]
	}
	return []benchCase{
		{"n=100000", small, 0.01, func(i uint64) []byte { return pool[i] }},
		// 10 million elements at BIP158's rate: 2.8·10^7 bits, 35 MB, more
		// than this machine's 32 MB L3, so most probes of a query miss cache.
		{"n=10000000", 10_000_000, 1.0 / 784_931, big},
	}
}

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
func implementations(c benchCase) []struct {
	name string
	f    member
} {
	ours, err := New(c.n, c.p)
	if err != nil {
		panic(err)
	}
	classic := bab.New(uint(ours.M()), uint(ours.K()))
	boomF := boom.NewPartitionedBloomFilter(uint(c.n), c.p)
	return []struct {
		name string
		f    member
	}{
		{"chainsieve", member{ours.Add, ours.Test, ours.M()}},
		{"bitsandblooms", member{func(b []byte) { classic.Add(b) }, classic.Test, uint64(classic.Cap())}},
		{"boomfilters", member{func(b []byte) { boomF.Add(b) }, boomF.Test, uint64(boomF.Capacity())}},
	}
}

// BenchmarkFilter runs Add, Test (members: every probe made) and TestAbsent
// (non-members: most stop after a probe or two) for chainsieve, bits-and-
// blooms and BoomFilters side by side.
func BenchmarkFilter(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			filled := implementations(c)
			for _, im := range filled {
				for i := range c.n {
					im.f.add(c.key(i))
				}
			}
			for _, im := range implementations(c) {
				b.Run("Add/"+im.name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						im.f.add(c.key(i % c.n))
					}
					b.ReportMetric(float64(im.f.bits)/float64(c.n), "bits/elem")
				})
			}
			var sink bool
			for _, im := range filled {
				b.Run("Test/"+im.name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						sink = sink != im.f.test(c.key(i%c.n))
					}
				})
			}
			for _, im := range filled {
				b.Run("TestAbsent/"+im.name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						sink = sink != im.f.test(c.key(c.n+i%c.n))
					}
				})
			}
			_ = sink
		})
	}
}
