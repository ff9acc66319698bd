package gcs

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Set is a filter decoded once into its sorted hashed values, with an index
// from the top bits of a value to its place among them. A Match costs one
// SipHash and about one comparison instead of a walk through the codes: the
// form for testing many items against one filter, such as checking a filter
// against every script of its block. The zero Set is empty; Reset reuses its
// storage. A Set is not safe for concurrent Reset.
type Set struct {
	key    Key
	f      uint64
	values []uint64 // ascending
	index  []uint32 // index[b] is the first value in bucket b or above
	shift  uint     // bucket(v) = v >> shift
}

// Reset decodes f into s. It returns an error only for a malformed filter from
// [DecodeUnchecked]; s is then empty.
func (s *Set) Reset(f *Filter) error {
	s.key, s.f = f.key, f.F()
	values, err := f.Values(s.values[:0])
	if err != nil {
		s.values, s.f = values[:0], 0
		s.index = s.index[:0]
		return err
	}
	s.values = values
	s.buildIndex()
	return nil
}

// buildIndex spreads [0, f) over 2^b buckets, 2^b the power of two above N.
// Values at or above F (possible only in a malformed filter) are left out:
// no item can hash to them.
func (s *Set) buildIndex() {
	b := uint(bits.Len(uint(len(s.values))))
	s.shift = 0
	if l := uint(bits.Len64(s.f)); l > b {
		s.shift = l - b
	}
	nb := 1 << b
	if cap(s.index) < nb+1 {
		s.index = make([]uint32, nb+1)
	}
	s.index = s.index[:nb+1]
	i := 0
	for k := range nb {
		for i < len(s.values) && s.values[i] < s.f && s.values[i]>>s.shift < uint64(k) {
			i++
		}
		s.index[k] = uint32(i)
	}
	for i < len(s.values) && s.values[i] < s.f {
		i++
	}
	s.index[nb] = uint32(i)
}

// Len returns the number of values, N of the decoded filter.
func (s *Set) Len() int { return len(s.values) }

// Values returns the hashed values in ascending order. The slice is shared
// with the Set and valid until the next Reset.
func (s *Set) Values() []uint64 { return s.values }

// Match reports whether item may be in the set.
func (s *Set) Match(item []byte) bool {
	if len(s.values) == 0 {
		return false
	}
	return s.contains(s.key.HashToRange(item, s.f))
}

// MatchAny reports whether any of items may be in the set.
func (s *Set) MatchAny(items [][]byte) bool {
	if len(s.values) == 0 {
		return false
	}
	k0, k1 := binary.LittleEndian.Uint64(s.key[:8]), binary.LittleEndian.Uint64(s.key[8:])
	for _, it := range items {
		if s.contains(reduce(sipHash24(k0, k1, it), s.f)) {
			return true
		}
	}
	return false
}

// contains reports whether v, below F, is one of the values.
func (s *Set) contains(v uint64) bool {
	b := v >> s.shift
	lo, hi := s.index[b], s.index[b+1]
	if hi-lo > 8 { // only a crafted filter crowds a bucket
		_, ok := slices.BinarySearch(s.values[lo:hi], v)
		return ok
	}
	for _, x := range s.values[lo:hi] {
		if x >= v {
			return x == v
		}
	}
	return false
}
