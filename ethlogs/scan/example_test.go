package scan_test

import (
	"context"
	"fmt"
	"os"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// Example scans the demo chain, served over HTTP on 127.0.0.1 by an
// in-process go-ethereum node, for the DEMO token's Transfer events.
func Example() {
	chain, err := demo.Start(demo.DefaultBlocks)
	if err != nil {
		panic(err)
	}
	defer chain.Close()
	index, err := os.MkdirTemp("", "index")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(index)
	client := scan.NewClient(chain.URL)
	defer client.Close() // before the node's: an unused connection holds its shutdown for 5 s

	transfer := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	var first *types.Log
	st, err := scan.Run(context.Background(), scan.Config{
		Client:   client,
		Query:    ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}, Topics: [][]common.Hash{{transfer}}},
		IndexDir: index,
		Emit: func(logs []*types.Log) error {
			if first == nil {
				first = logs[0]
			}
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Printf("blocks %d to %d, anchored at the node's finalized block %d\n", st.From, st.To, st.AnchorNumber)
	fmt.Printf("%d bloom candidates, %d blocks with matches, %d logs\n", st.Candidates, st.Matched, st.Logs)
	fmt.Printf("first: block %d, transaction %d, log %d\n", first.BlockNumber, first.TxIndex, first.Index)
	// Output:
	// blocks 0 to 300, anchored at the node's finalized block 268
	// 65 bloom candidates, 61 blocks with matches, 70 logs
	// first: block 14, transaction 0, log 0
}
