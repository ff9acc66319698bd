package index

import (
	"math/bits"

	"github.com/chainsieve/chainsieve/ethlogs"
)

const (
	epochBlocks = epochSections * SectionSize
	chunkWords  = 1024 // result words evaluated at a time: 8 KiB, in L1
)

// queryScratch is a query's plan and buffers, kept by the Index between
// queries so that evaluation allocates nothing per section or epoch.
type queryScratch struct {
	bits    []int // distinct bloom bits the query reads
	rowOf   map[int]int
	clauses [][][3]int // per clause, per value, its bits as indexes into bits
	flat    bool       // every clause one value: the result is the AND of all rows
	rows    [][]uint64 // per bit, the current epoch's words
	copies  [][]uint64 // decoded rows where the vectors cannot be used in place
	raw     []byte
	res     [chunkWords]uint64
	acc     [chunkWords]uint64
}

// plan compiles m's clauses into rows and row indexes.
func (q *queryScratch) plan(m *ethlogs.Matcher) {
	q.bits, q.clauses, q.flat = q.bits[:0], q.clauses[:0], true
	if q.rowOf == nil {
		q.rowOf = map[int]int{}
	}
	clear(q.rowOf)
	for _, c := range m.Clauses() {
		vals := make([][3]int, len(c))
		for i, v := range c {
			for j, b := range v.Bits() {
				k, ok := q.rowOf[int(b)]
				if !ok {
					k = len(q.bits)
					q.rowOf[int(b)] = k
					q.bits = append(q.bits, int(b))
				}
				vals[i][j] = k
			}
		}
		q.flat = q.flat && len(c) == 1
		q.clauses = append(q.clauses, vals)
	}
	for len(q.rows) < len(q.bits) {
		q.rows = append(q.rows, nil)
		q.copies = append(q.copies, nil)
	}
}

// Candidates appends to dst, in ascending order, the numbers of the blocks
// in [from, to] (clipped to the index) whose blooms pass matcher m: the same
// blocks as m.Scan over their header blooms. Sealed sections are evaluated
// on the vectors in place (memory-mapped), the query's clauses fused into
// one pass over each stretch of blocks; each vector is checked against its
// checksum the first time this Index reads it. The unfinished section is
// scanned block by block.
func (x *Index) Candidates(dst []uint64, m *ethlogs.Matcher, from, to uint64) ([]uint64, error) {
	n, _, ok := x.Head()
	lo, hi := max(from, x.first), min(to, n)
	if !ok || lo > hi {
		return dst, nil
	}
	if t := x.tailStart(); lo < t {
		err := guard(func() error {
			var err error
			dst, err = x.sealedCandidates(dst, m, lo-x.first, min(hi, t-1)-x.first)
			return err
		})
		if err != nil {
			return dst, err
		}
	}
	for i := range x.tail {
		if t := &x.tail[i]; t.number >= lo && t.number <= hi && m.Test(&t.bloom) {
			dst = append(dst, t.number)
		}
	}
	return dst, nil
}

// sealedCandidates evaluates blocks i0 to i1 (offsets from First), all in
// sealed sections, an epoch at a time.
func (x *Index) sealedCandidates(dst []uint64, m *ethlogs.Matcher, i0, i1 uint64) ([]uint64, error) {
	q := &x.query
	q.plan(m)
	if err := x.prefetchRows(i0, i1); err != nil {
		return dst, err
	}
	for e := i0 / epochBlocks; e <= i1/epochBlocks; e++ {
		lo := max(i0, e*epochBlocks) - e*epochBlocks // block offsets within the epoch
		hi := min(i1, e*epochBlocks+epochBlocks-1) - e*epochBlocks
		base := x.first + e*epochBlocks
		if len(q.clauses) == 0 { // no rule: every block
			for i := lo; i <= hi; i++ {
				dst = append(dst, base+i)
			}
			continue
		}
		if err := x.loadRows(e, lo, hi); err != nil {
			return dst, err
		}
		w0, w1 := int(lo/64), int(hi/64)+1
		for c := w0; c < w1; c += chunkWords {
			res := q.res[:min(chunkWords, w1-c)]
			q.eval(res, c-w0)
			if c == w0 {
				res[0] &= ^uint64(0) << (lo % 64)
			}
			if c+len(res) == w1 {
				res[len(res)-1] &= ^uint64(0) >> (63 - hi%64)
			}
			dst = appendOnes(dst, res, base+uint64(c)*64)
		}
	}
	return dst, nil
}

