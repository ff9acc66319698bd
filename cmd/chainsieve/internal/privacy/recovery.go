package privacy

import "math"

// The adversary of Gervais et al. (ACSAC 2014) holds a wallet's filter and
// tests every one of S candidate addresses against it. The wallet's N
// addresses always test positive; each of the S - N others is a false
// positive independently with the filter's rate p, so the number of false
// positives is F ~ Binomial(S - N, p). Knowing N (estimated from the
// filter's fill), the adversary names N of the N + F positives at random.

// expectedFalse returns E[F] = (S - N)·p.
func expectedFalse(others, p float64) float64 { return others * p }

// noFalseProbability returns P(F = 0) = (1 - p)^(S-N): the positives are
// exactly the wallet's addresses.
func noFalseProbability(others, p float64) float64 {
	return math.Exp(others * math.Log1p(-p))
}

// guessProbability returns P_h(j) = E[C(N, j) / C(N+F, j)], the probability
// that j addresses drawn at random from the N + F positives all belong to
// the wallet (Gervais et al.'s P_h(j), with F's distribution summed over
// exactly rather than replaced by its mean). P_h(1) is the chance that one
// positive is the wallet's, P_h(N) that the adversary names the whole
// wallet.
func guessProbability(n, j int, others, p float64) float64 {
	if p <= 0 || others == 0 {
		return 1
	}
	if p >= 1 {
		return math.Exp(logChooseRatio(n, j, others))
	}
	return binomialExpectLog(others, p, func(f float64) float64 { return logChooseRatio(n, j, f) })
}

// logChooseRatio returns log(C(n, j) / C(n+f, j)).
func logChooseRatio(n, j int, f float64) float64 {
	N, J := float64(n), float64(j)
	l1, _ := math.Lgamma(N + 1)
	l2, _ := math.Lgamma(N - J + 1)
	l3, _ := math.Lgamma(N + f + 1)
	l4, _ := math.Lgamma(N + f - J + 1)
	return l1 - l2 - l3 + l4
}

// binomialExpectLog returns E[e^lg(F)] for F ~ Binomial(trials, p),
// 0 < p < 1, and lg non-increasing, summing every term whose probability is not negligible:
// F from max(0, mean - 40 sd - 40) to min(trials, mean + 40 sd + 40), each
// term computed in log space so that neither factor underflows alone.
func binomialExpectLog(trials, p float64, lg func(f float64) float64) float64 {
	mean, sd := trials*p, math.Sqrt(trials*p*(1-p))
	lo := max(0, math.Floor(mean-40*sd-40))
	if lg(lo) < minLog {
		// lg decreases in the models here, so every term past lo is below
		// e^minLog and those before lo are below e^-800 together.
		return 0
	}
	hi := min(trials, math.Ceil(mean+40*sd+40))
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for f := lo; f <= hi; f++ {
		sum += math.Exp(logBinomialPMF(trials, f, lp, lq) + lg(f))
	}
	return sum
}

// minLog is the logarithm below which a float64 underflows to zero.
const minLog = -745.2

// logBinomialPMF returns log P(F = f) for F ~ Binomial(n, p) given log p and
// log(1-p).
func logBinomialPMF(n, f, lp, lq float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(f + 1)
	c, _ := math.Lgamma(n - f + 1)
	return a - b - c + f*lp + (n-f)*lq
}

// pluginGuessProbability returns Gervais et al.'s own form of P_h(N): the
// expected false positives S_f = (S - N)·p plugged in for F,
// Π_{i<N} (N - i)/(N + S_f - i). It ignores F's spread: C(N, N)/C(N+f, N)
// is convex in f, so by Jensen's inequality the plug-in understates the
// exact [guessProbability] when S_f is near or above 1.
func pluginGuessProbability(n int, sf float64) float64 {
	l := 0.0
	for i := range n {
		l += math.Log(float64(n-i)) - math.Log(float64(n-i)+sf)
	}
	return math.Exp(l)
}

// intersectionRate returns the rate at which a non-wallet candidate tests
// positive in every one of K filters built with independent tweaks: the
// product of their rates.
func intersectionRate(rates []float64) float64 {
	p := 1.0
	for _, r := range rates {
		p *= r
	}
	return p
}
