package bloomscan_test

import (
	"context"
	"fmt"
	"log"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// A wallet's history from one BIP37 peer, from height 200 on, with a coin
// received before. The example needs a regtest node on 127.0.0.1:18444
// (bitcoind -peerbloomfilters, or btcd), so it is compiled, not run.
func ExampleRun() {
	ctx := context.Background()
	s, err := spv.Dial(ctx, "127.0.0.1:18444", spv.Config{Network: spv.Regtest, Services: wire.SFNodeBloom})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	chain, err := spv.NewChain(spv.Regtest)
	if err != nil {
		log.Fatal(err)
	}
	addr, err := address.DecodeAddress("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", spv.Regtest.Params)
	if err != nil {
		log.Fatal(err)
	}
	txid, err := chainhash.NewHashFromStr("4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b")
	if err != nil {
		log.Fatal(err)
	}
	watch, err := spv.NewWatch([]address.Address{addr}, []wire.OutPoint{{Hash: *txid, Index: 0}})
	if err != nil {
		log.Fatal(err)
	}
	stats, err := bloomscan.Run(ctx, bloomscan.Config{Session: s, Chain: chain, Watch: watch, From: 200, To: -1,
		FPRate: 0.001, Emit: func(tx spv.Tx) error {
			fmt.Println(tx.Height, tx.ID, len(tx.Inputs), "inputs,", len(tx.Outputs), "outputs of the wallet")
			return nil
		}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(stats.TxsReceived, "transactions received,", stats.FalsePositives, "false positives")
}
