package ethlogs

import (
	"github.com/ethereum/go-ethereum/common"
)

// GethBloomFilter exports the go-ethereum prefilter restatement to the
// external tests in package ethlogs_test.
var GethBloomFilter = gethBloomFilter

// GethHashedScan exports the hash-once go-ethereum reference as a linear
// scan: the numbers of the blocks whose blooms pass, blooms[i] being block
// first+i.
func GethHashedScan(addresses []common.Address, topics [][]common.Hash) func(dst []uint64, first uint64, blooms []Bloom) []uint64 {
	g := newGethHashed(addresses, topics)
	return func(dst []uint64, first uint64, blooms []Bloom) []uint64 {
		for i := range blooms {
			if g.test(blooms[i].Geth()) {
				dst = append(dst, first+uint64(i))
			}
		}
		return dst
	}
}
