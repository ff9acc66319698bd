package privacy

import (
	"hash/fnv"
	"math/rand/v2"
)

// stream returns a generator for one use of randomness in the report,
// derived from the seed and the use's name: each part of the report draws
// from its own stream, so that changing one part leaves the numbers of the
// others as they were.
func stream(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// randomBytes returns n bytes from r.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
