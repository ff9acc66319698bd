package gcs

import (
	"cmp"
	"math/bits"
	"slices"
)

// entry is an item's SipHash output and the item's index.
type entry struct {
	h uint64
	i uint32
}

// Hashes are SipHash outputs, uniform over 64 bits, so one counting pass on
// their top bits into about as many buckets as elements leaves buckets of one
// or two, and an insertion sort finishes the job in linear time. Buckets
// larger than maxBucket (duplicated items, or a chosen-key adversary) fall
// back to a comparison sort, which bounds the worst case at O(n log n).
const (
	smallSort = 32
	maxBucket = 64
)

// sortHashes writes the hashes of src in ascending order to dst, which must
// have room for them, and returns dst[:len(src)]. src is left as it was.
func sortHashes(dst, src []uint64, counts *[]uint32) []uint64 {
	out := dst[:len(src)]
	if len(src) <= smallSort {
		copy(out, src)
		insertionSortHashes(out)
		return out
	}
	shift, c := buckets(len(src), counts)
	big := false
	for _, x := range src {
		c[x>>shift+1]++
	}
	for k := 1; k < len(c); k++ {
		big = big || c[k] > maxBucket
		c[k] += c[k-1]
	}
	for _, x := range src {
		b := x >> shift
		out[c[b]] = x
		c[b]++
	}
	if big {
		slices.Sort(out)
	} else {
		insertionSortHashes(out)
	}
	return out
}

// sortEntries is sortHashes for entries, ordered by hash then index.
func sortEntries(e, scratch []entry, counts *[]uint32) []entry {
	if len(e) <= smallSort {
		insertionSortEntries(e)
		return e
	}
	shift, c := buckets(len(e), counts)
	big := false
	for _, x := range e {
		c[x.h>>shift+1]++
	}
	for k := 1; k < len(c); k++ {
		big = big || c[k] > maxBucket
		c[k] += c[k-1]
	}
	out := scratch[:len(e)]
	for _, x := range e {
		b := x.h >> shift
		out[c[b]] = x
		c[b]++
	}
	if big {
		slices.SortFunc(out, func(a, b entry) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.i, b.i)) })
	} else {
		insertionSortEntries(out)
	}
	return out
}

// buckets returns the shift that maps a hash to one of 2^b buckets, 2^b ≤ n,
// and a zeroed count array of 2^b+1 entries reusing *counts.
func buckets(n int, counts *[]uint32) (uint, []uint32) {
	b := uint(bits.Len(uint(n))) - 1
	size := 1<<b + 1
	if cap(*counts) < size {
		*counts = make([]uint32, size)
	}
	c := (*counts)[:size]
	clear(c)
	return 64 - b, c
}

// insertionSortHashes sorts s; it is linear on nearly sorted input.
func insertionSortHashes(s []uint64) {
	for i := 1; i < len(s); i++ {
		x := s[i]
		j := i
		for ; j > 0 && s[j-1] > x; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
}

// insertionSortEntries sorts s by hash, stably.
func insertionSortEntries(s []entry) {
	for i := 1; i < len(s); i++ {
		x := s[i]
		j := i
		for ; j > 0 && s[j-1].h > x.h; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
}
