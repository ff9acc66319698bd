// Package benchdata makes header blooms with mainnet saturation for
// benchmarks and tests of package ethlogs and its index. It reads the
// embedded vectors, so it lives under testvectors, above ethlogs: only
// ethlogs' _test.go files import it.
package benchdata

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common"
)

// MainnetBlooms returns the header blooms of the published mainnet headers
// (testvectors ethlogs/mainnet-headers-portal.json): 0.7% to 100% of bits
// set.
func MainnetBlooms() ([]ethlogs.Bloom, error) {
	data, err := testvectors.Read("ethlogs/mainnet-headers-portal.json")
	if err != nil {
		return nil, err
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		return nil, err
	}
	out := make([]ethlogs.Bloom, len(f.Blocks))
	for i, b := range f.Blocks {
		copy(out[i][:], b.LogsBloom)
	}
	return out, nil
}

// Blooms returns n header blooms whose fills are drawn from the published
// mainnet headers: each is one of them (the all-ones Merge block left out,
// being one block in 24 million) with its 64-bit words in a random rotation
// and each word rotated by a random amount, which keeps its popcount exactly
// and moves its bits. The same n and seed give the same blooms.
func Blooms(n int, seed uint64) ([]ethlogs.Bloom, error) {
	real, err := MainnetBlooms()
	if err != nil {
		return nil, err
	}
	var src [][32]uint64
	for _, b := range real {
		if b.Count() == 8*ethlogs.BloomLength {
			continue
		}
		var w [32]uint64
		for i := range w {
			w[i] = binary.BigEndian.Uint64(b[8*i:])
		}
		src = append(src, w)
	}
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	out := make([]ethlogs.Bloom, n)
	for i := range out {
		s, shift, rot := &src[r.IntN(len(src))], r.IntN(32), r.Uint64()
		for j := range 32 {
			w := bits.RotateLeft64(s[(j+shift)%32], int(rot>>(2*j)&63))
			binary.BigEndian.PutUint64(out[i][8*j:], w)
		}
	}
	return out, nil
}

// Hash returns a synthetic block hash for block i of a benchmark chain:
// block i's parent is Hash(i), the zero hash for the first block.
func Hash(i uint64) common.Hash {
	var h common.Hash
	if i > 0 {
		binary.BigEndian.PutUint64(h[:], i)
	}
	return h
}
