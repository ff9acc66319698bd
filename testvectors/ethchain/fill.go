package ethchain

import (
	"math/bits"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/core/types"
)

// Fill is how full one header bloom is.
type Fill struct {
	Number uint64
	Logs   int     // the block's logs
	Fill   float64 // fraction of the 2048 bits set
}

// BloomFill returns the fraction of b's 2048 bits that are set.
func BloomFill(b *types.Bloom) float64 {
	n := 0
	for _, x := range b {
		n += bits.OnesCount8(x)
	}
	return float64(n) / float64(8*types.BloomByteLength)
}

// MainnetFill returns the fill of the header blooms of the published
// mainnet headers embedded in testvectors (ethlogs/mainnet-headers-portal.json).
func MainnetFill() ([]Fill, error) {
	data, err := testvectors.Read("ethlogs/mainnet-headers-portal.json")
	if err != nil {
		return nil, err
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		return nil, err
	}
	out := make([]Fill, len(f.Blocks))
	for i, b := range f.Blocks {
		out[i] = Fill{Number: b.Number, Logs: b.LogCount, Fill: BloomFill((*types.Bloom)(b.LogsBloom))}
	}
	return out, nil
}
