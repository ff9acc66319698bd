package bloom

import "math"

// OptimalBits returns the number of bits, m = -n·ln p / ln²2, that holds n
// elements at false-positive rate p with the optimal number of hash functions.
// It returns 0 for n = 0 or p >= 1 and +Inf for p <= 0.
func OptimalBits(n, p float64) float64 {
	if n == 0 || p >= 1 {
		return 0
	}
	return -n * math.Log(p) / (math.Ln2 * math.Ln2)
}

// OptimalHashes returns the number of hash functions, k = (m/n)·ln 2, that
// minimises the false-positive rate of m bits holding n elements. It returns
// +Inf for n = 0.
func OptimalHashes(m, n float64) float64 {
	return m / n * math.Ln2
}

// Shape returns the size and hash count of a filter for n elements at rate
// p, as [New] sizes it: m = ⌈[OptimalBits](n, p)⌉ and k = [OptimalHashes](m,
// n) rounded to the nearest integer, at least 1. m stays a float64 so that
// callers check it against their own size limit before converting; k exceeds
// [MaxHashes] only for rates below about 1e-30, which callers clamp or
// refuse; k means nothing when m is +Inf (p = 0 after underflow). The
// counting and scalable filters size themselves with it too.
func Shape(n, p float64) (m float64, k int) {
	m = math.Ceil(OptimalBits(n, p))
	return m, int(max(math.Round(OptimalHashes(m, n)), 1))
}

// FalsePositiveRate returns the expected false-positive rate,
// (1 - e^(-k·n/m))^k, of m bits and k hash functions holding n elements.
func FalsePositiveRate(m, k, n float64) float64 {
	return math.Pow(-math.Expm1(-k*n/m), k)
}

// Capacity returns how many elements, n = -m·ln²2 / ln p, fit in m bits at
// false-positive rate p with the optimal number of hash functions. It is the
// inverse of [OptimalBits]. It returns +Inf for p >= 1 and 0 for p <= 0.
func Capacity(m, p float64) float64 {
	if p >= 1 {
		return math.Inf(1)
	}
	if p <= 0 {
		return 0
	}
	return -m * math.Ln2 * math.Ln2 / math.Log(p)
}

// EstimatedCount returns the number of distinct elements, n ≈ -(m/k)·ln(1 - x/m),
// that most likely set x of m bits with k hash functions (Swamidass and Baldi,
// 2007). It returns +Inf when every bit is set.
func EstimatedCount(m, k, x float64) float64 {
	if x >= m {
		return math.Inf(1)
	}
	return -m / k * math.Log1p(-x/m)
}

// FilledFalsePositiveRate returns the false-positive rate of a filter whose
// fill is known: a non-member tests positive when all k of its bits are among
// the x set bits of m, probability (x/m)^k.
func FilledFalsePositiveRate(m, k, x float64) float64 {
	return math.Pow(x/m, k)
}

// ExpectedFill returns the expected fraction of m bits set once n elements
// are added with k hash functions, every position uniform and independent:
// 1 - (1 - 1/m)^(k·n). It is exact for that model; [FalsePositiveRate] uses
// its large-m limit 1 - e^(-k·n/m). Raised to the k-th power it is the
// false-positive rate of a filter whose fill is the expected one
// ([FilledFalsePositiveRate]).
func ExpectedFill(m, k, n float64) float64 {
	return -math.Expm1(k * n * math.Log1p(-1/m))
}
