package privacy

// Each test here samples random filters, candidates or blocks from a fixed
// seed and compares the count with the analytic value. The tolerance is
// zSE standard errors of the simulated mean: a correct formula fails such a
// check with probability below 1e-4, and the seed makes the outcome fixed.

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/gcs"
)

const zSE = 4

// within checks that a simulated mean is within zSE standard errors of the
// analytic value.
func within(t *testing.T, what string, simulated, analytic, se float64) {
	t.Helper()
	if math.Abs(simulated-analytic) > zSE*se {
		t.Errorf("%s: simulated %g, analytic %g: differ by %.1f standard errors (%g), tolerance %d",
			what, simulated, analytic, math.Abs(simulated-analytic)/se, se, zSE)
	}
}

// binomialSE is the standard error of a rate p estimated from n trials.
func binomialSE(p float64, n int) float64 { return math.Sqrt(p * (1 - p) / float64(n)) }

// filterOf returns a BIP37 filter of size bytes and k functions holding n
// random elements.
func filterOf(t *testing.T, r *rand.Rand, size int, k uint32, elements [][]byte) *bip37.Filter {
	t.Helper()
	f, err := bip37.Load(make([]byte, size), k, r.Uint32(), bip37.UpdateNone)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range elements {
		f.Add(e)
	}
	return f
}

func randomElements(r *rand.Rand, n, size int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = randomBytes(r, size)
	}
	return out
}

// fullFilter returns a bitcoinj-policy filter sized for n elements at
// fpRate and holding n random ones.
func fullFilter(t *testing.T, r *rand.Rand, n uint32, fpRate float64) *bip37.Filter {
	t.Helper()
	f, err := newBitcoinjFilter(n, fpRate, r.Uint32())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range randomElements(r, int(n), 33) {
		f.Add(e)
	}
	return f
}

// TestFillRateSimulated: a built filter's rate is fill^k.
func TestFillRateSimulated(t *testing.T) {
	r := stream(11, "test fill rate")
	f := fullFilter(t, r, 1000, 0.02)
	const n = 200000
	p := f.FilledFalsePositiveRate()
	within(t, "false-positive rate of a built filter", float64(sampleHits(f, r, n))/n, p, binomialSE(p, n))
}

