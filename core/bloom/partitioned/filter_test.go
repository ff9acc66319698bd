package partitioned

import (
	"fmt"
	"math"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/filtertest"
)

func TestNewShape(t *testing.T) {
	tests := []struct {
		n     uint64
		p     float64
		wantM uint64
		wantK int
	}{
		// The smallest slices, found by bisection in 50-digit decimal
		// arithmetic (Python's decimal module), not with this package: 7
		// slices of 137,043 bits give 0.0099999 and of 137,042 give
		// 0.0100002; 6 slices would need 961,674 bits.
		{n: 100_000, p: 0.01, wantM: 959_301, wantK: 7},
		// ⌊13.29⌋ = 13 beats 14: 13·147,485 bits against 14·137,043.
		{n: 100_000, p: 1e-4, wantM: 1_917_305, wantK: 13},
		// 20·141,276 bits against 19·148,733 = 2,825,927.
		{n: 100_000, p: 1.0 / 784_931, wantM: 2_825_520, wantK: 20},
		// One element at 1/2: one slice, two bits make the rate 1/2.
		{n: 1, p: 0.5, wantM: 2, wantK: 1},
		// k clamped to 100 slices of 21 bits (20 give 2.2e-40).
		{n: 10, p: 1e-40, wantM: 2_100, wantK: bloom.MaxHashes},
	}
	for _, tt := range tests {
		f, err := New(tt.n, tt.p)
		if err != nil {
			t.Errorf("New(%d, %g) error: %v", tt.n, tt.p, err)
			continue
		}
		if f.M() != tt.wantM || f.K() != tt.wantK {
			t.Errorf("New(%d, %g) = m %d k %d, want m %d k %d", tt.n, tt.p, f.M(), f.K(), tt.wantM, tt.wantK)
		}
		m, k, n := float64(f.M()), float64(f.K()), float64(tt.n)
		if got := FalsePositiveRate(m, k, n); got > tt.p {
			t.Errorf("FalsePositiveRate(%g, %g, %g) = %g, want at most %g", m, k, n, got, tt.p)
		}
		if got := FalsePositiveRate(m-k, k, n); got <= tt.p && m > k {
			t.Errorf("FalsePositiveRate(%g, %g, %g) = %g: one bit fewer per slice would do", m-k, k, n, got)
		}
	}
}

func TestNewWithShapeRounds(t *testing.T) {
	f, err := NewWithShape(100, 7)
	if err != nil {
		t.Fatal(err)
	}
	if f.M() != 105 || f.K() != 7 {
		t.Errorf("NewWithShape(100, 7) = m %d k %d, want m 105 k 7", f.M(), f.K())
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		n uint64
		p float64
	}{
		{0, 0.01}, {10, 0}, {10, 1}, {10, -0.5}, {10, math.NaN()}, {10, math.Inf(1)}, {1 << 40, 1e-9},
	}
	for _, tt := range tests {
		if f, err := New(tt.n, tt.p); err == nil {
			t.Errorf("New(%d, %g) = m %d, want an error", tt.n, tt.p, f.M())
		}
	}
	shapes := []struct {
		m uint64
		k int
	}{{0, 3}, {64, 0}, {64, -1}, {64, bloom.MaxHashes + 1}, {maxBits + 1, 3}, {maxBits - 1, 3}}
	for _, tt := range shapes {
		if _, err := NewWithShape(tt.m, tt.k); err == nil {
			t.Errorf("NewWithShape(%d, %d) = nil error, want an error", tt.m, tt.k)
		}
	}
}

