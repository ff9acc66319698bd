package gcs

import "github.com/chainsieve/chainsieve/core/bitio"

// Match reports whether item may be in the set: true for every member, and
// for a non-member with probability 1/M. It decodes the codes up to the
// item's hashed value, without allocating.
func (f *Filter) Match(item []byte) bool {
	if f.n == 0 {
		return false
	}
	return f.matchValue(f.key.HashToRange(item, f.F()))
}

// The loops that need every code (validation, Values, Matches) take them a
// chunk at a time from bitio.Reader.ReadRices; the walks that stop at a
// value (Match, MatchAny) use bitio.Reader.SumRices, which adds the deltas
// up as it decodes them and stores none: 2.7 against 3.2 ns a code in
// BenchmarkDecode, the hand-written bound's speed.
const chunk = 32

// decoder hands out a filter's deltas a chunk at a time, never more than N.
type decoder struct {
	r    bitio.Reader
	p    uint
	left uint32
	buf  [chunk]uint64
}

func (d *decoder) reset(f *Filter) {
	d.r.Reset(f.body)
	d.p, d.left = uint(f.p), f.n
}

// next returns the next chunk of deltas, empty after the N-th.
func (d *decoder) next() []uint64 {
	c := d.buf[:min(d.left, chunk)]
	d.left -= uint32(len(c))
	d.r.ReadRices(c, d.p)
	return c
}

// matchValue reports whether the hashed value target is in the set.
func (f *Filter) matchValue(target uint64) bool {
	var r bitio.Reader
	r.Reset(f.body)
	v, read := r.SumRices(uint(f.p), 0, target, int(f.n))
	return read > 0 && v == target || r.Err() != nil
}

// matchSorted reports whether any of the ascending hashed values q is in the
// set, walking the set and q together (BIP158 appendix B) and stopping at the
// first match or when q is exhausted. Each query value takes one SumRices
// call that decodes the set up to it; a query value below the set's current
// one needs no decoding.
func (f *Filter) matchSorted(q []uint64) bool {
	var r bitio.Reader
	r.Reset(f.body)
	p, left := uint(f.p), int(f.n)
	var v uint64 // the last value decoded, once started
	started := false
	for _, target := range q {
		if started && target <= v {
			if target == v {
				return true
			}
			continue
		}
		var read int
		if v, read = r.SumRices(p, v, target, left); read == 0 {
			break // the set is exhausted
		}
		left -= read
		started = true
		if v == target {
			return true
		}
		if v < target { // the set is exhausted
			break
		}
	}
	return r.Err() != nil
}

// MatchAny reports whether any of items may be in the set. It allocates
// scratch space for the hashed items; a [Query] reuses it across filters.
func (f *Filter) MatchAny(items [][]byte) bool {
	var q Query
	q.Reset(items)
	return q.MatchAny(f)
}