// TestExpectedFillSimulated: over random filters the fill averages
// 1 - (1 - 1/m)^(kn), with MurmurHash3 positions.
func TestExpectedFillSimulated(t *testing.T) {
	r := stream(12, "test expected fill")
	const filters, m, k, n = 300, 1024, 4, 150
	fills := make([]float64, filters)
	for i := range fills {
		fills[i] = filterOf(t, r, m/8, k, randomElements(r, n, 20)).Fill()
	}
	mean, sd := meanSD(fills)
	within(t, "mean fill", mean, bloom.ExpectedFill(m, k, n), sd/math.Sqrt(filters))
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// TestPairRateSimulated: a random key and its hash160 both match at p².
func TestPairRateSimulated(t *testing.T) {
	r := stream(13, "test pair rate")
	f := fullFilter(t, r, 200, 0.1)
	const n = 100000
	hits := 0
	for range n {
		key := randomBytes(r, 33)
		if f.Contains(key) && f.Contains(address.Hash160(key)) {
			hits++
		}
	}
	p := f.FilledFalsePositiveRate()
	within(t, "pair rate", float64(hits)/n, p*p, binomialSE(p*p, n))
}

// TestRecoverySimulated plays Gervais et al.'s adversary: fresh candidates
// each trial, then N picks among the positives.
func TestRecoverySimulated(t *testing.T) {
	r := stream(14, "test recovery")
	keys := syntheticWallet(r, 3)
	var els [][]byte
	for _, k := range keys {
		els = append(els, k.Elements...)
	}
	f := filterOf(t, r, 16, 2, els)
	const trials, others = 4000, 300
	var falseSum, noFalse, guessOne, guessAll float64
	for range trials {
		fp := float64(sampleHits(f, r, others))
		falseSum += fp
		if fp == 0 {
			noFalse++
		}
		guessOne += b2f(r.Float64()*(3+fp) < 3)
		guessAll += b2f(picksAllTrue(r, 3, fp))
	}
	p := f.FilledFalsePositiveRate()
	within(t, "E[F]", falseSum/trials, others*p, math.Sqrt(others*p*(1-p)/trials))
	pz := noFalseProbability(others, p)
	within(t, "P(F = 0)", noFalse/trials, pz, binomialSE(pz, trials))
	p1 := guessProbability(3, 1, others, p)
	within(t, "P_h(1)", guessOne/trials, p1, binomialSE(p1, trials))
	pn := guessProbability(3, 3, others, p)
	within(t, "P_h(N)", guessAll/trials, pn, binomialSE(pn, trials))
}

// picksAllTrue draws n of the n + f positives without replacement and
// reports whether all are the wallet's.
func picksAllTrue(r *rand.Rand, n int, f float64) bool {
	for i := range n {
		remaining := float64(n-i) + f
		if r.Float64()*remaining >= float64(n-i) {
			return false
		}
	}
	return true
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestIntersectionSimulated: a candidate matches two filters of one wallet
// with independent tweaks at the product of their rates.
func TestIntersectionSimulated(t *testing.T) {
	r := stream(15, "test intersection")
	keys := syntheticWallet(r, 50)
	fs, err := walletFilters(keys, 2, 0.15, r)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200000
	hits := 0
	for range n {
		c := randomBytes(r, 33)
		if fs[0].Contains(c) && fs[1].Contains(c) {
			hits++
		}
	}
	p := intersectionRate([]float64{fs[0].FilledFalsePositiveRate(), fs[1].FilledFalsePositiveRate()})
	within(t, "intersection rate", float64(hits)/n, p, binomialSE(p, n))
}

// TestCandidateSetSimulated places candidate scripts in random blocks and
// counts those whose every block was fetched.
func TestCandidateSetSimulated(t *testing.T) {
	r := stream(16, "test candidates")
	const h, fetched, others, trials = 200, 40, 3000, 200
	for _, a := range []int{1, 2, 3} {
		counts := make([]float64, trials)
		for i := range counts {
			got := map[int]bool{}
			for _, b := range r.Perm(h)[:fetched] {
				got[b] = true
			}
			for range others {
				counts[i] += b2f(allFetched(distinctBlocks(r, h, a), got))
			}
		}
		mean, sd := meanSD(counts)
		within(t, "consistent candidates", mean, float64(others)*consistentFraction(fetched, h, a), sd/math.Sqrt(trials))
	}
}

// distinctBlocks draws a distinct block numbers below h.
func distinctBlocks(r *rand.Rand, h, a int) []int {
	out := make([]int, 0, a)
	for len(out) < a {
		if b := r.IntN(h); !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

func allFetched(blocks []int, got map[int]bool) bool {
	for _, b := range blocks {
		if !got[b] {
			return false
		}
	}
	return true
}

// TestGolombRiceLengthSimulated builds sets of random elements with package
// gcs. The mean code length of n deltas has a standard error below 1.2/√n
// bits (the unary part's spread); prefix and padding add under 30/n.
// Tolerance: 0.03 bits at n = 20,000, over 3 standard errors. At M = 10
// the plain geometric law would miss by 0.1 bit.
func TestGolombRiceLengthSimulated(t *testing.T) {
	for _, p := range []gcs.Params{{P: 19, M: 784931}, {P: 10, M: 1533}, {P: 3, M: 10}} {
		got, err := randomSetBits(17, 20000, p)
		if err != nil {
			t.Fatal(err)
		}
		if want := gcs.RiceBits(p.P, float64(p.M)); math.Abs(got-want) > 0.03 {
			t.Errorf("bits per element of a random set at P=%d, M=%d = %.4f, want %.4f ± 0.03", p.P, p.M, got, want)
		}
	}
}

// TestLogsBloomCapacitySimulated fills real logsBlooms with n random values
// and tests fresh values against them.
func TestLogsBloomCapacitySimulated(t *testing.T) {
	r := stream(18, "test logsBloom")
	probes := make([]ethlogs.Value, 20000)
	for i := range probes {
		probes[i] = ethlogs.ValueOf(randomBytes(r, 32))
	}
	const blooms = 30
	for _, n := range []int{100, 430, 1080} {
		rates := make([]float64, blooms)
		for i := range rates {
			var b ethlogs.Bloom
			for range n {
				b.Add(randomBytes(r, 32))
			}
			for _, v := range probes {
				rates[i] += b2f(b.TestValue(v)) / float64(len(probes))
			}
		}
		mean, sd := meanSD(rates)
		within(t, "logsBloom rate", mean, expectedFPRate(ethBits, ethHashes, float64(n)), sd/math.Sqrt(blooms))
	}
}

// TestRealHeadersSampled: on every embedded mainnet header, random values
// test positive at fill³.
func TestRealHeadersSampled(t *testing.T) {
	blocks, err := ethAnalysis(19)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if p := b.fp1(); p > 0 && p < 1 {
			within(t, "header "+strconv.FormatUint(b.number, 10), b.sampled, p, binomialSE(p, ethSamples))
		}
	}
}
