package spv_test

import (
	"fmt"
	"os"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// A chain accepts a header only with its proof of work: here Bitcoin's
// block 1, then the same header with another nonce.
func ExampleChain_Connect() {
	c, err := spv.NewChain(spv.Mainnet)
	if err != nil {
		panic(err)
	}
	root, _ := chainhash.NewHashFromStr("0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098")
	block1 := wire.BlockHeader{Version: 1, PrevBlock: c.Tip(), MerkleRoot: *root,
		Timestamp: time.Unix(1231469665, 0), Bits: 0x1d00ffff, Nonce: 2573394689}

	forged := block1
	forged.Nonce++
	_, err = c.Connect([]*wire.BlockHeader{&forged})
	fmt.Println(err != nil)

	n, err := c.Connect([]*wire.BlockHeader{&block1})
	fmt.Println(n, err, c.Height(), c.Tip())
	// Output:
	// true
	// 1 <nil> 1 00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048
}

// Scans are given the wallet's addresses and coins as a Watch; Check tells
// which inputs and outputs of a transaction are the wallet's.
func ExampleWatch_Check() {
	w, err := spv.NewWatch(nil, []wire.OutPoint{{Hash: chainhash.Hash{1}, Index: 0}})
	if err != nil {
		panic(err)
	}
	tx := wire.NewMsgTx(2)
	tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{1}, Index: 0}, nil, nil))
	tx.AddTxOut(wire.NewTxOut(1000, []byte{0x51}))
	ins, outs := w.Check(tx, tx.TxHash())
	fmt.Println(len(ins), ins[0].Index, len(outs), len(w.Coins()))
	// Output: 1 0 0 0
}

// A wallet keeps its chain in a store under the user cache directory,
// started from the published anchor below its birthday: the first run
// downloads from there, later runs only what is new. It picks the anchor
// offline; the sync needs a peer, so this example shows the choice only.
func ExampleOpenChain() {
	dir, err := os.MkdirTemp("", "chainsieve-example") // store.DefaultDir("mainnet") in a wallet
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		panic(err)
	}
	c, err := spv.OpenChain(spv.ChainConfig{Network: spv.Mainnet, Store: st, Birthday: 850000})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	height, hash := c.Anchor()
	fmt.Println(height, hash)
	// spv.SyncHeaders(ctx, session, c) fetches the anchor's headers, then the rest.
	// Output:
	// 822528 000000000000000000001daacd23f9cb40c69ba923085618a5f9dbdd4d97e93a
}
