package scalable

import "github.com/chainsieve/chainsieve/core/bloom"

// Stats describes a filter's stages and its fill.
type Stats struct {
	Stages   int
	Bits     uint64 // the bits of all stages, as encoded
	Added    uint64 // see [Filter.Added]
	Capacity uint64 // the capacities of the stages so far, summed
	// Bound is P, the rate the filter keeps however far it grows (unless
	// overfilled, see [Filter.Add]).
	Bound float64
	// FalsePositiveRate is 1 − Π(1 − fill_i^k_i) over the stages, from
	// their set bits: a non-member is a false positive when any stage
	// tests positive, and each does so with its [bloom.FilledFalsePositiveRate].
	FalsePositiveRate float64
	Stage             []StageStats // oldest first
}

// StageStats describes one stage.
type StageStats struct {
	Capacity uint64  // n0·s^i
	Rate     float64 // the stage's target error, P·(1−r)·r^i
	Bits     uint64  // m_i
	Hashes   int     // k_i
	Added    uint64  // elements inserted into this stage
	SetBits  uint64  // population count
	// FalsePositiveRate is the stage's [bloom.FilledFalsePositiveRate].
	FalsePositiveRate float64
}

// Stats counts every stage's set bits and derives the filter's statistics
// from them. It allocates the Stage slice.
func (f *Filter) Stats() Stats {
	st := Stats{
		Stages: len(f.stages),
		Bits:   f.bits,
		Added:  f.added,
		Bound:  f.params.FalsePositiveRate,
		Stage:  make([]StageStats, len(f.stages)),
	}
	miss := 1.0
	for i := range f.stages {
		s := &f.stages[i]
		x := uint64(s.bits.Count())
		fpr := bloom.FilledFalsePositiveRate(float64(s.m), float64(s.k), float64(x))
		st.Stage[i] = StageStats{
			Capacity: s.cap, Rate: s.rate, Bits: s.m, Hashes: s.k,
			Added: s.added, SetBits: x, FalsePositiveRate: fpr,
		}
		st.Capacity += s.cap
		miss *= 1 - fpr
	}
	st.FalsePositiveRate = 1 - miss
	return st
}
