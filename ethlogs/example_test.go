package ethlogs_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func ExampleBloom() {
	usdc := common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")
	var b ethlogs.Bloom
	b.Add(usdc[:])
	fmt.Println(b.Test(usdc[:]), b.Count(), ethlogs.ValueOf(usdc[:]).Bits())
	// Output: true 3 [856 1467 717]
}

func ExampleParseQuery() {
	q, err := ethlogs.ParseQuery([]byte(`{
		"fromBlock": "0x1", "toBlock": "latest",
		"address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
		"topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", null, [null, "0x01"]]
	}`))
	if err != nil {
		panic(err)
	}
	transfer := &types.Log{
		BlockNumber: 5,
		Address:     q.Addresses[0],
		Topics:      []common.Hash{q.Topics[0][0], {1}, {2}},
	}
	fmt.Println(q.Match(transfer), len(q.Topics), q.Topics[2] == nil)
	// Output: true 3 true
}

func ExampleQuery_Compile() {
	var bloom ethlogs.Bloom
	transfer := common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
	bloom.Add(transfer[:])
	m := (&ethlogs.Query{Topics: [][]common.Hash{{transfer}}}).Compile()
	empty := ethlogs.Bloom{}
	fmt.Println(m.Test(&bloom), m.Test(&empty))
	// Output: true false
}

// ExampleVerifyReceipts checks the receipts of mainnet block 15537393 (the
// last proof-of-work block) against its header, then lists its logs.
func ExampleVerifyReceipts() {
	data, _ := testvectors.Read("ethlogs/mainnet-15537393.json")
	f, _ := testvectors.ParseEthBlocks(data)
	b := f.Blocks[0]
	header, hash, err := ethlogs.DecodeHeader(b.HeaderRLP)
	if err != nil {
		panic(err)
	}
	raws := make([][]byte, len(b.Receipts))
	for i, r := range b.Receipts {
		raws[i] = r.Raw
	}
	receipts, err := ethlogs.DecodeReceipts(raws)
	if err != nil {
		panic(err)
	}
	fmt.Println(hash.Hex()[:10], ethlogs.VerifyReceipts(header, receipts))
	for _, l := range ethlogs.Logs(header, receipts) {
		fmt.Println(l.BlockNumber, l.Index, l.Address.Hex())
	}
	receipts[0].Logs = nil // a node that withholds the log
	fmt.Println(ethlogs.VerifyReceipts(header, receipts) != nil)
	// Output:
	// 0x55b11b91 <nil>
	// 15537393 0 0x30F7bf69d92828441F5a6bfcF818df25DEb2C4b4
	// true
}
