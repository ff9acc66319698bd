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

// The decoding loops take the codes a chunk at a time from
// bitio.Reader.ReadRices, which keeps the bit reader in registers.
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
	var d decoder
	d.reset(f)
	var v uint64
	for c := d.next(); len(c) > 0; c = d.next() {
		for _, delta := range c {
			if v += delta; v >= target {
				return v == target || d.r.Err() != nil
			}
		}
	}
	return d.r.Err() != nil
}

// matchSorted reports whether any of the ascending hashed values q is in the
// set, walking the set and q together (BIP158 appendix B) and stopping at the
// first match or when q is exhausted.
func (f *Filter) matchSorted(q []uint64) bool {
	if len(q) == 0 {
		return false
	}
	var d decoder
	d.reset(f)
	j, target := 0, q[0]
	var v uint64
	for c := d.next(); len(c) > 0; c = d.next() {
		for _, delta := range c {
			v += delta
			for target < v {
				if j++; j == len(q) {
					return d.r.Err() != nil
				}
				target = q[j]
			}
			if target == v {
				return true
			}
		}
	}
	return d.r.Err() != nil
}

// MatchAny reports whether any of items may be in the set. It allocates
// scratch space for the hashed items; a [Query] reuses it across filters.
func (f *Filter) MatchAny(items [][]byte) bool {
	var q Query
	q.Reset(items)
	return q.MatchAny(f)
}
