package privacy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// fpSamples is how many random candidates test the wallet filter's
// false-positive rate by simulation: enough for a relative standard error
// of about 8 % at bitcoinj's 1.5e-4.
const fpSamples = 1_000_000

// bip37Analysis holds the filters a wallet built after K restarts and the
// sampled false-positive count of the first.
type bip37Analysis struct {
	sizedFor uint32
	inserted int
	paired   int
	filters  []*bip37.Filter
	rates    []float64
	hits     int
}

// walletFilters builds the k filters a bitcoinj wallet holding keys loads
// after k restarts, each with a fresh tweak from tweaks.
func walletFilters(keys []Key, k int, fpRate float64, tweaks *rand.Rand) ([]*bip37.Filter, error) {
	out := make([]*bip37.Filter, k)
	for i := range out {
		f, err := newBitcoinjFilter(bitcoinjElements(len(keys)), fpRate, tweaks.Uint32())
		if err != nil {
			return nil, err
		}
		for _, key := range keys {
			for _, e := range key.Elements {
				f.Add(e)
			}
		}
		out[i] = f
	}
	return out, nil
}

func analyseBIP37(in *inputs) (*bip37Analysis, error) {
	fs, err := walletFilters(in.keys, in.k, bitcoinjFPRate, stream(in.cfg.Seed, "bip37 tweaks"))
	if err != nil {
		return nil, err
	}
	a := &bip37Analysis{sizedFor: bitcoinjElements(in.n), filters: fs}
	for _, key := range in.keys {
		a.inserted += len(key.Elements)
		if key.Paired() {
			a.paired++
		}
	}
	for _, f := range fs {
		a.rates = append(a.rates, f.FilledFalsePositiveRate())
	}
	a.hits = sampleHits(fs[0], stream(in.cfg.Seed, "bip37 candidates"), fpSamples)
	return a, nil
}

// sampleHits tests n random 33-byte candidates (the length of a compressed
// public key) against f and counts the positives.
func sampleHits(f *bip37.Filter, r *rand.Rand, n int) int {
	hits, buf := 0, make([]byte, 33)
	for range n {
		for i := 0; i < len(buf); i += 8 {
			v := r.Uint64()
			for j := i; j < min(i+8, len(buf)); j++ {
				buf[j], v = byte(v), v>>8
			}
		}
		if f.Contains(buf) {
			hits++
		}
	}
	return hits
}

func addBIP37(in *inputs, r *Report) error {
	a, err := analyseBIP37(in)
	if err != nil {
		return err
	}
	in.bip37 = a
	s := Section{ID: "bip37", Title: "BIP37: the wallet's Bloom filter",
		Summary: "The filter a bitcoinj wallet of N keys loads into its peers, built with package bip37 under bitcoinj's " +
			"historical policy, and what a peer that tests S candidate addresses against it learns (Gervais et al., ACSAC 2014)."}
	s.Quantities = append(a.filterQuantities(in), a.adversaryQuantities(in)...)
	s.Tables = []Table{a.filterTable()}
	r.Sections = append(r.Sections, s)
	plot, err := recoveryPlot(in)
	if err != nil {
		return err
	}
	r.Plots = append(r.Plots, plot)
	return nil
}

