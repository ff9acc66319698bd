package index_test

import (
	"fmt"
	"math/big"
	"os"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func Example() {
	dir, _ := os.MkdirTemp("", "ethlogs-index")
	defer os.RemoveAll(dir)
	x, err := index.Create(dir, 100)
	if err != nil {
		panic(err)
	}
	transfer := common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
	parent := common.Hash{0xaa} // the anchor's parent
	for n := int64(100); n < 110; n++ {
		h := &types.Header{Number: big.NewInt(n), ParentHash: parent, Difficulty: big.NewInt(0)}
		if n%4 == 0 {
			ethlogs.FromGeth(&h.Bloom).Add(transfer[:])
		}
		if err := x.Append(h); err != nil {
			panic(err)
		}
		parent = h.Hash()
	}
	m := (&ethlogs.Query{Topics: [][]common.Hash{{transfer}}}).Compile()
	found, _ := x.Candidates(nil, m, 0, 1000)
	fmt.Println(found)

	x.Truncate(105) // a reorg: blocks 105 and above are gone
	head, _, _ := x.Head()
	found, _ = x.Candidates(nil, m, 0, 1000)
	fmt.Println(head, found)
	x.Close()
	// Output:
	// [100 104 108]
	// 104 [100 104]
}
