package gcs

import (
	"math/rand/v2"
	"strconv"
)

var basicParams = Params{P: BasicP, M: BasicM}

// randomItems returns n random byte strings of 1 to 40 bytes, scripts' sizes.
func randomItems(r *rand.Rand, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		b := make([]byte, 1+r.IntN(40))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		out[i] = b
	}
	return out
}

func randomKey(r *rand.Rand) Key {
	var k Key
	for i := range k {
		k[i] = byte(r.Uint32())
	}
	return k
}

// series returns prefix+i for i in [0, n).
func series(prefix string, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte(prefix + strconv.Itoa(i))
	}
	return out
}

// exactSet is the reference model of a filter: the hashed values of its
// distinct elements, computed without any decoding.
func exactSet(p Params, key Key, elements [][]byte) (map[uint64]bool, uint64) {
	distinct := map[string]bool{}
	for _, e := range elements {
		distinct[string(e)] = true
	}
	f := uint64(len(distinct)) * p.M
	set := map[uint64]bool{}
	for e := range distinct {
		set[key.HashToRange([]byte(e), f)] = true
	}
	return set, f
}

// nonMembers returns n items "nonmember-i" whose hashed values are not in
// set: queries that cannot exit early.
func nonMembers(key Key, set map[uint64]bool, f uint64, n int) [][]byte {
	var out [][]byte
	for i := 0; len(out) < n; i++ {
		it := []byte("nonmember-" + strconv.Itoa(i))
		if !set[key.HashToRange(it, f)] {
			out = append(out, it)
		}
	}
	return out
}
