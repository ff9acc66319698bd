package scan_test

import (
	"context"
	"fmt"
	"math/big"
	"os"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// ExampleAnchor chooses the block a scan of the demo chain is verified
// from, three ways.
func ExampleAnchor() {
	chain, err := demo.Start(demo.DefaultBlocks) // head 300, finalized 268
	if err != nil {
		panic(err)
	}
	defer chain.Close()
	index, err := os.MkdirTemp("", "index")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(index)
	// Close the clients before the node: a connection dialled and never
	// used holds an HTTP server's shutdown for 5 s.
	client, confirm := scan.NewClient(chain.URL), scan.NewClient(chain.URL)
	defer client.Close()
	defer confirm.Close()
	scanWith := func(from *scan.Block, anchor scan.Anchor) (scan.Stats, error) {
		return scan.Run(context.Background(), scan.Config{
			Client:    client,
			Query:     ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}},
			FromBlock: from,
			Anchor:    anchor,
			IndexDir:  index,
			Emit:      func([]*types.Log) error { return nil },
		})
	}

	// The node's finalized block, confirmed by another endpoint (here the
	// same node; in practice another provider); the last 50 blocks.
	latest50, _ := scan.ParseBlock("latest-50")
	st, err := scanWith(latest50, scan.Anchor{Confirm: []*scan.Client{confirm}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("blocks %d to %d; anchor %d, confirmed by %d endpoint; %d blocks after it\n",
		st.From, st.To, st.AnchorNumber, len(st.Confirmations), st.Unfinalized)

	// A block you trust, by number and hash (from a checkpoint, an
	// explorer, a second provider).
	pinned, _ := scan.ParseBlock("268:" + st.AnchorHash.Hex())
	st, err = scanWith(nil, scan.Anchor{Block: pinned})
	fmt.Printf("pinned: anchor %d, %v\n", st.AnchorNumber, err)
	wrong, _ := scan.ParseBlock("200:" + st.AnchorHash.Hex())
	_, err = scanWith(nil, scan.Anchor{Block: wrong})
	fmt.Println("wrong number refused:", err != nil)

	// The beacon chain's word: a light client proves the finalized block
	// from a trusted checkpoint (a synthetic beacon chain here; against
	// mainnet, Chain: beacon.Mainnet(), a beacon node's URL and a root you
	// trust).
	el, _ := ethclient.Dial(chain.URL)
	defer el.Close()
	fin, _ := el.HeaderByNumber(context.Background(), big.NewInt(int64(chain.Finalized)))
	bc, err := beacontest.NewChain(beacontest.Options{Finalized: fin})
	if err != nil {
		panic(err)
	}
	srv, err := bc.Serve(beacontest.Honest, 0)
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	st, err = scanWith(nil, scan.Anchor{Beacon: &beacon.Config{URL: srv.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("anchor %d, finalized at beacon slot %d, signed by %d of 512\n", st.AnchorNumber, st.Beacon.Slot, st.Beacon.Signers)
	// Output:
	// blocks 250 to 300; anchor 268, confirmed by 1 endpoint; 32 blocks after it
	// pinned: anchor 268, <nil>
	// wrong number refused: true
	// anchor 268, finalized at beacon slot 87840, signed by 512 of 512
}
