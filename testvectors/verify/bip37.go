package verify

import (
	"fmt"

	"github.com/chainsieve/chainsieve/testvectors"
)

// Until package bip37 lands (issue 3) these checkers parse their files and
// report every vector as unchecked.
const awaitingBIP37 = "not checkable yet: package bip37 is not implemented"

func checkMurmur3(data []byte) ([]Result, error) {
	f, err := testvectors.ParseMurmur3(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(f.Vectors))
	for i, v := range f.Vectors {
		names[i] = fmt.Sprintf("seed %08x data %q", uint32(v.Seed), v.Data.String())
	}
	return unchecked(awaitingBIP37, names...), nil
}

func checkBIP37Filter(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37Filter(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(f.Vectors))
	for i, v := range f.Vectors {
		names[i] = v.Name
	}
	return unchecked(awaitingBIP37, names...), nil
}

func checkBIP37Match(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37Match(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(f.Vectors))
	for i, v := range f.Vectors {
		names[i] = v.Name
	}
	return unchecked(awaitingBIP37, names...), nil
}

func checkBIP37MerkleBlock(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(f.Vectors))
	for i, v := range f.Vectors {
		names[i] = v.Name
	}
	return unchecked(awaitingBIP37, names...), nil
}
