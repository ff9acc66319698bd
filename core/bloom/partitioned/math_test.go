package partitioned

import (
	"math"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
)

func TestFalsePositiveRate(t *testing.T) {
	tests := []struct {
		m, k, n float64
		want    float64
	}{
		// Hand-computed: slices of 10 bits, 1 element: (1 − 0.9)^3.
		{30, 3, 1, 0.001},
		// 2 slices of 2 bits, 2 elements: (1 − 0.5²)² = 0.5625.
		{4, 2, 2, 0.5625},
		{10, 2, 0, 0},
		{1, 2, 5, 1},
	}
	for _, tt := range tests {
		if got := FalsePositiveRate(tt.m, tt.k, tt.n); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("FalsePositiveRate(%g, %g, %g) = %g, want %g", tt.m, tt.k, tt.n, got, tt.want)
		}
	}
}

// TestAboveClassic checks the penalty's sign and size: slices make the rate
// slightly higher than the classic filter's at the same m and k, by less than
// 0.01 % at 100,000 elements.
func TestAboveClassic(t *testing.T) {
	for _, p := range []float64{0.01, 0.001, 1.0 / 784_931} {
		f, _ := New(100_000, p)
		m, k := float64(f.M()), float64(f.K())
		part, classic := FalsePositiveRate(m, k, 1e5), bloom.FalsePositiveRate(m, k, 1e5)
		if part < classic || part > classic*1.0001 {
			t.Errorf("FalsePositiveRate(%g, %g, 1e5) = %.6g, want just above bloom's %.6g", m, k, part, classic)
		}
	}
}
