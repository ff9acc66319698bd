package bloom

import (
	"math"
	"testing"
)

func near(got, want, relTol float64) bool {
	if math.IsInf(want, 0) {
		return got == want
	}
	if want == 0 {
		return math.Abs(got) <= relTol
	}
	return math.Abs(got-want) <= relTol*math.Abs(want)
}

func TestArithmetic(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
		tol  float64 // relative; published figures are rounded
	}{
		// Hand-computed: -1000·ln(0.01)/ln²2 = 4605.170186/0.480453014.
		{"OptimalBits(1000, 0.01)", OptimalBits(1000, 0.01), 9585.058378, 1e-6},
		{"OptimalBits(0, 0.01)", OptimalBits(0, 0.01), 0, 1e-6},
		{"OptimalBits(10, 1)", OptimalBits(10, 1), 0, 1e-6},
		{"OptimalBits(10, 0)", OptimalBits(10, 0), math.Inf(1), 1e-6},
		// (m/n)·ln 2 at the optimum is log2(1/p) = 6.643856 for p = 0.01.
		{"OptimalHashes(9585.058378, 1000)", OptimalHashes(9585.058378, 1000), 6.643856, 1e-6},
		{"Capacity(9585.058378, 0.01)", Capacity(9585.058378, 0.01), 1000, 1e-6},
		{"Capacity(100, 1)", Capacity(100, 1), math.Inf(1), 1e-6},
		{"Capacity(100, 0)", Capacity(100, 0), 0, 1e-6},
		{"FilledFalsePositiveRate(2048, 3, 1024)", FilledFalsePositiveRate(2048, 3, 1024), 0.125, 1e-6},
		{"FilledFalsePositiveRate(2048, 3, 2048)", FilledFalsePositiveRate(2048, 3, 2048), 1, 1e-6},
		{"EstimatedCount(2048, 3, 2048)", EstimatedCount(2048, 3, 2048), math.Inf(1), 1e-6},
		{"EstimatedCount(2048, 3, 0)", EstimatedCount(2048, 3, 0), 0, 1e-6},
		// x = m(1 - e^(-kn/m)) for m = 1000, k = 2, n = 100: 1000·(1 - e^-0.2) = 181.269247.
		{"EstimatedCount(1000, 2, 181.269247)", EstimatedCount(1000, 2, 181.269247), 100, 1e-6},
		// Ethereum logsBloom capacity (m = 2048, k = 3), published figures quoted in
		// ../shared/research/ethlogs.md §5: 100 values ≈ 0.25 %, 430 ≈ 10 %, 1080 ≈ 50 %.
		{"FalsePositiveRate(2048, 3, 100)", FalsePositiveRate(2048, 3, 100), 0.0025, 0.02},
		{"FalsePositiveRate(2048, 3, 430)", FalsePositiveRate(2048, 3, 430), 0.10, 0.05},
		{"FalsePositiveRate(2048, 3, 1080)", FalsePositiveRate(2048, 3, 1080), 0.50, 0.05},
		// Jonas Nick (2015), a fresh bitcoinj wallet: 1,269-byte filter, 10 hash
		// functions, 542 elements: effective false-positive rate 1.468e-4.
		{"FalsePositiveRate(1269·8, 10, 542)", FalsePositiveRate(1269*8, 10, 542), 1.468e-4, 0.001},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, tt.tol) {
			t.Errorf("%s = %.6g, want %.6g", tt.name, tt.got, tt.want)
		}
	}
}

// TestArithmeticInverses checks that the functions agree with each other at
// the optimum over a grid of sizes and rates.
func TestArithmeticInverses(t *testing.T) {
	for _, n := range []float64{1, 10, 1e3, 1e6} {
		for _, p := range []float64{0.5, 0.01, 1e-6, 1e-12} {
			m := OptimalBits(n, p)
			k := OptimalHashes(m, n)
			if got := FalsePositiveRate(m, k, n); !near(got, p, 1e-9) {
				t.Errorf("FalsePositiveRate(OptimalBits(%g, %g), k, n) = %g, want %g", n, p, got, p)
			}
			if got := Capacity(m, p); !near(got, n, 1e-9) {
				t.Errorf("Capacity(OptimalBits(%g, %g), %g) = %g, want %g", n, p, p, got, n)
			}
			x := -m * math.Expm1(-k*n/m)
			if got := EstimatedCount(m, k, x); !near(got, n, 1e-9) {
				t.Errorf("EstimatedCount(m, k, expected fill of %g) = %g, want %g", n, got, n)
			}
			// At the optimum half the bits are set: (1/2)^k = p.
			if got := FilledFalsePositiveRate(m, k, x); !near(got, p, 1e-6) {
				t.Errorf("FilledFalsePositiveRate at the optimum for p=%g = %g", p, got)
			}
		}
	}
}

func TestExpectedFill(t *testing.T) {
	tests := []struct{ m, k, n, want float64 }{
		{2, 1, 1, 0.5},        // one bit of two
		{4, 2, 1, 1 - 9.0/16}, // 1 - (3/4)^2
		{10, 3, 0, 0},
		{1, 5, 1, 1},
	}
	for _, tt := range tests {
		if got := ExpectedFill(tt.m, tt.k, tt.n); !near(got, tt.want, 1e-12) {
			t.Errorf("ExpectedFill(%g, %g, %g) = %g, want %g", tt.m, tt.k, tt.n, got, tt.want)
		}
	}
	// For large m it tends to the 1 - e^(-k·n/m) of FalsePositiveRate.
	m, k, n := 1e9, 7.0, 1e8
	if got, want := math.Pow(ExpectedFill(m, k, n), k), FalsePositiveRate(m, k, n); !near(got, want, 1e-8) {
		t.Errorf("ExpectedFill(1e9, 7, 1e8)^7 = %g, want about FalsePositiveRate = %g", got, want)
	}
}