// TestNoFalseNegativesAndRate is the property test: at n = 100,000 no member
// is ever missed, and the false positives among random non-members stay
// within 5 binomial standard deviations of FalsePositiveRate(m, k, n). With
// μ = trials·rate expected hits the deviation is √(μ(1−rate)); 5σ fails a
// correct filter about once in 1.7 million runs, yet catches a derivation of
// positions whose slices are not independent. The BIP158 rate gets 40 million
// trials (about 51 expected hits, tolerance ±70 %) so that the test still
// tells that rate from twice it.
func TestNoFalseNegativesAndRate(t *testing.T) {
	const n = 100_000
	tests := []struct {
		p      float64
		trials uint64
	}{
		{0.01, 1_000_000},
		{0.001, 2_000_000},
		{1.0 / 784_931, 40_000_000},
	}
	for _, tt := range tests {
		if testing.Short() && tt.trials > 2_000_000 {
			continue // the BIP158 rate (40 million trials) runs without -short
		}
		t.Run(fmt.Sprint(tt.p), func(t *testing.T) {
			t.Parallel()
			f, err := New(n, tt.p)
			if err != nil {
				t.Fatal(err)
			}
			var buf [16]byte
			for i := range uint64(n) {
				f.Add(filtertest.Key(&buf, i))
			}
			for i := range uint64(n) {
				if !f.Test(filtertest.Key(&buf, i)) {
					t.Fatalf("Test(member %d) = false: a false negative", i)
				}
			}
			hits := 0
			for i := range tt.trials {
				if f.Test(filtertest.Key(&buf, n+i)) {
					hits++
				}
			}
			theory := FalsePositiveRate(float64(f.M()), float64(f.K()), n)
			mu := float64(tt.trials) * theory
			sigma := math.Sqrt(mu * (1 - theory))
			t.Logf("p %g: m %d k %d, theory %.4g, measured %.4g (%d of %d)", tt.p, f.M(), f.K(), theory, float64(hits)/float64(tt.trials), hits, tt.trials)
			if math.Abs(float64(hits)-mu) > 5*sigma {
				t.Errorf("false positives = %d of %d, want %.0f ± %.0f (5σ)", hits, tt.trials, mu, 5*sigma)
			}
			st := f.Stats()
			if math.Abs(st.FalsePositiveRate-theory) > 0.05*theory {
				t.Errorf("Stats().FalsePositiveRate = %.4g, want %.4g ± 5 %%", st.FalsePositiveRate, theory)
			}
			if st.Added != n || st.Bits != f.M() || st.Hashes != f.K() {
				t.Errorf("Stats() = %+v, want Added %d, Bits %d, Hashes %d", st, n, f.M(), f.K())
			}
		})
	}
}

func TestStatsAndReset(t *testing.T) {
	f, _ := NewWithShape(30, 3)
	f.Add([]byte("a"))
	st := f.Stats()
	// One element sets exactly one bit in each slice of 10.
	want := Stats{Bits: 30, Hashes: 3, Added: 1, SetBits: 3, Fill: 0.1, FalsePositiveRate: 0.1 * 0.1 * 0.1}
	if st.Bits != want.Bits || st.Hashes != want.Hashes || st.Added != want.Added || st.SetBits != want.SetBits ||
		math.Abs(st.Fill-want.Fill) > 1e-15 || math.Abs(st.FalsePositiveRate-want.FalsePositiveRate) > 1e-15 {
		t.Errorf("Stats() = %+v, want %+v", st, want)
	}
	f.Reset()
	if st := f.Stats(); st.SetBits != 0 || st.Added != 0 || st.FalsePositiveRate != 0 || f.Test([]byte("a")) {
		t.Errorf("after Reset, Stats() = %+v, want no bits and no elements", st)
	}
}

func TestZeroAllocs(t *testing.T) {
	f, _ := New(1000, 0.001)
	k := []byte("element")
	if n := testing.AllocsPerRun(100, func() { f.Add(k) }); n != 0 {
		t.Errorf("Add allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { f.Test(k) }); n != 0 {
		t.Errorf("Test allocates %v times, want 0", n)
	}
}

// TestSmallTightFilterRate measures the shape where per-slice double hashing
// failed (1,140 elements at 1/784,931: s = 1,612, k = 20), 387 false
// positives in 5·10^7 trials for 63 predicted, because two elements whose h1
// and h2 are both close share every slice's bit. 2·10^7 trials expect about
// 25; 5 binomial standard deviations bound the chance failure below 10^-6.
func TestSmallTightFilterRate(t *testing.T) {
	if testing.Short() {
		t.Skip("2·10^7 lookups")
	}
	const n, trials = 1140, 20_000_000
	f, _ := New(n, 1.0/784931)
	var buf [16]byte
	for i := range uint64(n) {
		f.Add(filtertest.Key(&buf, i))
	}
	fp := 0
	for i := range uint64(trials) {
		if f.Test(filtertest.Key(&buf, n+i)) {
			fp++
		}
	}
	want := f.Stats().FalsePositiveRate * trials
	if got := float64(fp); got > want+5*math.Sqrt(want) {
		t.Errorf("m=%d, k=%d: %d false positives in %d trials, want %.1f ± %.1f", f.M(), f.K(), fp, trials, want, 5*math.Sqrt(want))
	}
}
