package scan_test

import (
	"context"
	"fmt"
	"math/big"
	"os"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Example_eventFilter scans the demo chain (an in-process go-ethereum
// node on 127.0.0.1) for the DEMO token's Transfers to one account, asked
// for by value as "chainsieve eth scan --arg to=…" asks, and fills a
// struct for each log.
func Example_eventFilter() {
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

	transfer, err := event.Parse("Transfer(address indexed from, address indexed to, uint256 value)")
	if err != nil {
		panic(err)
	}
	bob := demo.Users[1]
	f, err := transfer.Filter(event.Condition{Name: "to", Values: []string{bob.Hex()}})
	if err != nil {
		panic(err)
	}
	q := ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}}
	if err := f.Apply(&q); err != nil {
		panic(err)
	}

	type Transfer struct {
		From  common.Address
		To    common.Address
		Value *big.Int
		Block uint64 `event:"-"`
	}
	var got []Transfer
	client := scan.NewClient(chain.URL)
	defer client.Close() // before the node's: an unused connection holds its shutdown for 5 s
	_, err = scan.Run(context.Background(), scan.Config{
		Client:   client,
		Query:    q,
		IndexDir: index,
		Emit: func(logs []*types.Log) error {
			for _, l := range logs {
				t := Transfer{Block: l.BlockNumber}
				if err := f.Event.UnpackLog(&t, l); err != nil {
					return err
				}
				got = append(got, t)
			}
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	total, toBob := new(big.Int), true
	for _, t := range got {
		total.Add(total, t.Value)
		toBob = toBob && t.To == bob
	}
	fmt.Printf("%d transfers, all to %s: %t, %s DEMO units in all\n", len(got), bob.Hex()[:10], toBob, total)
	fmt.Printf("first: block %d, from %s, value %s\n", got[0].Block, got[0].From.Hex(), got[0].Value)
	// Output:
	// 5 transfers, all to 0x3440326f: true, 2386440000000000000000 DEMO units in all
	// first: block 49, from 0x5dad7600C5D89fE3824fFa99ec1c3eB8BF3b0501, value 521918000000000000000
}
