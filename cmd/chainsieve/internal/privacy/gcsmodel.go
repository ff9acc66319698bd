package privacy

import "math"

// The deltas between the sorted values of a set follow the limit law
// package gcs describes beside gcs.RiceBits: 0 with probability 1 - a,
// otherwise P(d >= j) = a·s^(j-1) for j >= 1, with s = e^(-1/M) and
// a = M·(1 - s).

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
