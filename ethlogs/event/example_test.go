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