// filterQuantities describe the first filter: its shape and false-positive
// rate by three routes.
func (a *bip37Analysis) filterQuantities(in *inputs) []Quantity {
	f := a.filters[0]
	m, k := float64(f.Size()*8), float64(f.HashFuncs())
	_, coreK, _ := bip37.Params(a.sizedFor, bitcoinjFPRate)
	payload, _ := f.MarshalBinary() // a filter built by New always encodes
	rate := a.rates[0]
	se := math.Sqrt(rate * (1 - rate) / fpSamples)
	return []Quantity{
		{ID: "bip37.elements_sized", Label: "elements the filter is sized for", Value: Num(a.sizedFor), Kind: Computed,
			Model: "2N + 100: each key inserts its public key and its hash, plus room for 50 new keys", Source: srcBitcoinj},
		{ID: "bip37.elements_inserted", Label: "elements inserted", Value: Num(a.inserted), Kind: Computed,
			Model: "public key and hash160 of every key; one element for an address given without its key", Source: srcBitcoinj},
		{ID: "bip37.fp_target", Label: "target false-positive rate", Value: bitcoinjFPRate, Kind: Input,
			Model: "bitcoinj's default", Source: srcBitcoinj},
		{ID: "bip37.size", Label: "filter size", Value: Num(f.Size()), Unit: "bytes", Kind: Computed,
			Model: "⌊-(2N+100)·ln 0.0005 / ln²2⌋ / 8 bytes, at most 36,000 (Core's and bitcoinj's formula)", Source: srcCore},
		{ID: "bip37.hash_funcs", Label: "hash functions (bitcoinj)", Value: Num(f.HashFuncs()), Kind: Computed,
			Model: "⌊size·8 / elements · ln 2⌋ with a floating-point division, as bitcoinj computes it", Source: srcBitcoinj},
		{ID: "bip37.hash_funcs_core", Label: "hash functions (Bitcoin Core's formula)", Value: Num(coreK), Kind: Computed,
			Model:  "⌊⌊size·8 / elements⌋ · ln 2⌋: Core divides in integers first and may derive one fewer; the report uses bitcoinj's",
			Source: srcCore},
		{ID: "bip37.filterload", Label: "filterload payload", Value: Num(len(payload)), Unit: "bytes", Kind: Computed,
			Model:  "CompactSize length, data, nHashFuncs, nTweak, nFlags (plus a 24-byte P2P message header on the wire)",
			Source: "BIP 37; package bip37, Filter.MarshalBinary"},
		{ID: "bip37.fill", Label: "fraction of bits set", Value: Num(f.Fill()), Kind: Computed,
			Model: "popcount of the built filter / its bits", Source: "package bip37, Filter.Fill"},
		{ID: "bip37.fp_rate", Label: "false-positive rate of the built filter", Value: Num(rate), Kind: Computed,
			Model:       "fill^k: a candidate matches when all k of its positions fall on set bits",
			Assumptions: "MurmurHash3 under k seeds places a candidate's positions uniformly and independently",
			Source:      srcBloom},
		{ID: "bip37.fp_expected", Label: "false-positive rate expected before building", Value: Num(expectedFPRate(m, k, float64(a.inserted))), Kind: Computed,
			Model: "(1 - (1 - 1/m)^(k·n))^k, the expected fill raised to k; the built filter's own fill varies around it", Source: srcBloom},
		{ID: "bip37.fp_bitcoinj", Label: "false-positive rate by bitcoinj's getFalsePositiveRate", Value: Num(bloom.FalsePositiveRate(m, k, float64(a.inserted))), Kind: Computed,
			Model: "(1 - e^(-k·n/m))^k, the large-m approximation", Source: srcBitcoinj},
		{ID: "bip37.fp_sampled", Label: "false-positive rate sampled", Value: Num(float64(a.hits) / fpSamples), Kind: Simulated,
			Model:       fmt.Sprintf("%d of %s random 33-byte candidates matched the built filter", a.hits, format(fpSamples)),
			Assumptions: "binomial standard error " + format(se) + " around the fill^k rate",
			Source:      srcModel},
		{ID: "bip37.estimated_keys", Label: "keys the adversary estimates from the filter", Value: Num(f.EstimatedCount() / 2), Kind: Computed,
			Model: "-(m/k)·ln(1 - x/m) elements from the x set bits, halved (two elements per key)", Source: srcSwamidas},
	}
}

