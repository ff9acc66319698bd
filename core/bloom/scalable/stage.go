package scalable

import (
	"fmt"
	"math/bits"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// maxBits bounds the bits of all stages together: core/bloom's size limit
// (2^37 bits, 16 GiB), applied to the whole chain.
const maxBits = 1 << 37

// maxStages bounds the stage count a decoder accepts before deriving shapes.
// Growth s ≥ 2 doubles the capacity at every stage, so maxBits is reached
// long before: with one bit per element at least, 38 stages exceed it.
const maxStages = 64

// shape is what the parameters fix about stage i: its capacity n_i = n0·s^i,
// its error p_i = P·(1−r)·r^i, and the m and k that core/bloom's New would
// choose for them.
type shape struct {
	capacity uint64
	rate     float64
	m        uint64
	k        int
}

// shapeOf derives stage i's shape. It fails when the stage cannot exist: a
// capacity beyond 2^64, more than 2^37 bits, or a rate so small that it
// needs more than [bloom.MaxHashes] hashes (below about 2^-100), where the
// rate p_i could no longer be kept.
func (p *Params) shapeOf(i int) (shape, error) {
	n, rate := p.Capacity, p.FalsePositiveRate*(1-p.Tightening)
	for range i {
		hi, lo := bits.Mul64(n, p.Growth)
		if hi != 0 {
			return shape{}, fmt.Errorf("stage %d capacity overflows 64 bits", i)
		}
		// r^i by repeated products, not math.Pow: the decoder derives the
		// same shapes from the same operations.
		n, rate = lo, rate*p.Tightening
	}
	m, k := bloom.Shape(float64(n), rate)
	if !(m <= maxBits) {
		return shape{}, fmt.Errorf("stage %d needs %.0f bits, more than %d", i, m, uint64(maxBits))
	}
	if k > bloom.MaxHashes {
		return shape{}, fmt.Errorf("stage %d at rate %g needs %d hashes, more than %d", i, rate, k, bloom.MaxHashes)
	}
	return shape{capacity: n, rate: rate, m: uint64(m), k: k}, nil
}

// stage is one classic Bloom filter of the chain. It is core/bloom's Filter
// in all but one respect: it takes the element's bloom.Probe instead of the
// data, so that one bloom.Hash per operation serves every stage (each stage
// gets a copy of the probe). bloom.Filter has no such method, hence this
// type on core/bitset with the same positions.
type stage struct {
	bits  *bitset.Set
	m     uint64
	k     int
	cap   uint64
	rate  float64
	added uint64
}

func newStage(sh shape, set *bitset.Set) stage {
	if set == nil {
		set = bitset.New(uint(sh.m))
	}
	return stage{bits: set, m: sh.m, k: sh.k, cap: sh.capacity, rate: sh.rate}
}

// add sets the element's k positions, those [bloom.Probe] gives: the slots
// a [bloom.Filter] of the stage's shape would set.
func (s *stage) add(p bloom.Probe) {
	for range s.k {
		s.bits.Set(uint(p.Next(s.m)))
	}
	s.added++
}

// test reports whether all k positions of the element are set.
func (s *stage) test(p bloom.Probe) bool {
	for range s.k {
		if !s.bits.Test(uint(p.Next(s.m))) {
			return false
		}
	}
	return true
}

// full reports whether the stage holds its capacity.
func (s *stage) full() bool { return s.added >= s.cap }
