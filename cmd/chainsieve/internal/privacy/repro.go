package privacy

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/gcs"
)

// Jonas Nick's 2015 wallet and candidate count.
const (
	nickKeys       = 271
	nickCandidates = 56e6
)

// nickFilter is the shape of the filter of Nick's fresh bitcoinj wallet.
type nickFilter struct {
	elements     uint32
	size         int
	k, coreK     uint32
	fp, fpExp    float64 // finite-m expected fill^k; bitcoinj's e^-x form
	pair, pairFP float64
}

func newNickFilter() (nickFilter, error) {
	f := nickFilter{elements: bitcoinjElements(nickKeys)}
	var err error
	if f.size, f.coreK, err = bip37.Params(f.elements, bitcoinjFPRate); err != nil {
		return f, err
	}
	f.k = bitcoinjHashFuncs(f.size, f.elements)
	m, k, n := float64(8*f.size), float64(f.k), float64(2*nickKeys)
	f.fp, f.fpExp = expectedFPRate(m, k, n), bloom.FalsePositiveRate(m, k, n)
	f.pair, f.pairFP = f.fp*f.fp, nickCandidates*f.fp*f.fp
	return f, nil
}

func addReproductions(in *inputs, r *Report) error {
	nick, err := newNickFilter()
	if err != nil {
		return err
	}
	r.Reproductions = append(nickReproductions(nick), bip158Reproductions(in, r)...)
	r.Reproductions = append(r.Reproductions, ethReproductions()...)
	return nil
}

// repro compares computed with a published figure, transcribed as it
// was written (its last digit sets the precision it is held to).
func repro(id, claim, source, published string, computed float64, unit, model, note string) Reproduction {
	p, precision := literal(published)
	return Reproduction{ID: id, Claim: claim, Source: source, Published: Num(p), AsWritten: published, Precision: Num(precision), Computed: Num(computed),
		Difference: Num(round(computed) - p), Unit: unit, Model: model, Note: note, Reproduced: true}
}

// literal reads a published figure and the precision it was written
// with, half a unit of its last digit: 0.00005 for "0.1020", 0.5 for
// "1269", 5e-13 for "2.1555e-8". The figures are constants of this
// package; one that does not parse is a bug.
func literal(s string) (v, precision float64) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("privacy: published figure " + s + ": " + err.Error())
	}
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	e, _ := strconv.Atoi(exp)
	digits := 0
	if _, frac, ok := strings.Cut(mant, "."); ok {
		digits = len(frac)
	}
	return v, 0.5 * math.Pow(10, float64(e-digits))
}

func nickReproductions(f nickFilter) []Reproduction {
	size7, core7, _ := bip37.Params(7, 0.1)
	kNote := fmt.Sprintf("bitcoinj divides in floating point; Bitcoin Core's integer formula gives %d here too. They differ for about a fifth "+
		"of (elements, rate) pairs: 7 elements at 0.1 give %d (bitcoinj) and %d (Core).", f.coreK, bitcoinjHashFuncs(size7, 7), core7)
	return []Reproduction{
		repro("nick.elements", "fresh bitcoinj wallet of 271 keys: elements the filter is sized for", srcNick, "642", float64(f.elements), "",
			"2·271 + 100", ""),
		repro("nick.size", "its filter size", srcNick, "1269", float64(f.size), "bytes",
			"⌊-642·ln 0.0005 / ln²2⌋ / 8 (package bip37, Params)", ""),
		repro("nick.hash_funcs", "its hash functions", srcNick, "10", float64(f.k), "",
			"⌊size·8 / 642 · ln 2⌋ in floating point (bitcoinj)", kNote),
		repro("nick.fp", "effective false-positive rate holding 542 elements", srcNick, "1.468e-4", f.fp, "",
			"(1 - (1 - 1/m)^(k·n))^k with m = 10,152, k = 10, n = 542",
			fmt.Sprintf("bitcoinj's getFalsePositiveRate, (1 - e^(-kn/m))^k, gives %s: the same to the four published digits.", format(f.fpExp))),
		repro("nick.pair", "rate at which a key and its hash both match", srcNick, "2.1555e-8", f.pair, "",
			"the effective rate squared",
			fmt.Sprintf("Only the finite-m fill reproduces the fifth digit: the e^-x form squared gives %s.", format(f.fpExp*f.fpExp))),
		repro("nick.expected", "expected false positives over 56 million public keys", srcNick, "1.2", f.pairFP, "",
			"56,000,000 × pair rate", ""),
	}
}