// adversaryQuantities apply the recovery model to the filter, to the pair
// test, and to the intersection of K filters.
func (a *bip37Analysis) adversaryQuantities(in *inputs) []Quantity {
	p, others := a.rates[0], in.others()
	out := recoveryQuantities("bip37", "", in.n, others, p,
		"each non-wallet candidate matches independently at the built filter's rate")
	out = append(out, Quantity{ID: "bip37.recover_all_plugin", Label: "probability of naming the whole wallet, Gervais et al.'s plug-in form",
		Value: Num(pluginGuessProbability(in.n, expectedFalse(others, p))), Kind: Computed,
		Model:  "Π (N - i)/(N + S_f - i) over i < N with S_f = (S - N)·p; understates the exact value when S_f ≳ 1 (Jensen)",
		Source: srcGervais})
	if a.paired > 0 {
		pair := fmt.Sprintf("the adversary tests a candidate's public key and its hash, and both must match: rate p²; "+
			"applies to the %d of %d entries whose public key is in the filter", a.paired, in.n)
		out = append(out, Quantity{ID: "bip37.pair_rate", Label: "false-positive rate when key and key hash must both match",
			Value: Num(p * p), Kind: Computed, Model: "p², the two elements' positions being independent", Source: srcNick})
		out = append(out, recoveryQuantities("bip37.pair", " (key and hash)", a.paired, others, p*p, pair)...)
	}
	pk := intersectionRate(a.rates)
	out = append(out, Quantity{ID: "bip37.intersection_rate", Label: fmt.Sprintf("false-positive rate in all %d filters", in.k),
		Value: Num(pk), Kind: Computed,
		Model:       "product of the K built filters' rates: fresh tweaks make their positions independent",
		Assumptions: "the adversary knows the K filters come from one wallet (Gervais et al. link them by their common elements)",
		Source:      srcGervais})
	return append(out, recoveryQuantities("bip37.intersection", fmt.Sprintf(" (%d filters)", in.k), in.n, others, pk,
		"a candidate survives only if it matches every filter")...)
}

// recoveryQuantities are the outcomes of the Gervais et al. adversary for n
// wallet addresses among others + n candidates at false-positive rate p.
func recoveryQuantities(prefix, suffix string, n int, others, p float64, assumptions string) []Quantity {
	return []Quantity{
		{ID: prefix + ".false_expected", Label: "expected false candidates" + suffix, Value: Num(expectedFalse(others, p)), Kind: Computed,
			Model: "E[F] = (S - N)·p", Assumptions: assumptions, Source: srcGervais},
		{ID: prefix + ".no_false", Label: "probability of no false candidate" + suffix, Value: Num(noFalseProbability(others, p)), Kind: Computed,
			Model: "P(F = 0) = (1 - p)^(S - N): the positives are exactly the wallet", Assumptions: assumptions, Source: srcGervais},
		{ID: prefix + ".guess_one", Label: "probability a positive is the wallet's" + suffix, Value: Num(guessProbability(n, 1, others, p)), Kind: Computed,
			Model: "P_h(1) = E[N / (N + F)], F ~ Binomial(S - N, p) summed exactly", Assumptions: assumptions, Source: srcGervais},
		{ID: prefix + ".recover_all", Label: "probability of naming the whole wallet" + suffix, Value: Num(guessProbability(n, n, others, p)), Kind: Computed,
			Model:       "P_h(N) = E[1 / C(N + F, N)]: the adversary, knowing N, names N of the N + F positives",
			Assumptions: assumptions, Source: srcGervais},
	}
}

// filterTable lists the K filters of the wallet's restarts.
func (a *bip37Analysis) filterTable() Table {
	t := Table{ID: "bip37.filters", Title: "The wallet's filters, one per restart",
		Columns: []Column{
			{Label: "restart"},
			{Label: "tweak", Kind: Computed, Model: "drawn from the seed", Source: srcModel},
			{Label: "bits set", Kind: Computed, Model: "popcount", Source: "package bip37"},
			{Label: "false-positive rate", Kind: Computed, Model: "fill^k", Source: srcBloom},
		}}
	for i, f := range a.filters {
		bits := math.Round(f.Fill() * float64(f.Size()*8))
		t.Rows = append(t.Rows, []Cell{textCell(strconv.Itoa(i + 1)), textCell(strconv.FormatUint(uint64(f.Tweak()), 10)), numCell(bits), numCell(a.rates[i])})
	}
	return t
}
