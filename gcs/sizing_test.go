package gcs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRiceBits checks the closed form against a direct sum of
// P(d)·length(d) over the limit law of the deltas: P(d = 0) = 1 - a and
// P(d = j) = a·(1-s)·s^(j-1) from 1 on, with s = e^(-1/M) and a = M·(1-s).
func TestRiceBits(t *testing.T) {
	for _, c := range []struct {
		p uint8
		m float64
	}{{2, 5}, {3, 10}, {10, 1533}, {19, 784931}} {
		s := math.Exp(-1 / c.m)
		a := c.m * (1 - s)
		sum, pd := (1-a)*float64(c.p+1), a*(1-s)
		for j := 1; j < int(40*c.m); j++ { // the tail beyond is below e^-40
			sum += pd * (float64(c.p) + 1 + float64(j>>c.p))
			pd *= s
		}
		if got := RiceBits(c.p, c.m); math.Abs(got-sum) > 1e-8*sum {
			t.Errorf("RiceBits(%d, %g) = %.10f, want %.10f (direct sum)", c.p, c.m, got, sum)
		}
	}
	// Independent evaluations (Python, double precision).
	for _, c := range []struct {
		p    uint8
		m    float64
		want float64
	}{{19, 784931, 21.052389992914748}, {3, 10, 4.858159165724623}, {10, 1533, 12.052668291711656}} {
		if got := RiceBits(c.p, c.m); math.Abs(got-c.want) > 1e-10*c.want {
			t.Errorf("RiceBits(%d, %g) = %.12f, want %.12f", c.p, c.m, got, c.want)
		}
	}
}

// TestRiceBitsBuilt compares the expectation with what Build writes for
// random items: N·RiceBits within 0.03 bits per item of the codes' length.
func TestRiceBitsBuilt(t *testing.T) {
	const n = 20000
	items := randomItems(rand.New(rand.NewPCG(17, 0)), n)
	for _, p := range []Params{{P: 19, M: 784931}, {P: 10, M: 1533}, {P: 3, M: 10}} {
		f, err := Build(p, Key{1}, items)
		if err != nil {
			t.Fatal(err)
		}
		got := float64(8*len(f.body)) / float64(f.Len())
		if want := RiceBits(p.P, float64(p.M)); math.Abs(got-want) > 0.03 {
			t.Errorf("bits per item of a random set at P=%d, M=%d = %.4f, want RiceBits = %.4f ± 0.03", p.P, p.M, got, want)
		}
	}
}

func TestRiceParameter(t *testing.T) {
	// BIP 158 pairs P = 19 with M = 784931 = 1.497137·2^19, an M for which
	// P = 19 is the best Rice parameter.
	if got := RiceParameter(784931); got != 19 {
		t.Errorf("RiceParameter(784931) = %d, want 19", got)
	}
	for _, m := range []float64{2, 10, 1533, 1 << 20, 1e9} {
		p := RiceParameter(m)
		for q := uint8(1); q <= 32; q++ {
			if RiceBits(q, m) < RiceBits(p, m) {
				t.Errorf("RiceParameter(%g) = %d, but P = %d codes shorter", m, p, q)
			}
		}
	}
}
