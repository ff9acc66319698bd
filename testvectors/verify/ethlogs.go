package verify

import (
	"fmt"

	"github.com/chainsieve/chainsieve/testvectors"
)

// Until package ethlogs lands (issue 5) these checkers parse their files and
// report every vector as unchecked.
const awaitingEthlogs = "not checkable yet: package ethlogs is not implemented"

func checkEthBlocks(data []byte) ([]Result, error) {
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(f.Blocks))
	for i, b := range f.Blocks {
		names[i] = fmt.Sprintf("block %d", b.Number)
	}
	return unchecked(awaitingEthlogs, names...), nil
}

func checkEthBloom9(data []byte) ([]Result, error) {
	f, err := testvectors.ParseEthBloom9(data)
	if err != nil {
		return nil, err
	}
	var names []string
	if f.TestBloom != nil {
		names = append(names, "TestBloom")
	}
	if f.Extensive != nil {
		names = append(names, "TestBloomExtensively")
	}
	if f.CreateBloom != nil {
		names = append(names, "BenchmarkCreateBloom_rSmall")
	}
	for _, p := range f.BitPositions {
		names = append(names, "bits of "+p.Label)
	}
	return unchecked(awaitingEthlogs, names...), nil
}
