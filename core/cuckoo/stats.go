package cuckoo

import "math"

// Stats describes a filter's shape and load.
type Stats struct {
	Bits            uint64 // buckets·4·f, the table as encoded
	Buckets         uint64
	FingerprintBits int
	Items           uint64 // see [Filter.Count]
	// LoadFactor is Items / (4·Buckets), the fraction of slots in use.
	LoadFactor float64
	// FalsePositiveRate is the expected rate at the current load, see
	// [falsePositiveRate].
	FalsePositiveRate float64
}

// Stats returns the filter's statistics. It does not scan the table.
func (f *Filter) Stats() Stats {
	load := f.load()
	return Stats{
		Bits:              f.t.bits(),
		Buckets:           f.t.buckets,
		FingerprintBits:   int(f.t.f),
		Items:             f.items,
		LoadFactor:        load,
		FalsePositiveRate: falsePositiveRate(int(f.t.f), load),
	}
}

// falsePositiveRate returns 1 − (1 − 1/(2^f − 1))^(8·load): a lookup of a
// non-member compares its fingerprint, uniform on [1, 2^f − 1], with the
// 8·load fingerprints expected in its two buckets. It is about 8·load/2^f,
// the ε ≤ 2b/2^f of Fan et al. (2014) scaled by the load.
func falsePositiveRate(f int, load float64) float64 {
	miss := math.Log1p(-1 / (math.Exp2(float64(f)) - 1))
	return -math.Expm1(2 * slotsPerBucket * load * miss)
}
