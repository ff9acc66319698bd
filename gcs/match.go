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

// matchValue reports whether the hashed value target is in the set.
func (f *Filter) matchValue(target uint64) bool {
	var r bitio.Reader
	r.Reset(f.body)
	p := uint(f.p)
	var v uint64
	for range f.n {
		v += r.ReadRice(p)
		if v >= target {
			return v == target || r.Err() != nil
		}
	}
	return r.Err() != nil
}

// matchSorted reports whether any of the ascending hashed values q is in the
// set, walking the set and q together (BIP158 appendix B) and stopping at the
// first match or when q is exhausted.
func (f *Filter) matchSorted(q []uint64) bool {
	if len(q) == 0 {
		return false
	}
	var r bitio.Reader
	r.Reset(f.body)
	p := uint(f.p)
	j, target := 0, q[0]
	var v uint64
	for range f.n {
		v += r.ReadRice(p)
		for target < v {
			if j++; j == len(q) {
				return r.Err() != nil
			}
			target = q[j]
		}
		if target == v {
			return true
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
