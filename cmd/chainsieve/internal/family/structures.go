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

// incremental adapts a structure that takes its elements one at a time.
type incremental struct {
	add      func([]byte) error
	contains func([]byte) bool
	stats    func() (bits uint64, fpr float64)
	shape    func() string
}

func (f *incremental) build(els [][]byte) error {
	for i, e := range els {
		if err := f.add(e); err != nil {
			return fmt.Errorf("element %d of %d: %w", i, len(els), err)
		}
	}
	return nil
}

func (f *incremental) test(d []byte) bool    { return f.contains(d) }
func (f *incremental) bits() uint64          { b, _ := f.stats(); return b }
func (f *incremental) estimatedFPR() float64 { _, r := f.stats(); return r }
func (f *incremental) params() string        { return f.shape() }

// always adapts an Add that cannot fail.
func always(add func([]byte)) func([]byte) error {
	return func(d []byte) error { add(d); return nil }
}

func newClassic(n uint64, eps float64) (filter, error) {
	f, err := bloom.New(n, eps)
	if err != nil {
		return nil, err
	}
	return &incremental{add: always(f.Add), contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string { return fmt.Sprintf("k=%d", f.K()) }}, nil
}

func newPartitioned(n uint64, eps float64) (filter, error) {
	f, err := partitioned.New(n, eps)
	if err != nil {
		return nil, err
	}
	return &incremental{add: always(f.Add), contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string { return fmt.Sprintf("k=%d", f.K()) }}, nil
}

func newBlocked(n uint64, eps float64) (filter, error) {
	f, err := blocked.New(n, eps)
	if err != nil {
		return nil, err
	}
	return &incremental{add: always(f.Add), contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string { return fmt.Sprintf("k=%d", f.K()) }}, nil
}

func newCounting(n uint64, eps float64) (filter, error) {
	f, err := counting.New(n, eps)
	if err != nil {
		return nil, err
	}
	return &incremental{add: always(f.Add), contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string { return fmt.Sprintf("k=%d, 4-bit counters", f.K()) }}, nil
}

func newScalable(n uint64, eps float64) (filter, error) {
	f, err := scalable.New(scalable.Params{Capacity: max(n/32, 1), FalsePositiveRate: eps, Tightening: 0.85, Growth: 2})
	if err != nil {
		return nil, err
	}
	return &incremental{add: always(func(d []byte) { f.Add(d) }), contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string { return fmt.Sprintf("%d stages", f.Stages()) }}, nil
}

func newCuckoo(n uint64, eps float64) (filter, error) {
	f, err := cuckoo.New(n, eps)
	if err != nil {
		return nil, err
	}
	return &incremental{add: f.Add, contains: f.Test,
		stats: func() (uint64, float64) { s := f.Stats(); return s.Bits, s.FalsePositiveRate },
		shape: func() string {
			s := f.Stats()
			return fmt.Sprintf("f=%d, load %.3f", s.FingerprintBits, s.LoadFactor)
		}}, nil
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
	return &gcsF{p: gcs.Params{P: gcs.RiceParameter(float64(m)), M: m}}, nil
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

var errNoElements = errors.New("family: n must be at least 1")
