package privacy

import (
	"math"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
)

// near reports whether got is within tol (relative) of want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

func TestBitcoinjHashFuncs(t *testing.T) {
	// Hand-computed, and the examples of shared/research/bip37.md §1 where
	// float and integer division part: (n, p) → Core k, float k.
	tests := []struct {
		elements    uint32
		fp          float64
		core, float uint32
	}{
		{642, 0.0005, 10, 10},
		{7, 0.1, 2, 3},
		{5, 1e-4, 11, 12},
		{11, 1e-4, 12, 13},
	}
	for _, tt := range tests {
		size, core, err := bip37.Params(tt.elements, tt.fp)
		if err != nil {
			t.Fatal(err)
		}
		if got := bitcoinjHashFuncs(size, tt.elements); core != tt.core || got != tt.float {
			t.Errorf("k(%d, %g) = %d (Core), %d (bitcoinj), want %d, %d", tt.elements, tt.fp, core, got, tt.core, tt.float)
		}
	}
}

// TestBitcoinjHashFuncsBtcd checks the float formula against btcd's
// NewFilter, which divides in floating point as bitcoinj does.
func TestBitcoinjHashFuncsBtcd(t *testing.T) {
	for n := uint32(1); n <= 3000; n += 7 {
		for _, fp := range []float64{0.1, 0.01, 0.0005, 1e-4, 1e-6} {
			size, _, err := bip37.Params(n, fp)
			if err != nil {
				continue // an empty filter: bitcoinj would clamp, btcd match nothing
			}
			want := bloom.NewFilter(n, 0, fp, wire.BloomUpdateNone).MsgFilterLoad().HashFuncs
			if got := bitcoinjHashFuncs(size, n); got != want {
				t.Errorf("bitcoinjHashFuncs(%d, %d) = %d, want %d (btcd)", size, n, got, want)
			}
		}
	}
}

func TestExpectedFPRate(t *testing.T) {
	// Nick's filter: 10,152 bits, 10 functions, 542 elements.
	if got, want := expectedFPRate(10152, 10, 542), 1.468177969993563e-4; !near(got, want, 1e-9) {
		t.Errorf("expectedFPRate(10152, 10, 542) = %g, want %g", got, want)
	}
}

// deltaLaw returns P(d = j) under the limit law of the deltas (see
// gcsmodel.go): 1 - a at 0, a(1-s)s^(j-1) from 1 on.
func deltaLaw(m float64, j int) float64 {
	s := math.Exp(-1 / m)
	a := m * (1 - s)
	if j == 0 {
		return 1 - a
	}
	return a * (1 - s) * math.Pow(s, float64(j-1))
}

func TestGeometricEntropy(t *testing.T) {
	sum := 0.0
	for j := range 2000 { // the tail beyond is below 1e-170
		pd := deltaLaw(5, j)
		sum -= pd * math.Log2(pd)
	}
	if got := geometricEntropy(5); !near(got, sum, 1e-9) {
		t.Errorf("geometricEntropy(5) = %g, want %g (direct sum)", got, sum)
	}
	if got, want := geometricEntropy(784931), math.Log2(math.E*784931); !near(got, want, 1e-6) {
		t.Errorf("geometricEntropy(784931) = %g, want about log2(e·M) = %g", got, want)
	}
}

func TestFalseMatchRate(t *testing.T) {
	if got := falseMatchRate(1, 784931); !near(got, 1/784931.0, 1e-12) {
		t.Errorf("falseMatchRate(1, M) = %g, want 1/M", got)
	}
	if got := falseMatchRate(0, 784931); got != 0 {
		t.Errorf("falseMatchRate(0, M) = %g, want 0", got)
	}
	if got, want := falseMatchRate(2, 4), 1-9.0/16; !near(got, want, 1e-12) {
		t.Errorf("falseMatchRate(2, 4) = %g, want %g", got, want)
	}
}

