package scalable

import (
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// Defaults for the zero values of [Params.Tightening] and [Params.Growth].
const (
	// DefaultTightening is the middle of the range 0.8–0.9 that Almeida et
	// al. recommend: nearer 1 the stages' errors fall more slowly, so each
	// new stage costs fewer bits per element, but the first stages must be
	// tighter to leave room for them.
	DefaultTightening = 0.85
	// DefaultGrowth doubles the capacity at each stage, the paper's choice
	// for a set whose growth is not expected to be fast.
	DefaultGrowth = 2
	// MaxGrowth bounds Growth: a larger factor reserves most of the memory
	// of a new stage for elements that may never come.
	MaxGrowth = 16
)

// ErrFull is returned by [Filter.Insert] when the element would need a new
// stage that cannot exist: more than 2^37 bits in all, or an error rate too
// small for [bloom.MaxHashes] hashes.
var ErrFull = errors.New("scalable: filter full")

// Params configures a [Filter].
type Params struct {
	// Capacity is n0, the number of elements of the first stage, at least 1.
	Capacity uint64
	// FalsePositiveRate is P in (0, 1), the bound on the false-positive rate
	// of the whole filter however many stages it grows.
	FalsePositiveRate float64
	// Tightening is r in (0, 1): stage i has error P·(1−r)·r^i. Zero means
	// [DefaultTightening].
	Tightening float64
	// Growth is s in [2, MaxGrowth]: stage i holds n0·s^i elements. Zero
	// means [DefaultGrowth].
	Growth uint64
}

// Filter is a scalable Bloom filter: a chain of classic Bloom filters
// (stages), a new one created each time the newest holds its capacity.
// The zero value holds nothing and cannot grow (Add panics); create filters
// with [New] or [Filter.UnmarshalBinary]. A Filter is not
// safe for concurrent mutation; concurrent Test calls are fine.
type Filter struct {
	params Params
	stages []stage
	added  uint64
	bits   uint64
}

// New returns a filter of one empty stage. It returns an error naming the
// field for Capacity 0, FalsePositiveRate or Tightening outside (0, 1),
// Growth outside [2, MaxGrowth], and for a first stage beyond 2^37 bits.
func New(p Params) (*Filter, error) {
	if p.Tightening == 0 {
		p.Tightening = DefaultTightening
	}
	if p.Growth == 0 {
		p.Growth = DefaultGrowth
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	f := &Filter{params: p}
	if err := f.grow(); err != nil {
		return nil, fmt.Errorf("scalable: Params: %v", err)
	}
	return f, nil
}

// check validates parameters whose defaults are already applied.
func (p *Params) check() error {
	switch {
	case p.Capacity == 0:
		return errors.New("scalable: Params.Capacity must be at least 1")
	case !(p.FalsePositiveRate > 0 && p.FalsePositiveRate < 1):
		return fmt.Errorf("scalable: Params.FalsePositiveRate %g outside (0, 1)", p.FalsePositiveRate)
	case !(p.Tightening > 0 && p.Tightening < 1):
		return fmt.Errorf("scalable: Params.Tightening %g outside (0, 1)", p.Tightening)
	case p.Growth < 2 || p.Growth > MaxGrowth:
		return fmt.Errorf("scalable: Params.Growth %d outside [2, %d]", p.Growth, MaxGrowth)
	}
	return nil
}

// grow appends the next stage. It is the only allocation after New.
func (f *Filter) grow() error {
	sh, err := f.next()
	if err != nil {
		return err
	}
	f.stages = append(f.stages, newStage(sh, nil))
	f.bits += sh.m
	return nil
}

// next returns the shape of the stage after the newest, or an error if it
// cannot exist.
func (f *Filter) next() (shape, error) {
	i := len(f.stages)
	sh, err := f.params.shapeOf(i)
	if err == nil && f.bits+sh.m > maxBits {
		err = fmt.Errorf("stage %d would bring the filter to %d bits, more than %d", i, f.bits+sh.m, uint64(maxBits))
	}
	return sh, err
}

// canGrow reports whether a further stage can exist.
func (f *Filter) canGrow() bool {
	_, err := f.next()
	return err == nil
}

// Params returns the filter's parameters with the defaults applied.
func (f *Filter) Params() Params { return f.params }

// Stages returns the number of stages, at least 1.
func (f *Filter) Stages() int { return len(f.stages) }

// Added returns the number of elements inserted: those Add or Insert
// reported as new.
func (f *Filter) Added() uint64 { return f.added }

// Add inserts data unless it already tests positive, and reports whether it
// inserted it. A false positive is therefore not inserted: harmless in a
// filter without deletion, since Test already answers true for it and
// always will, and it keeps duplicates from consuming capacity. A new stage
// is created (and allocated) when the newest holds its capacity; otherwise
// Add does not allocate.
//
// When no further stage can exist (see [ErrFull]), Add inserts into the
// newest stage beyond its capacity rather than lose the element: the filter
// still has no false negatives, but its rate rises above the bound, as
// [Filter.Stats] reports. Use [Filter.Insert] to be told instead.
func (f *Filter) Add(data []byte) bool {
	added, _ := f.insert(data, true)
	return added
}

// Insert is [Filter.Add] that refuses to exceed the bound: when the element
// needs a stage that cannot exist it returns false and an error wrapping
// [ErrFull], and leaves the filter unchanged.
func (f *Filter) Insert(data []byte) (bool, error) {
	return f.insert(data, false)
}

func (f *Filter) insert(data []byte, overfill bool) (bool, error) {
	if len(f.stages) == 0 {
		panic("scalable: Add or Insert on a zero Filter; create filters with New")
	}
	p := bloom.NewProbe(bloom.Hash(data))
	if f.test(p) {
		return false, nil
	}
	if f.stages[len(f.stages)-1].full() {
		if err := f.grow(); err != nil && !overfill {
			return false, fmt.Errorf("%w: %v", ErrFull, err)
		}
	}
	f.stages[len(f.stages)-1].add(p)
	f.added++
	return true, nil
}

// Test reports whether data may be in the filter. A false result is certain;
// a true result is wrong with probability at most the bound P while the
// filter has not overfilled. It does not allocate.
func (f *Filter) Test(data []byte) bool {
	return f.test(bloom.NewProbe(bloom.Hash(data)))
}

// test probes the newest stage first: the stages grow geometrically, so
// most members sit in the newest ones and are found soonest there.
func (f *Filter) test(p bloom.Probe) bool {
	for i := len(f.stages) - 1; i >= 0; i-- {
		if f.stages[i].test(p) {
			return true
		}
	}
	return false
}

// Reset empties the filter back to one empty first stage, keeping that
// stage's memory and releasing the others.
func (f *Filter) Reset() {
	if len(f.stages) == 0 {
		return
	}
	first := f.stages[0]
	first.bits.Reset()
	first.added = 0
	clear(f.stages[1:])
	f.stages = append(f.stages[:0], first)
	f.added = 0
	f.bits = first.m
}
