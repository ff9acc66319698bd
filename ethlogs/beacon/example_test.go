package beacon_test

import (
	"context"
	"fmt"
	"log"
	"math/big"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/ethereum/go-ethereum/core/types"
)

func ExampleAnchor() {
	// A synthetic beacon chain, signed by real BLS sync committees, whose
	// newest finalized block carries this execution block.
	block := &types.Header{Number: big.NewInt(1000), Difficulty: new(big.Int), BaseFee: big.NewInt(7), GasLimit: 30_000_000}
	chain, err := beacontest.NewChain(beacontest.Options{Finalized: block})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := chain.Serve(beacontest.Honest, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()

	// Against a real network: Chain: beacon.Mainnet(), a beacon node's
	// URL, and a finalized block root from a source you trust.
	f, err := beacon.Anchor(context.Background(), beacon.Config{
		URL:        srv.URL,
		Chain:      chain.Config(),
		Checkpoint: chain.Checkpoint(),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("finalized beacon slot %d (%s), execution block %d\n", f.Slot, f.Fork, f.Payload.Number)
	fmt.Println("anchor is the block:", f.BlockHash == block.Hash())
	// Output:
	// finalized beacon slot 87840 (fulu), execution block 1000
	// anchor is the block: true
}