func TestConsistentFraction(t *testing.T) {
	tests := []struct {
		d, h float64
		a    int
		want float64
	}{
		{2, 4, 1, 0.5},
		{2, 4, 2, 1.0 / 6},
		{1, 4, 2, 0},
		{5, 4, 3, 1},
		{10, 100, 3, 10 * 9 * 8 / (100.0 * 99 * 98)},
	}
	for _, tt := range tests {
		if got := consistentFraction(tt.d, tt.h, tt.a); !near(got, tt.want, 1e-12) && got != tt.want {
			t.Errorf("consistentFraction(%g, %g, %d) = %g, want %g", tt.d, tt.h, tt.a, got, tt.want)
		}
	}
	if got := candidateSet(10, 1010, 2, 4, 1); got != 510 {
		t.Errorf("candidateSet(10, 1010, 2, 4, 1) = %g, want 510", got)
	}
}

func TestRecoveryFormulas(t *testing.T) {
	tests := []struct {
		name        string
		n, j        int
		others, p   float64
		want        float64
		wantNoFalse float64
	}{
		// F ~ Binomial(2, 1/2): E[1/(1+F)] = 1/4 + 1/2·1/2 + 1/4·1/3.
		{"one address", 1, 1, 2, 0.5, 0.25 + 0.25 + 1.0/12, 0.25},
		// F ~ Binomial(1, 1/2): E[1/C(2+F, 2)] = 1/2 + 1/2·1/3.
		{"whole wallet of two", 2, 2, 1, 0.5, 0.5 + 1.0/6, 0.5},
		// One of two positives among three of which one is false.
		{"one of two", 2, 1, 1, 0.5, 0.5 + 0.5*2.0/3, 0.5},
		{"no false positive possible", 3, 3, 1000, 0, 1, 1},
		{"every candidate positive", 1, 1, 3, 1, 0.25, 0},
	}
	for _, tt := range tests {
		if got := guessProbability(tt.n, tt.j, tt.others, tt.p); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: guessProbability(%d, %d, %g, %g) = %.15f, want %.15f", tt.name, tt.n, tt.j, tt.others, tt.p, got, tt.want)
		}
		if got := noFalseProbability(tt.others, tt.p); !near(got, tt.wantNoFalse, 1e-12) && got != tt.wantNoFalse {
			t.Errorf("%s: noFalseProbability(%g, %g) = %g, want %g", tt.name, tt.others, tt.p, got, tt.wantNoFalse)
		}
	}
	if got := pluginGuessProbability(2, 1); !near(got, 1.0/3, 1e-12) {
		t.Errorf("pluginGuessProbability(2, 1) = %g, want 1/3", got)
	}
	// Jensen: the plug-in never exceeds the exact expectation.
	for _, c := range []struct {
		n         int
		others, p float64
	}{{5, 1e6, 1e-6}, {20, 56e6, 2e-8}, {100, 56e6, 2.5e-5}, {3, 100, 0.02}} {
		exact, plug := guessProbability(c.n, c.n, c.others, c.p), pluginGuessProbability(c.n, c.others*c.p)
		if plug > exact*(1+1e-9) {
			t.Errorf("plug-in %g > exact %g for n=%d, S-N=%g, p=%g", plug, exact, c.n, c.others, c.p)
		}
	}
	if got := intersectionRate([]float64{0.1, 0.2, 0.5}); !near(got, 0.01, 1e-12) {
		t.Errorf("intersectionRate(0.1, 0.2, 0.5) = %g, want 0.01", got)
	}
}

// TestGuessProbabilityLarge checks the sum against a Poisson evaluation in a
// regime where the binomial is Poisson to many digits: S - N = 56e6, p tiny.
func TestGuessProbabilityLarge(t *testing.T) {
	others, p, n := 56e6, 2.1555e-8, 10
	lambda := others * p
	want, term := 0.0, math.Exp(-lambda)
	for f := 0; f < 200; f++ {
		want += term * math.Exp(logChooseRatio(n, n, float64(f)))
		term *= lambda / float64(f+1)
	}
	if got := guessProbability(n, n, others, p); !near(got, want, 1e-6) {
		t.Errorf("guessProbability(10, 10, 56e6, 2.1555e-8) = %.10f, want %.10f (Poisson)", got, want)
	}
	// Far beyond the mean every term underflows: the answer is 0, quickly.
	if got := guessProbability(1000, 1000, 56e6, 0.1); got != 0 {
		t.Errorf("guessProbability(1000, 1000, 56e6, 0.1) = %g, want 0", got)
	}
}
