package index

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/chainsieve/chainsieve/ethlogs"
)

// Candidates appends to dst, in ascending order, the numbers of the blocks
// in [from, to] (clipped to the index) whose blooms pass matcher m: the same
// blocks as m.Scan over their header blooms. Sealed sections are evaluated
// on the vectors, a clause at a time, stopping early in an epoch where no
// block is left; the unfinished section is scanned block by block.
func (x *Index) Candidates(dst []uint64, m *ethlogs.Matcher, from, to uint64) ([]uint64, error) {
	n, _, ok := x.Head()
	lo, hi := max(from, x.first), min(to, n)
	if !ok || lo > hi {
		return dst, nil
	}
	clauses := m.Clauses()
	if lo < x.tailStart() {
		sLo, sHi := (lo-x.first)/SectionSize, (min(hi, x.tailStart()-1)-x.first)/SectionSize
		for e := sLo / epochSections; e <= sHi/epochSections; e++ {
			a, b := max(sLo, e*epochSections), min(sHi, e*epochSections+epochSections-1)
			var err error
			if dst, err = x.epochCandidates(dst, clauses, a, b, lo, hi); err != nil {
				return dst, err
			}
		}
	}
	for i := range x.tail {
		if t := &x.tail[i]; t.number >= lo && t.number <= hi && m.Test(&t.bloom) {
			dst = append(dst, t.number)
		}
	}
	return dst, nil
}

// epochCandidates evaluates the clauses over sections a to b of one epoch.
func (x *Index) epochCandidates(dst []uint64, clauses [][]ethlogs.Value, a, b, lo, hi uint64) ([]uint64, error) {
	words := int(b-a+1) * SectionSize / 64
	result := make([]uint64, 3*words)
	result, clause, value := result[:words], result[words:2*words], result[2*words:]
	fill(result, ^uint64(0))
	for _, c := range clauses {
		fill(clause, 0)
		for _, v := range c {
			fill(value, ^uint64(0))
			for _, bit := range v.Bits() {
				if err := x.andRun(value, int(bit), a); err != nil {
					return dst, err
				}
			}
			or(clause, value)
		}
		if !and(result, clause) {
			return dst, nil // no candidate left in this epoch
		}
	}
	base := x.first + a*SectionSize
	for i, w := range result {
		for ; w != 0; w &= w - 1 {
			if n := base + uint64(i*64+bits.TrailingZeros64(w)); n >= lo && n <= hi {
				dst = append(dst, n)
			}
		}
	}
	return dst, nil
}

// andRun ANDs into v the vectors of one bloom bit for consecutive sections
// from a on: a single contiguous read, thanks to the bit-major layout.
func (x *Index) andRun(v []uint64, bit int, a uint64) error {
	f, err := x.epoch(a/epochSections, false)
	if err != nil {
		return err
	}
	n := len(v) * 8
	if cap(x.buf) < n {
		x.buf = make([]byte, n)
	}
	buf := x.buf[:n]
	if _, err := f.ReadAt(buf, vectorOffset(bit, a)); err != nil {
		return fmt.Errorf("%w: bit %d from section %d: %v", ErrCorrupt, bit, a, err)
	}
	for i := range v {
		v[i] &= binary.LittleEndian.Uint64(buf[8*i:])
	}
	return nil
}

func fill(v []uint64, w uint64) {
	for i := range v {
		v[i] = w
	}
}

func or(dst, src []uint64) {
	for i := range dst {
		dst[i] |= src[i]
	}
}

// and sets dst to dst ∩ src and reports whether any bit is left.
func and(dst, src []uint64) bool {
	var any uint64
	for i := range dst {
		dst[i] &= src[i]
		any |= dst[i]
	}
	return any != 0
}
