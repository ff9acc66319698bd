package bip37

import "math/bits"

// fastmod computes h % d for any 32-bit h with two multiplications instead
// of a division (Lemire, Kaser and Kurz, "Faster Remainder by Direct
// Computation", 2019: with M = ⌊(2⁶⁴-1)/d⌋+1, h mod d is the high 64 bits of
// (M·h mod 2⁶⁴)·d). The result is exact, so bit positions stay those of
// Core's %. The zero value reduces everything to 0.
type fastmod struct {
	m, d uint64
}

func newFastmod(d uint32) fastmod {
	if d == 0 {
		return fastmod{}
	}
	return fastmod{m: ^uint64(0)/uint64(d) + 1, d: uint64(d)}
}

func (r fastmod) reduce(h uint32) uint32 {
	hi, _ := bits.Mul64(r.m*uint64(h), r.d)
	return uint32(hi)
}
