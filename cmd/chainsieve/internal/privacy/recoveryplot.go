package privacy

import (
	"fmt"
	"math/rand/v2"
)

// recoveryGrid are the wallet sizes the recovery plot evaluates.
var recoveryGrid = []int{1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000}

// recoveryCurve is one series: wallets filtered at fpRate, the adversary
// holding filters of them (intersected) and testing keys alone or with their
// hashes.
type recoveryCurve struct {
	fpRate  float64
	filters int
	pair    bool
}

func (c recoveryCurve) name() string {
	s := fmt.Sprintf("fp %g, K = %d", c.fpRate, c.filters)
	if c.pair {
		s += ", key and hash"
	}
	return s
}

var recoveryCurves = []recoveryCurve{
	{0.0005, 1, false}, {0.0005, 1, true}, {0.0005, 2, false}, {0.0005, 5, false},
	{0.01, 1, false}, {0.01, 2, false}, {0.1, 1, false}, {0.1, 2, false},
}

// recoveryPlot computes P_h(N), the probability of naming the whole wallet,
// on real filters of synthetic wallets of each size in recoveryGrid.
func recoveryPlot(in *inputs) (Plot, error) {
	keys := syntheticWallet(stream(in.cfg.Seed, "recovery wallet"), recoveryGrid[len(recoveryGrid)-1])
	p := Plot{Section: "bip37", ID: "recovery", Title: "BIP37: probability of naming the whole wallet",
		X: PlotAxis{Label: "wallet keys N", Log: true}, Y: PlotAxis{Label: "probability P_h(N)"},
		Caption: fmt.Sprintf("Gervais et al.'s adversary (ACSAC 2014) tests S = %s candidates against real bitcoinj-policy filters "+
			"(package bip37, 2N + 100 elements) of synthetic wallets and names N of the positives; K filters from restarts are "+
			"intersected; \"key and hash\" requires both elements to match (rate p²). P_h(N) = E[1/C(N+F, N)], "+
			"F ~ Binomial(S - N, p), p = fill^k of the built filters.", format(in.s))}
	for _, c := range recoveryCurves {
		s := PlotSeries{Name: c.name(), Kind: Computed}
		tweaks := stream(in.cfg.Seed, "recovery tweaks "+c.name())
		for _, n := range recoveryGrid {
			y, err := recoveryPoint(keys[:n], c, in.s, tweaks)
			if err != nil {
				return Plot{}, err
			}
			s.X, s.Y = append(s.X, Num(n)), append(s.Y, Num(y))
		}
		p.Series = append(p.Series, s)
	}
	return p, nil
}

func recoveryPoint(keys []Key, c recoveryCurve, candidates float64, tweaks *rand.Rand) (float64, error) {
	fs, err := walletFilters(keys, c.filters, c.fpRate, tweaks)
	if err != nil {
		return 0, err
	}
	rates := make([]float64, len(fs))
	for i, f := range fs {
		rates[i] = f.FilledFalsePositiveRate()
	}
	p := intersectionRate(rates)
	if c.pair {
		p *= p
	}
	n := len(keys)
	return guessProbability(n, n, candidates-float64(n), p), nil
}
