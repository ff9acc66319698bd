package family

import (
	"math"
	"testing"
)

// TestMeasure builds every structure at two rates and checks what Measure
// reports against what each structure promises: the measured rate within
// 5 binomial standard deviations of the predicted one (or of ε where the
// prediction is an upper bound), and deterministic for a seed.
func TestMeasure(t *testing.T) {
	const n, trials = 20_000, 400_000
	for _, eps := range []float64{0.01, 0.001} {
		for _, s := range Structures() {
			cfg := Config{N: n, Eps: eps, Trials: trials, Seed: 7}
			r, err := Measure(s, cfg)
			if err != nil {
				t.Fatalf("Measure(%s, ε=%g) error: %v", s.Name, eps, err)
			}
			sd := math.Sqrt(r.EstimatedFPR * (1 - r.EstimatedFPR) / trials)
			if math.Abs(r.MeasuredFPR-r.EstimatedFPR) > 5*sd+1e-5 {
				t.Errorf("Measure(%s, ε=%g) measured %.5f, predicted %.5f ± %.5f", s.Name, eps, r.MeasuredFPR, r.EstimatedFPR, 5*sd)
			}
			if r.EstimatedFPR > eps*1.1 {
				t.Errorf("Measure(%s, ε=%g) predicts %.5f, more than the target", s.Name, eps, r.EstimatedFPR)
			}
			if r.BitsPerElement < math.Log2(1/eps) {
				t.Errorf("Measure(%s, ε=%g) = %.2f bits per element, below the bound log2(1/ε)", s.Name, eps, r.BitsPerElement)
			}
			again, _ := Measure(s, cfg)
			if again != r {
				t.Errorf("Measure(%s, ε=%g) twice = %+v then %+v, want equal", s.Name, eps, r, again)
			}
		}
	}
}

func TestMeasureTimes(t *testing.T) {
	r, err := Measure(Structures()[0], Config{N: 1000, Eps: 0.01, Seed: 1, Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.InsertNs <= 0 || r.LookupNs <= 0 || r.LookupAbsentNs <= 0 || r.Trials != 0 {
		t.Errorf("Measure with 3 rounds = %+v, want positive timings and no trials", r)
	}
}

func TestMeasureErrors(t *testing.T) {
	for _, s := range Structures() {
		if _, err := Measure(s, Config{N: 0, Eps: 0.01}); err == nil {
			t.Errorf("Measure(%s, n=0) succeeded, want an error", s.Name)
		}
	}
	if _, err := Lookup("quotient"); err == nil {
		t.Errorf(`Lookup("quotient") succeeded, want an error`)
	}
}
