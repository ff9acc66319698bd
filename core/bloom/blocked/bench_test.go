package blocked

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	bab "github.com/bits-and-blooms/bloom/v3"
	"github.com/chainsieve/chainsieve/core/bloom"
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
		// 10 million elements at BIP158's rate: 3.7·10^8 bits, 47 MB, more
		// than this machine's 32 MB L3, so the classic filter's k probes
		// miss cache where the blocked filter's one line does.
		{"n=10000000", 10_000_000, 1.0 / 784_931, big},
	}
}

// implementations returns, freshly built, chainsieve's blocked filter sized
// for (n, p) and two classic filters of exactly its memory and k:
// bits-and-blooms/bloom/v3 (which hashes with its own 128-bit MurmurHash3 and
// takes four base hashes per element) and core/bloom's Filter, named
// "classic", to show what blocking itself buys.
func implementations(c benchCase) []struct {
	name string
	f    member
} {
	ours, err := New(c.n, c.p)
	if err != nil {
		panic(err)
	}
	theirs := bab.New(uint(ours.M()), uint(ours.K()))
	classic, err := bloom.NewWithShape(ours.M(), ours.K())
	if err != nil {
		panic(err)
	}
	return []struct {
		name string
		f    member
	}{
		{"chainsieve", member{ours.Add, ours.Test, ours.M()}},
		{"bitsandblooms", member{func(b []byte) { theirs.Add(b) }, theirs.Test, uint64(theirs.Cap())}},
		{"classic", member{classic.Add, classic.Test, classic.M()}},
	}
}

// BenchmarkFilter runs Add, Test (members) and TestAbsent (non-members) for
// the blocked filter and the classic filters side by side.
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