// bip158Reproductions compare the published code lengths with the exact
// expectation and with what the embedded data measure.
func bip158Reproductions(in *inputs, r *Report) []Reproduction {
	theory := gcs.RiceBits(gcs.BasicP, basicM)
	measured := r.quantity("bip158.bits_core_bench")
	testnet := r.quantity("bip158.bits_testnet")
	random := r.quantity("bip158.bits_random")
	mainnet := repro("bip158.mainnet", "bits per element measured on mainnet", srcPosen, "21.145", measured, "bits",
		"measured here on the largest embedded set, Bitcoin Core's 10,000-element bench set (8·bytes/N)",
		fmt.Sprintf("The data differ: no mainnet filters are embedded. Embedded sets give %s (Core's bench set), %s (%s random elements) "+
			"and %s (the tiny official testnet blocks, where the prefix and padding dominate). A per-filter overhead of the "+
			"CompactSize prefix and padding (about 20 bits) spread over a few hundred elements per block would account for "+
			"mainnet's extra 0.09 bits; that is not checked here.",
			format(measured), format(random), format(syntheticN), format(testnet)))
	mainnet.Reproduced = false
	return []Reproduction{
		repro("bip158.theory", "bits per element in theory at P = 19, M = 784,931", srcWuille, "21.05", theory, "bits",
			"expected Golomb-Rice length P + 1 + r/(1-r), r = (1 - 1/M)^(2^P), for geometric deltas",
			"Wuille publishes the expression; 21.05 is its value at BIP 158's parameters, to four digits. This row checks "+
				"gcs.RiceBits, the exact length under the deltas' limit law, against it."),
		repro("bip158.entropy", "least bits per element any code of the deltas needs at P = 19, M = 784,931", srcPosen, "21.025",
			geometricEntropy(basicM), "bits", "entropy of the deltas' limit law (package gcs, beside gcs.RiceBits): the least any code can spend per element",
			"Posen's table gives it as the approximate theoretical minimum element size beside the mainnet mean."),
		mainnet,
	}
}

// ethReproductions are the answer's table of the logsBloom's capacity, as
// published: percentages with two decimals.
func ethReproductions() []Reproduction {
	var out []Reproduction
	for _, c := range []struct {
		n         float64
		published string
	}{{100, "0.0025"}, {200, "0.0164"}, {430, "0.1020"}, {1080, "0.5014"}, {4000, "0.9915"}} {
		note := ""
		if p, precision := literal(c.published); math.Abs(capacityRate(c.n)-p) > precision {
			note = fmt.Sprintf("The formula the answer states gives %s %%, which rounds to %.2f %%: the published figure is one "+
				"unit off in its last digit.", format(100*capacityRate(c.n)), 100*capacityRate(c.n))
		}
		out = append(out, repro(fmt.Sprintf("eth.capacity_%.0f", c.n),
			fmt.Sprintf("logsBloom false-positive rate for one value with %.0f distinct values", c.n), srcCapacity,
			c.published, capacityRate(c.n), "", "(1 - e^(-3n/2048))³", note))
	}
	return out
}

// quantity returns the value of the quantity with the given ID; it panics
// when a later section asks for one an earlier section did not add, which
// is a bug in the order of Build's steps.
func (r *Report) quantity(id string) float64 {
	for _, s := range r.Sections {
		for _, q := range s.Quantities {
			if q.ID == id {
				return float64(q.Value)
			}
		}
	}
	panic("privacy: no quantity " + id)
}
