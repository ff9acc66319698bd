package family

import (
	"errors"
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/bloom/blocked"
	"github.com/chainsieve/chainsieve/core/bloom/counting"
	"github.com/chainsieve/chainsieve/core/bloom/partitioned"
	"github.com/chainsieve/chainsieve/core/bloom/scalable"
	"github.com/chainsieve/chainsieve/core/cuckoo"
	"github.com/chainsieve/chainsieve/gcs"
)

// Structure is one member of the family: how to build it for n elements at
// rate ε.
type Structure struct {
	Name    string // short name used on the command line and in tables
	Package string // the chainsieve package that implements it
	// Sizing says how the structure is sized for n and ε, for the table.
	Sizing string
	make   func(n uint64, eps float64) (filter, error)
}

// filter is what Measure needs of a structure.
type filter interface {
	// build inserts every element (one by one where the structure allows).
	build(elements [][]byte) error
	test(data []byte) bool
	bits() uint64
	// estimatedFPR is the rate the structure's own state predicts.
	estimatedFPR() float64
	// params describes the built shape, e.g. "k=7".
	params() string
}

// batchTester is implemented by structures that answer many queries at
// once far faster than one by one (a Golomb-coded set decodes once).
type batchTester interface {
	countPositives(items [][]byte) int
}

// Structures returns the family in table order.
func Structures() []Structure {
	return []Structure{
		{"classic", "core/bloom", "m = n·log2(1/ε)/ln²2, k = m/n·ln 2 rounded", newClassic},
		{"partitioned", "core/bloom/partitioned", "k slices of m/k bits, one hash per slice", newPartitioned},
		{"blocked", "core/bloom/blocked", "one 512-bit block per element, sized on the blocked rate", newBlocked},
		{"counting", "core/bloom/counting", "classic m and k, 4-bit counters", newCounting},
		{"scalable", "core/bloom/scalable", "first stage n/32, growth s = 2, tightening r = 0.85", newScalable},
		{"cuckoo", "core/cuckoo", "buckets of 4, f = ⌈log2(8/ε)⌉", newCuckoo},
		{"gcs", "gcs", "Golomb-Rice coded set, M = 1/ε, best Rice parameter", newGCS},
	}
}

// Lookup returns the structure called name.
func Lookup(name string) (Structure, error) {
	for _, s := range Structures() {
		if s.Name == name {
			return s, nil
		}
	}
	return Structure{}, fmt.Errorf("family: no structure %q", name)
}

type classic struct{ *bloom.Filter }

func newClassic(n uint64, eps float64) (filter, error) {
	f, err := bloom.New(n, eps)
	return classic{f}, err
}

func (c classic) build(els [][]byte) error { return addAll(c.Add, els) }
func (c classic) test(d []byte) bool       { return c.Test(d) }
func (c classic) bits() uint64             { return c.M() }
func (c classic) estimatedFPR() float64    { return c.Stats().FalsePositiveRate }
func (c classic) params() string           { return fmt.Sprintf("k=%d", c.K()) }

type partitionedF struct{ *partitioned.Filter }

func newPartitioned(n uint64, eps float64) (filter, error) {
	f, err := partitioned.New(n, eps)
	return partitionedF{f}, err
}

func (c partitionedF) build(els [][]byte) error { return addAll(c.Add, els) }
func (c partitionedF) test(d []byte) bool       { return c.Test(d) }
func (c partitionedF) bits() uint64             { return c.Stats().Bits }
func (c partitionedF) estimatedFPR() float64    { return c.Stats().FalsePositiveRate }
func (c partitionedF) params() string           { return fmt.Sprintf("k=%d", c.K()) }

type blockedF struct{ *blocked.Filter }

func newBlocked(n uint64, eps float64) (filter, error) {
	f, err := blocked.New(n, eps)
	return blockedF{f}, err
}

func (c blockedF) build(els [][]byte) error { return addAll(c.Add, els) }
func (c blockedF) test(d []byte) bool       { return c.Test(d) }
func (c blockedF) bits() uint64             { return c.Stats().Bits }
func (c blockedF) estimatedFPR() float64    { return c.Stats().FalsePositiveRate }
func (c blockedF) params() string           { return fmt.Sprintf("k=%d", c.K()) }

type countingF struct{ *counting.Filter }

func newCounting(n uint64, eps float64) (filter, error) {
	f, err := counting.New(n, eps)
	return countingF{f}, err
}

