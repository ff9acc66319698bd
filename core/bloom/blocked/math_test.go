package blocked

import (
	"math"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// TestFalsePositiveRate checks the occupancy recurrence and the truncated
// Poisson sum against testdata/fpr_reference.py, which computes each block's
// rate another way (inclusion–exclusion over the query's distinct bits,
// Stirling numbers for how many there are) in 60-digit arithmetic and sums
// every i from 0 to 4λ + 200; and the edge cases.
func TestFalsePositiveRate(t *testing.T) {
	tests := []struct {
		m, k, n float64
		want    float64
	}{
		{512 * 1933, 6, 1e5, 0.010088143894014163},
		{512 * 7320, 16, 1e5, 1.3660817635218887e-6},
		{512 * 10, 7, 1000, 0.13189148445475527},
		{512, 3, 10, 0.00023714799371520928},
		// k = 1, λ = 1: Σ Pois(i; 1)·(1 − (511/512)^i) = 1 − e^(−1/512), the
		// Poisson generating function.
		{512, 1, 1, -math.Expm1(-1.0 / 512)},
		{512, 3, 0, 0},
		{100, 3, 10, 1},
		{512, 100, 1e6, 1},
	}
	for _, tt := range tests {
		if got := FalsePositiveRate(tt.m, tt.k, tt.n); math.Abs(got-tt.want) > 1e-12*tt.want {
			t.Errorf("FalsePositiveRate(%g, %g, %g) = %.17g, want %.17g", tt.m, tt.k, tt.n, got, tt.want)
		}
	}
}

// TestAboveClassic checks the sign of the blocking penalty at equal m and k:
// uneven block loads only ever raise the rate (Jensen's inequality on a
// convex tail), by more the smaller the target.
func TestAboveClassic(t *testing.T) {
	for _, shape := range []struct{ m, k float64 }{{512 * 1933, 6}, {512 * 3026, 9}, {512 * 7320, 16}, {512 * 7320, 25}} {
		blocked, classic := FalsePositiveRate(shape.m, shape.k, 1e5), bloom.FalsePositiveRate(shape.m, shape.k, 1e5)
		if blocked <= classic {
			t.Errorf("FalsePositiveRate(%g, %g, 1e5) = %.4g, want above bloom's %.4g", shape.m, shape.k, blocked, classic)
		}
	}
}
