package event_test

import (
	"fmt"
	"math/big"

	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/ethereum/go-ethereum/common"
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
