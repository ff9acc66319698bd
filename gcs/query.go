package gcs

import (
	"encoding/binary"
	"slices"
)

// Query is a list of items, such as a wallet's scripts, to test against many
// filters. Every block has its own key, so the items are hashed again for
// each filter; a Query keeps the hashes and sort buffers in scratch space
// that it reuses, so that once the buffers have grown, matching a filter
// allocates nothing.
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
//
// It hashes the items under f's key, sorts them in linear time and walks
// them and the set together, stopping at the first match or once past the
// last item (BIP158 appendix B). Decoding the set into a [Set] and probing it
// instead was measured no faster at any ratio of items to N (docs/gcs.md).
func (q *Query) MatchAny(f *Filter) bool {
	if len(q.items) == 0 || f.n == 0 {
		return false
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
	return q.matchesSorted(dst, f)
}

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
	h := sortHashes(q.spare, q.hashes, &q.counts)
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
	var d decoder
	d.reset(f)
	j := 0
	var v uint64
	for c := d.next(); len(c) > 0 && j < len(e); c = d.next() {
		for _, delta := range c {
			v += delta
			for j < len(e) && e[j].h < v {
				j++
			}
			for ; j < len(e) && e[j].h == v; j++ {
				dst = append(dst, int(e[j].i))
			}
		}
	}
	if d.r.Err() != nil {
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
