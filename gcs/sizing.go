package gcs

import "math"

// The deltas between N sorted values drawn uniformly from [0, N·M) tend, as
// N grows, to the gaps of a Poisson process of rate 1/M on the integers
// with ties in random order: a delta is 0 with probability 1 - a (another
// value shares the position and sorts after), and otherwise
// P(d >= j) = a·s^(j-1) for j >= 1, with s = e^(-1/M) and a = M·(1 - s).
// For BIP158's M this is the geometric law of mean M to within 1e-6 bits;
// at small M (10, say) the two differ by a tenth of a bit, and only this
// one matches what [Build] writes (docs/privacy.md derives it).

// RiceBits returns the expected length in bits of one Golomb-Rice code of a
// set with parameters P = p and M = m: p bits of remainder, a stop bit, and
// ⌊d/2^p⌋ unary ones for a delta d, whose mean is Σ_{i>=1} P(d >= i·2^p) =
// M·(e^(1/M) - 1)·r/(1 - r) with r = e^(-2^p/M). It excludes the filter's
// CompactSize N and final padding: a set of N items takes about
// N·RiceBits(P, M) bits.
func RiceBits(p uint8, m float64) float64 {
	r := math.Exp(-math.Ldexp(1, int(p)) / m)
	return float64(p) + 1 + m*math.Expm1(1/m)*r/(1-r)
}

// RiceParameter returns the P from 1 to 32 that minimises [RiceBits] for m,
// the smallest of equals. For BIP158's M = 784931 it is 19.
func RiceParameter(m float64) uint8 {
	best := uint8(1)
	for p := uint8(2); p <= 32; p++ {
		if RiceBits(p, m) < RiceBits(best, m) {
			best = p
		}
	}
	return best
}
