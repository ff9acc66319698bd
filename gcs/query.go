package gcs

import (
	"encoding/binary"
	"slices"
)

// Query is a list of items, such as a wallet's scripts, to test against many
// filters. Every block has its own key, so the items are hashed again for
// each filter; a Query keeps the hashes, sort buffers and decoded values in
// scratch space that it reuses, so that once the buffers have grown, matching
// a filter allocates nothing.
//
// A Query refers to its items without copying them. It is not safe for
// concurrent use: give each goroutine its own.
type Query struct {
	items   [][]byte
	hashes  []uint64
	spare   []uint64
	entries []entry
	espare  []entry
	counts  []uint32
	set     Set
}

// NewQuery returns a Query of items.
func NewQuery(items [][]byte) *Query {
	q := new(Query)
	q.Reset(items)
	return q
}

// Reset makes q query items, keeping its scratch space.
func (q *Query) Reset(items [][]byte) { q.items = items }

// Len returns the number of items.
func (q *Query) Len() int { return len(q.items) }

// MatchAny reports whether any item may be in f's set. The answer is exact
// over 64-bit hashed values: true if and only if some item's hashed value
// equals a value of the set (or f, from [DecodeUnchecked], is malformed).
func (q *Query) MatchAny(f *Filter) bool {
	if len(q.items) == 0 || f.n == 0 {
		return false
	}
	if q.preferSet(f) {
		if q.set.Reset(f) != nil {
			return true
		}
		return q.set.MatchAny(q.items)
	}
	return f.matchSorted(q.sortedValues(f))
}

// Matches appends to dst the indexes, in ascending order, of the items that
// may be in f's set, and returns the extended slice. For a malformed filter
// from [DecodeUnchecked] it reports every item.
func (q *Query) Matches(dst []int, f *Filter) []int {
	if len(q.items) == 0 || f.n == 0 {
		return dst
	}
	if q.preferSet(f) {
		if q.set.Reset(f) != nil {
			return appendAll(dst, len(q.items))
		}
		for i, it := range q.items {
			if q.set.Match(it) {
				dst = append(dst, i)
			}
		}
		return dst
	}
	return q.matchesSorted(dst, f)
}

// preferSet chooses between the two strategies by their measured costs (see
// docs/gcs.md): the merge walk sorts the hashed items and decodes the set
// once, stopping early; the Set decodes and indexes all N values, then probes
// each item without sorting. Probing wins only when items far outnumber N.
func (q *Query) preferSet(f *Filter) bool {
	return uint64(len(q.items)) >= setFactor*uint64(f.n)
}

// setFactor is the items-to-N ratio above which the Set strategy is faster.
const setFactor = 8

// sortedValues hashes every item under f's key and returns their hashed
// values in ascending order.
func (q *Query) sortedValues(f *Filter) []uint64 {
	n := len(q.items)
	q.hashes = slices.Grow(q.hashes[:0], n)[:n]
	q.spare = slices.Grow(q.spare[:0], n)[:n]
	k0, k1 := binary.LittleEndian.Uint64(f.key[:8]), binary.LittleEndian.Uint64(f.key[8:])
	for i, it := range q.items {
		q.hashes[i] = sipHash24(k0, k1, it)
	}
	h := sortHashes(q.hashes, q.spare, &q.counts)
	fr := f.F()
	for i, x := range h {
		h[i] = reduce(x, fr) // monotone, so h stays sorted
	}
	return h
}

// matchesSorted is the merge walk of MatchAny, run to the end of the set to
// collect every matching item.
func (q *Query) matchesSorted(dst []int, f *Filter) []int {
	n := len(q.items)
	q.entries = slices.Grow(q.entries[:0], n)[:n]
	q.espare = slices.Grow(q.espare[:0], n)[:n]
	e := sortEntries(hashEntries(q.entries, f.key, q.items), q.espare, &q.counts)
	fr := f.F()
	for i := range e {
		e[i].h = reduce(e[i].h, fr)
	}
	start := len(dst)
	it := f.iter()
	j := 0
	for j < len(e) {
		v, ok := it.next()
		if !ok {
			break
		}
		for j < len(e) && e[j].h < v {
			j++
		}
		for ; j < len(e) && e[j].h == v; j++ {
			dst = append(dst, int(e[j].i))
		}
	}
	if it.err() != nil {
		return appendAll(dst[:start], n)
	}
	slices.Sort(dst[start:])
	return dst
}

func appendAll(dst []int, n int) []int {
	for i := range n {
		dst = append(dst, i)
	}
	return dst
}