// prefetchRows asks for every run the query will read from blocks i0 to
// i1 and has not checked yet, before reading any.
func (x *Index) prefetchRows(i0, i1 uint64) error {
	for e := i0 / epochBlocks; e <= i1/epochBlocks && len(x.query.clauses) > 0; e++ {
		lo := max(i0, e*epochBlocks) - e*epochBlocks
		hi := min(i1, e*epochBlocks+epochBlocks-1) - e*epochBlocks
		ep, err := x.epochFile(e, false)
		if err != nil {
			return err
		}
		for _, b := range x.query.bits {
			ep.prefetchRun(b, int(lo/64), int(hi/64)+1)
		}
	}
	return nil
}

// loadRows points q.rows at the words of epoch e covering blocks lo to hi
// of the epoch, after checking the vectors they span.
func (x *Index) loadRows(e, lo, hi uint64) error {
	q := &x.query
	ep, err := x.epochFile(e, false)
	if err != nil {
		return err
	}
	s0, s1 := int(lo/SectionSize), int(hi/SectionSize)
	for k, b := range q.bits {
		if err := x.verifyVectors(ep, b, s0, s1); err != nil {
			return err
		}
		if q.rows[k], err = ep.words(b, int(lo/64), int(hi/64)+1, &q.copies[k], &q.raw); err != nil {
			return err
		}
	}
	return nil
}

// eval computes into res the query over words off to off+len(res) of the
// loaded rows: per clause, the OR over its values of the AND of their
// bits; the AND over clauses.
func (q *queryScratch) eval(res []uint64, off int) {
	if q.flat {
		andRows(res, q.rows[:len(q.bits)], off)
		return
	}
	for i, c := range q.clauses {
		dst := res
		if i > 0 {
			dst = q.acc[:len(res)]
		}
		for j, v := range c {
			a, b, cc := q.rows[v[0]][off:], q.rows[v[1]][off:], q.rows[v[2]][off:]
			if j == 0 {
				and3(dst, a, b, cc)
			} else {
				orAnd3(dst, a, b, cc)
			}
		}
		if i > 0 {
			andInto(res, dst)
		}
	}
}

// andRows sets dst to the AND of every row from word off on, up to four
// rows a pass (a missing fourth is the first again: an L1 load).
func andRows(dst []uint64, rows [][]uint64, off int) {
	n := len(dst)
	for k := 0; k < len(rows); k += 4 {
		g := rows[k:min(k+4, len(rows))]
		a := g[0][off : off+n]
		b, c, d := a, a, a
		if len(g) > 1 {
			b = g[1][off : off+n]
		}
		if len(g) > 2 {
			c = g[2][off : off+n]
		}
		if len(g) > 3 {
			d = g[3][off : off+n]
		}
		if k == 0 {
			for i := range dst {
				dst[i] = a[i] & b[i] & c[i] & d[i]
			}
			continue
		}
		for i := range dst {
			dst[i] &= a[i] & b[i] & c[i] & d[i]
		}
	}
}

func and3(dst, a, b, c []uint64) {
	a, b, c = a[:len(dst)], b[:len(dst)], c[:len(dst)]
	for i := range dst {
		dst[i] = a[i] & b[i] & c[i]
	}
}

func orAnd3(dst, a, b, c []uint64) {
	a, b, c = a[:len(dst)], b[:len(dst)], c[:len(dst)]
	for i := range dst {
		dst[i] |= a[i] & b[i] & c[i]
	}
}

func andInto(dst, a []uint64) {
	a = a[:len(dst)]
	for i := range dst {
		dst[i] &= a[i]
	}
}

// appendOnes appends base+i for every bit i set in words (bit i of word
// w being bit i%64 of words[i/64]).
func appendOnes(dst []uint64, words []uint64, base uint64) []uint64 {
	for i, w := range words {
		at := base + uint64(i)*64
		for ; w != 0; w &= w - 1 {
			dst = append(dst, at+uint64(bits.TrailingZeros64(w)))
		}
	}
	return dst
}
