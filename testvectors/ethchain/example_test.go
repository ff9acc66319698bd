package ethchain_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/testvectors/ethchain"
)

// A chain is the same on every machine: its blocks, logs and blooms.
func Example() {
	c, err := ethchain.Memory(3)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	for n := uint64(1); n <= c.Head; n++ {
		h := c.Header(n)
		logs := 0
		for _, r := range c.GetReceiptsByHash(h.Hash()) {
			logs += len(r.Logs)
		}
		fmt.Printf("block %d: %d logs, bloom %.0f %% full\n", n, logs, 100*ethchain.BloomFill(&h.Bloom))
	}
	for _, q := range ethchain.Queries() {
		fmt.Println(q.Name, len(q.Addresses), "addresses", len(q.Topics), "topic positions")
	}
	// Output:
	// block 1: 235 logs, bloom 46 % full
	// block 2: 250 logs, bloom 46 % full
	// block 3: 421 logs, bloom 61 % full
	// token 1 addresses 1 topic positions
	// rare 1 addresses 1 topic positions
	// wallet 0 addresses 3 topic positions
}
