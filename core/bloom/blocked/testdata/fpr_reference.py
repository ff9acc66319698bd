# Independent reference for blocked.FalsePositiveRate: inclusion-exclusion over
# the query's distinct positions instead of the occupancy recurrence, summed
# in 60-digit arithmetic over every i from 0 to 4*lam + 200.
from mpmath import mp, mpf, binomial, exp, log, loggamma, stirling2, factorial
mp.dps = 60
B = 512
def block_rate(k, i):
    t = k * i
    total = mpf(0)
    for s in range(1, k + 1):
        ps = binomial(B, s) * stirling2(k, s) * factorial(s) / mpf(B) ** k
        inner = mpf(0)
        for j in range(0, s + 1):
            inner += (-1) ** j * binomial(s, j) * (1 - mpf(j) / B) ** t
        total += ps * inner
    return total
def fpr(m, k, n):
    lam = mpf(n) * B / m
    total = mpf(0)
    for i in range(0, int(4 * lam + 200)):
        total += exp(i * log(lam) - lam - loggamma(i + 1)) * block_rate(k, i)
    return total
for m, k, n in [(512*1933, 6, 100000), (512*7320, 16, 100000), (512*10, 7, 1000), (512, 3, 10), (512, 1, 1)]:
    print(m, k, n, mp.nstr(fpr(m, k, n), 17))

# The sizes TestNewShape expects: the smallest block count holding n elements
# at rate p for each k (bisection; the rate falls as blocks are added).
def smallest(n, k, p, lo, hi):
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fpr(512 * mid, k, n) <= p:
            hi = mid
        else:
            lo = mid
    return hi
for n, p, ks, lo, hi in [(100000, mpf('0.01'), [6, 7], 1800, 2100), (100000, mpf('0.001'), [9, 10], 2900, 3200),
                         (100000, 1 / mpf(784931), [16, 17], 7200, 7600), (1000, mpf('0.01'), [4, 5, 6, 7], 10, 40)]:
    print(n, mp.nstr(p, 8), [(k, smallest(n, k, p, lo, hi)) for k in ks])
