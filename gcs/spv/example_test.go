package spv_test

import (
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
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
