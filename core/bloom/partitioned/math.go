package partitioned

import "math"

// FalsePositiveRate returns the expected false-positive rate,
// (1 − (1 − k/m)^n)^k, of a partitioned filter of m bits in k slices holding
// n distinct elements: each slice of m/k bits has received n uniform bits,
// and a non-member tests positive when its bit is set in every slice. It
// returns 1 when a slice holds less than one bit (m < k).
func FalsePositiveRate(m, k, n float64) float64 {
	if m < k {
		return 1
	}
	// (1 − k/m)^n as exp(n·log1p(−k/m)) keeps precision for large m.
	return math.Pow(-math.Expm1(n*math.Log1p(-k/m)), k)
}

// sliceBits returns the smallest slice size s such that k slices of s bits
// holding n elements have a false-positive rate of at most p: the fill of a
// slice, 1 − (1 − 1/s)^n, must stay at most p^(1/k).
func sliceBits(n, p float64, k int) float64 {
	fill := math.Pow(p, 1/float64(k))
	if fill >= 1 {
		return 1
	}
	// (1 − 1/s)^n ≥ 1 − fill  ⇔  1/s ≤ −expm1(log1p(−fill)/n).
	s := math.Ceil(-1 / math.Expm1(math.Log1p(-fill)/n))
	// Rounding in the logs can leave s one short of the bound.
	for FalsePositiveRate(s*float64(k), float64(k), n) > p {
		s++
	}
	return s
}
