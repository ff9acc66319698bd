package bip37

import (
	"fmt"
	"math"
)

// Protocol limits enforced by Bitcoin Core (MAX_BLOOM_FILTER_SIZE,
// MAX_HASH_FUNCS, MAX_SCRIPT_ELEMENT_SIZE). A peer that sends a filterload or
// filteradd beyond them is disconnected.
const (
	MaxFilterSize    = 36000 // bytes of filter data in a filterload
	MaxHashFuncs     = 50    // hash functions in a filterload
	MaxFilterAddSize = 520   // bytes of data in a filteradd
)

// Core's literals (bloom.cpp), kept as written rather than as math.Ln2 so
// that the float64 arithmetic below rounds exactly as Core's double does.
const (
	coreLn2Squared = 0.4804530139182014246671025263266649717305529515945455
	coreLn2        = 0.6931471805599453094172321214581765680755001343602552
)

// Params returns the filter size in bytes and the number of hash functions
// that Bitcoin Core's CBloomFilter(elements, fpRate, …) constructor derives:
//
//	size      = min(⌊-1/ln²2 · elements · ln fpRate⌋, 36000·8) / 8
//	hashFuncs = min(⌊(size·8 / elements) · ln 2⌋, 50)
//
// where size·8 / elements is an integer division. Most Bloom libraries
// (btcd, bitcoinj) divide in floating point and so derive one more hash
// function for about a fifth of (elements, fpRate) pairs; the filters still
// interoperate because a filter carries its own count.
//
// It returns an error for elements = 0, fpRate outside (0, 1], or parameters
// that yield an empty filter or no hash function (Core would build a filter
// that matches everything).
func Params(elements uint32, fpRate float64) (size int, hashFuncs uint32, err error) {
	if elements == 0 {
		return 0, 0, fmt.Errorf("bip37: a filter for 0 elements")
	}
	if !(fpRate > 0 && fpRate <= 1) {
		return 0, 0, fmt.Errorf("bip37: false-positive rate %v outside (0, 1]", fpRate)
	}
	size, hashFuncs = coreParams(elements, fpRate)
	if size == 0 {
		return 0, 0, fmt.Errorf("bip37: %d elements at false-positive rate %v give an empty filter, which matches everything", elements, fpRate)
	}
	if hashFuncs == 0 {
		return 0, 0, fmt.Errorf("bip37: %d elements in %d bytes give 0 hash functions, a filter that matches everything", elements, size)
	}
	return size, hashFuncs, nil
}

// coreParams is Core's arithmetic, operation for operation; elements > 0
// and 0 < fpRate <= 1.
func coreParams(elements uint32, fpRate float64) (size int, hashFuncs uint32) {
	ln2Squared, ln2 := float64(coreLn2Squared), float64(coreLn2)
	bits := -1 / ln2Squared * float64(elements) * math.Log(fpRate)
	size = int(min(truncUint32(bits), MaxFilterSize*8) / 8)
	k := truncUint32(float64(uint64(size)*8/uint64(elements)) * ln2)
	return size, min(k, MaxHashFuncs)
}

// truncUint32 is C++'s (unsigned int) cast of a non-negative double, with
// values beyond the range (undefined in C++) saturated: either way they are
// clamped to the protocol maximum right after.
func truncUint32(x float64) uint32 {
	if x >= math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(x)
}
