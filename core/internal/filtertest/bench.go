package filtertest

import (
	"encoding/binary"
	"testing"
)

// Impl is one filter under benchmark: its Add and Test behind the same
// indirect call for every implementation, and its size in bits.
type Impl struct {
	Name string
	Add  func([]byte)
	Test func([]byte) bool
	Bits uint64
}

// Case is one benchmark size: N elements at rate P; Key(i) is the i-th
// 32-byte key, members 0 to N−1 and non-members N to 2N−1.
type Case struct {
	Name string
	N    uint64
	P    float64
	Key  func(i uint64) []byte
}

// Cases returns the two sizes the Bloom variants are compared at: 100,000
// SHA-256 keys at 1 %, and 10,000,000 elements at BIP158's 1/784,931, a
// filter of 35 MB or more, larger than this machine's 32 MB L3, so that a
// query's probes miss cache.
func Cases() []Case {
	const small = 100_000
	pool := Keys(2 * small)
	// Ten million SHA-256 keys would take 560 MB and seconds to build: these
	// are written into one buffer per call from the counter (a bijection, so
	// distinct), about 1 ns for every implementation alike.
	var buf [32]byte
	big := func(i uint64) []byte {
		binary.LittleEndian.PutUint64(buf[0:], i*0x9e3779b97f4a7c15)
		binary.LittleEndian.PutUint64(buf[8:], i)
		return buf[:]
	}
	return []Case{
		{"n=100000", small, 0.01, func(i uint64) []byte { return pool[i] }},
		{"n=10000000", 10_000_000, 1.0 / 784_931, big},
	}
}

// Membership runs Add, Test (members: every probe made) and TestAbsent
// (non-members: most stop after a probe or two) for every implementation
// impls returns, side by side, at each case; Add reports bits per element.
// impls must return freshly built filters each call.
func Membership(b *testing.B, cases []Case, impls func(Case) []Impl) {
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			filled := impls(c)
			for _, im := range filled {
				for i := range c.N {
					im.Add(c.Key(i))
				}
			}
			for _, im := range impls(c) {
				b.Run("Add/"+im.Name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						im.Add(c.Key(i % c.N))
					}
					b.ReportMetric(float64(im.Bits)/float64(c.N), "bits/elem")
				})
			}
			var sink bool
			for _, im := range filled {
				b.Run("Test/"+im.Name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						sink = sink != im.Test(c.Key(i%c.N))
					}
				})
			}
			for _, im := range filled {
				b.Run("TestAbsent/"+im.Name, func(b *testing.B) {
					b.ReportAllocs()
					for i := uint64(0); b.Loop(); i++ {
						sink = sink != im.Test(c.Key(c.N+i%c.N))
					}
				})
			}
			_ = sink
		})
	}
}
