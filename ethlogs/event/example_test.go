package event_test

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

func Example() {
	e, err := event.Parse("Transfer(address indexed from, address indexed to, uint256 value)")
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Signature())
	fmt.Println(e.Topic())

	from := common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	to := common.HexToAddress("0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
	topics := []common.Hash{e.Topic(), common.BytesToHash(from[:]), common.BytesToHash(to[:])}
	data := common.BigToHash(big.NewInt(1_000_000)).Bytes()
	args, err := e.Decode(topics, data)
	if err != nil {
		panic(err)
	}
	for _, a := range args {
		fmt.Printf("%s %s = %s\n", a.Type, a.Name, a.Value)
	}
	// Output:
	// Transfer(address,address,uint256)
	// 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef
	// address from = 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed
	// address to = 0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359
	// uint256 value = 1000000
}

// Example_scanTransfers scans the demo chain (an in-process go-ethereum
// node on 127.0.0.1) for the DEMO token's Transfers to one account, asked
// for by value as "chainsieve eth scan --arg to=…" asks, and fills a
// struct for each log.
func Example_scanTransfers() {
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
	_, err = scan.Run(context.Background(), scan.Config{
		Client:   scan.NewClient(chain.URL),
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

// ExampleEvent_FilterPositional asks cast's way, with a signature that
// does not say which parameters are indexed: the filter says what it
// assumed, and decodes with that layout.
func ExampleEvent_FilterPositional() {
	e, err := event.Parse("Transfer(address,address,uint256)")
	if err != nil {
		panic(err)
	}
	f, err := e.FilterPositional("null", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359")
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Assumed)
	for i, pos := range f.Topics {
		fmt.Println(i, pos)
	}
	// Output:
	// Transfer(address,address,uint256) marks no parameter indexed; assuming arg0 at topic 1, arg1 at topic 2 (addresses and the parameters asked for are taken as indexed). Mark the indexed parameters in the signature if that is not so.
	// 0 [0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef]
	// 1 []
	// 2 [0x000000000000000000000000fb6916095ca1df60bb79ce92ce3ea74c37c5d359]
}

func ExampleABI_Event() {
	a, err := event.ParseABI([]byte(`[
		{"type":"event","name":"Approval","anonymous":false,"inputs":[
			{"name":"owner","type":"address","indexed":true},
			{"name":"spender","type":"address","indexed":true},
			{"name":"value","type":"uint256","indexed":false}]}]`))
	if err != nil {
		panic(err)
	}
	e, err := a.Event("Approval")
	if err != nil {
		panic(err)
	}
	fmt.Println(e)
	fmt.Println(e.Topic())
	// Output:
	// Approval(address indexed owner, address indexed spender, uint256 value)
	// 0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925
}
