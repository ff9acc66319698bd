package privacy

import (
	"math"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/family"
)

// The deltas between N sorted values drawn uniformly from [0, N·M) tend,
// as N grows, to the gaps of a Poisson process of rate 1/M on the
// integers with ties in random order: a delta is 0 with probability 1 - a
// (another value shares the position and sorts after), and otherwise
// P(d >= j) = a·s^(j-1) for j >= 1, with s = e^(-1/M) and
// a = M·(1 - s). For BIP158's M this is the geometric law of mean M to
// within 1e-6 bits; at small M (10, say) the two differ by a tenth of a bit
// and only this one matches what package gcs builds.

// golombRiceBits returns the expected length in bits of the Golomb-Rice
// code with P remainder bits of such a delta: P bits of remainder, a stop
// bit, and ⌊d/2^P⌋ unary ones, whose mean is Σ_{i>=1} P(d >= i·2^P) =
// M·(e^(1/M) - 1)·r/(1-r) with r = e^(-2^P/M). It excludes the filter's
// CompactSize prefix and final padding. Package family sizes its
// Golomb-coded sets with the same function.
func golombRiceBits(p uint8, m float64) float64 { return family.RiceBits(p, m) }

// geometricEntropy returns the entropy in bits of that delta, the least any
// code for the deltas can spend per element on average:
// -(1-a)·log2(1-a) - a·log2(a(1-s)) - a·s/(1-s)·log2(s). It tends to
// log2(e·M).
func geometricEntropy(m float64) float64 {
	s := math.Exp(-1 / m)
	a, tie := -m*math.Expm1(-1/m), 1+m*math.Expm1(-1/m) // a and 1 - a
	h := -a*math.Log2(a*(1-s)) - a*s/(1-s)*math.Log2(s)
	if tie > 0 {
		h -= tie * math.Log2(tie)
	}
	return h
}

// falseMatchRate returns the probability that a filter falsely matches a
// query of items distinct items, each hashing onto one of N·M values of which
// the filter holds N distinct ones: 1 - (1 - 1/M)^items. For one item it is
// exactly 1/M; hash collisions within the filter lower it slightly.
func falseMatchRate(items int, m float64) float64 {
	return -math.Expm1(float64(items) * math.Log1p(-1/m))
}

// consistentFraction returns C(D, a)/C(H, a): the probability that a script
// active in a distinct blocks, placed uniformly at random among H, has all
// of them among the D blocks a client fetched, so that an observer of the
// fetches cannot rule it out.
func consistentFraction(d, h float64, a int) float64 {
	if d >= h {
		return 1
	}
	p := 1.0
	for i := range a {
		p *= max(d-float64(i), 0) / (h - float64(i))
	}
	return p
}

// candidateSet returns the expected number of candidate scripts an observer
// of a client's block fetches cannot rule out: the wallet's own n, plus each
// of the other s - n candidates (active in a blocks each) with probability
// [consistentFraction].
func candidateSet(n, s, fetched, h float64, a int) float64 {
	return n + (s-n)*consistentFraction(fetched, h, a)
}
