package privacy

import (
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/bip37"
)

// decoyGrid are the decoy block counts the candidate-set plot evaluates.
var decoyGrid = []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6}

func addComparisonPlots(in *inputs, r *Report) error {
	r.Sections = append(r.Sections, Section{ID: "comparison", Title: "Side by side",
		Summary: "What each scheme gives an observer for nothing, and how many candidates survive what it sees. BIP37 hands the " +
			"serving peer the filter itself, so its false candidates are addresses; BIP157/158 and header-bloom scanning show " +
			"only which blocks (or receipts) the client fetches, so theirs are blocks, and the observer must work back from " +
			"blocks to scripts or values."})
	r.Plots = append(r.Plots, falseCandidatesPlot(in), candidatesPlot(in))
	return nil
}

// falseCandidatesPlot shows, for wallets of each size, what each scheme
// hands an observer for nothing: false addresses (BIP37) or false blocks
// (BIP158, Ethereum).
func falseCandidatesPlot(in *inputs) Plot {
	p := Plot{Section: "comparison", ID: "false-candidates", Title: "False candidates against wallet size",
		X: PlotAxis{Label: "wallet keys N", Log: true}, Y: PlotAxis{Label: "expected false candidates", Log: true},
		Caption: fmt.Sprintf("BIP37: non-wallet addresses among S = %s that match a bitcoinj-policy filter (expected fill, "+
			"(1 - (1 - 1/m)^(kn))^k), alone or with their key hash. BIP158: blocks in a year (52,560) whose filter falsely "+
			"matches one of N scripts, 1 - (1 - 1/M)^N each. Ethereum: blocks in a year (2,628,000) whose header bloom passes "+
			"one of N watched values, 1 - (1 - fill³)^N averaged over the embedded post-Merge headers. Units differ: addresses "+
			"for BIP37, blocks for the others.", format(in.s))}
	post := postMerge(in.eth)
	series := []struct {
		name string
		f    func(n int) float64
	}{
		{"BIP37: false addresses", func(n int) float64 { return (in.s - float64(n)) * bitcoinjRate(n) }},
		{"BIP37, key and hash: false keys", func(n int) float64 { return (in.s - float64(n)) * math.Pow(bitcoinjRate(n), 2) }},
		{"BIP158: false blocks a year", func(n int) float64 {
			return (blocksPerYear - min(float64(n), blocksPerYear)) * falseMatchRate(n, basicM)
		}},
		{"Ethereum: false blocks a year", func(n int) float64 {
			return (ethPerYear - float64(n)) * mean(post, func(b ethStats) float64 { return b.fpWallet(n) })
		}},
	}
	for _, s := range series {
		ps := PlotSeries{Name: s.name, Kind: Computed}
		for _, n := range recoveryGrid {
			ps.X, ps.Y = append(ps.X, Num(n)), append(ps.Y, Num(s.f(n)))
		}
		p.Series = append(p.Series, ps)
	}
	return p
}

// bitcoinjRate is the expected false-positive rate of a bitcoinj wallet
// filter of n keys.
func bitcoinjRate(n int) float64 {
	elements := bitcoinjElements(n)
	size, _, _ := bip37.Params(elements, bitcoinjFPRate) // checked by Config.check's bounds
	k := bitcoinjHashFuncs(size, elements)
	return expectedFPRate(float64(8*size), float64(k), float64(2*n))
}

// candidatesPlot shows how many candidates an observer of the fetched blocks
// cannot rule out as decoy blocks are added.
func candidatesPlot(in *inputs) Plot {
	n := float64(in.n)
	p := Plot{Section: "comparison", ID: "candidates-decoys", Title: "Candidate set against decoy blocks fetched",
		X: PlotAxis{Label: "decoy blocks fetched", Log: true}, Y: PlotAxis{Label: "candidates consistent with the fetches", Log: true},
		Caption: fmt.Sprintf("N + (S - N)·C(D, a)/C(H, a) for a wallet of N = %d active in N blocks of its own, D = N + decoys, "+
			"S = %s candidates each active in a blocks drawn uniformly: H = 52,560 (a year of Bitcoin blocks) or 2,628,000 "+
			"(a year of Ethereum slots). Points mark the decoys the wallet's own false matches provide. Real activity "+
			"clusters, so these are upper bounds on the anonymity set.", in.n, format(in.s))}
	curve := func(name string, h float64, a int) PlotSeries {
		s := PlotSeries{Name: name, Kind: Computed}
		for _, d := range decoyGrid {
			if d <= h-n {
				s.X, s.Y = append(s.X, Num(d)), append(s.Y, Num(candidateSet(n, in.s, n+d, h, a)))
			}
		}
		return s
	}
	point := func(name string, d, h float64) PlotSeries {
		d = min(d, h-n)
		return PlotSeries{Name: name, Kind: Computed, Points: true, X: []Num{Num(d)}, Y: []Num{Num(candidateSet(n, in.s, n+d, h, 1))}}
	}
	btc := newBIP158Scan(in.n)
	ethFalse := (ethPerYear - n) * mean(postMerge(in.eth), func(b ethStats) float64 { return b.fpWallet(in.n) })
	p.Series = []PlotSeries{
		curve("BIP158, scripts active in 1 block", blocksPerYear, 1),
		curve("BIP158, in 2 blocks", blocksPerYear, 2),
		curve("BIP158, in 3 blocks", blocksPerYear, 3),
		curve("Ethereum, values active in 1 block", ethPerYear, 1),
		point("BIP158: the wallet's false matches", btc.falseBlocks, blocksPerYear),
		point("Ethereum: the wallet's false matches", ethFalse, ethPerYear),
	}
	return p
}