func (c countingF) build(els [][]byte) error { return addAll(c.Add, els) }
func (c countingF) test(d []byte) bool       { return c.Test(d) }
func (c countingF) bits() uint64             { return c.Stats().Bits }
func (c countingF) estimatedFPR() float64    { return c.Stats().FalsePositiveRate }
func (c countingF) params() string           { return fmt.Sprintf("k=%d, 4-bit counters", c.K()) }

type scalableF struct{ *scalable.Filter }

func newScalable(n uint64, eps float64) (filter, error) {
	f, err := scalable.New(scalable.Params{Capacity: max(n/32, 1), FalsePositiveRate: eps, Tightening: 0.85, Growth: 2})
	return scalableF{f}, err
}

func (c scalableF) build(els [][]byte) error {
	for _, e := range els {
		c.Add(e)
	}
	return nil
}
func (c scalableF) test(d []byte) bool    { return c.Test(d) }
func (c scalableF) bits() uint64          { return c.Stats().Bits }
func (c scalableF) estimatedFPR() float64 { return c.Stats().FalsePositiveRate }
func (c scalableF) params() string        { return fmt.Sprintf("%d stages", c.Stages()) }

type cuckooF struct{ *cuckoo.Filter }

func newCuckoo(n uint64, eps float64) (filter, error) {
	f, err := cuckoo.New(n, eps)
	return cuckooF{f}, err
}

func (c cuckooF) build(els [][]byte) error {
	for i, e := range els {
		if err := c.Insert(e); err != nil {
			return fmt.Errorf("element %d of %d: %w", i, len(els), err)
		}
	}
	return nil
}
func (c cuckooF) test(d []byte) bool    { return c.Lookup(d) }
func (c cuckooF) bits() uint64          { return c.Stats().Bits }
func (c cuckooF) estimatedFPR() float64 { return c.Stats().FalsePositiveRate }
func (c cuckooF) params() string {
	st := c.Stats()
	return fmt.Sprintf("f=%d, load %.3f", st.FingerprintBits, st.LoadFactor)
}

// gcsF is a Golomb-coded set: built at once from all elements, so it has no
// per-element insert, and queried in batches.
type gcsF struct {
	p   gcs.Params
	key gcs.Key
	f   gcs.Filter
	n   int
}

func newGCS(n uint64, eps float64) (filter, error) {
	m := uint64(math.Round(1 / eps))
	return &gcsF{p: gcs.Params{P: RiceParameter(float64(m)), M: m}}, nil
}

func (g *gcsF) build(els [][]byte) error {
	f, err := gcs.Build(g.p, g.key, els)
	g.f, g.n = f, len(els)
	return err
}
func (g *gcsF) test(d []byte) bool    { return g.f.Match(d) }
func (g *gcsF) bits() uint64          { return 8 * uint64(len(g.f.Bytes())) }
func (g *gcsF) estimatedFPR() float64 { return 1 / float64(g.p.M) }
func (g *gcsF) params() string        { return fmt.Sprintf("P=%d, M=%d", g.p.P, g.p.M) }

func (g *gcsF) countPositives(items [][]byte) int {
	return len(gcs.NewQuery(items).Matches(nil, &g.f))
}

// RiceParameter returns the Golomb-Rice parameter P that minimises the
// expected code length for geometric deltas of mean m.
func RiceParameter(m float64) uint8 {
	best := uint8(1)
	for p := uint8(2); p <= 32; p++ {
		if RiceBits(p, m) < RiceBits(best, m) {
			best = p
		}
	}
	return best
}

// RiceBits is the expected Golomb-Rice code length, in bits, of the delta
// between consecutive values of a set hashed into [0, N·M): P remainder
// bits, one stop bit, and ⌊d/2^P⌋ unary ones, whose mean is
// M·(e^(1/M) − 1)·r/(1 − r) with r = e^(−2^P/M) (the gaps of a Poisson
// process of rate 1/M; docs/privacy.md derives it). It excludes the
// filter's CompactSize prefix and padding.
func RiceBits(p uint8, m float64) float64 {
	r := math.Exp(-math.Ldexp(1, int(p)) / m)
	return float64(p) + 1 + m*math.Expm1(1/m)*r/(1-r)
}

func addAll(add func([]byte), els [][]byte) error {
	for _, e := range els {
		add(e)
	}
	return nil
}

var errNoElements = errors.New("family: n must be at least 1")
