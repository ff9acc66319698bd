package cfscan_test

import (
	"context"
	"fmt"
	"log"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// A wallet's history from one BIP157 peer. The example needs a regtest
// node on 127.0.0.1:18444 (bitcoind -peerblockfilters, or btcd), so it is
// compiled, not run.
func ExampleRun() {
	ctx := context.Background()
	s, err := spv.Dial(ctx, "127.0.0.1:18444", spv.Config{Network: spv.Regtest, Services: wire.SFNodeCF})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	chain, err := spv.NewChain(spv.Regtest) // keep it: the next scan syncs only new headers
	if err != nil {
		log.Fatal(err)
	}
	addr, err := address.DecodeAddress("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", spv.Regtest.Params)
	if err != nil {
		log.Fatal(err)
	}
	watch, err := spv.NewWatch([]address.Address{addr}, nil)
	if err != nil {
		log.Fatal(err)
	}
	stats, err := cfscan.Run(ctx, cfscan.Config{Session: s, Chain: chain, Watch: watch, To: -1,
		Emit: func(tx spv.Tx) error {
			fmt.Println(tx.Height, tx.ID, len(tx.Outputs), "outputs to the wallet")
			return nil
		}})
	if err != nil {
		log.Fatal(err) // errors.Is(err, spv.ErrMisbehaving): try another peer
	}
	fmt.Println(stats.Blocks, "blocks,", stats.FalsePositives, "false positives,", stats.Traffic.BytesReceived, "bytes")
}
