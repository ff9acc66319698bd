package bip37_test

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/testvectors"
)

// Bitcoin Core's bloom_create_insert_serialize test: three elements at 1 %.
func ExampleNew() {
	f, err := bip37.New(3, 0.01, 0, bip37.UpdateAll)
	if err != nil {
		panic(err)
	}
	for _, h := range []string{"99108ad8ed9bb6274d3980bab5a85c048f0950c8",
		"b5a2c786d9ef4658287ced5914b37a1b4aa32eee", "b9300670b4c5366e95b2699e8b18bc75e5f729c5"} {
		f.Add(unhex(h))
	}
	payload, _ := f.MarshalBinary()
	fmt.Printf("%d bytes, %d hash functions\n", f.Size(), f.HashFuncs())
	fmt.Printf("filterload %x\n", payload)
	fmt.Println(f.Contains(unhex("19108ad8ed9bb6274d3980bab5a85c048f0950c8")))
	// Output:
	// 3 bytes, 5 hash functions
	// filterload 03614e9b050000000000000001
	// false
}

// Core divides bits by elements as integers before multiplying by ln 2.
func ExampleParams() {
	size, hashFuncs, _ := bip37.Params(7, 0.1)
	fmt.Println(size, hashFuncs)
	_, _, err := bip37.Params(1, 0.05)
	fmt.Println(err)
	// Output:
	// 4 2
	// bip37: 1 elements at false-positive rate 0.05 give an empty filter, which matches everything
}

// A wallet watching a regtest P2WPKH address sees a payment to it, and with
// UpdateAll the node inserts the new outpoint, so the spend matches too.
func ExampleNewWalletFilter() {
	addr, err := address.DecodeAddress("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", &chaincfg.RegressionNetParams)
	if err != nil {
		panic(err)
	}
	f, _ := bip37.NewWalletFilter([]address.Address{addr}, nil, 1e-6, 0, bip37.UpdateAll)

	pay := wire.NewMsgTx(2)
	pay.AddTxIn(wire.NewTxIn(&wire.OutPoint{Index: 1}, nil, nil))
	pay.AddTxOut(wire.NewTxOut(50000, append([]byte{0x00, 0x14}, addr.ScriptAddress()...)))
	spend := wire.NewMsgTx(2)
	spend.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: pay.TxHash(), Index: 0}, nil, wire.TxWitness{{1}, {2}}))

	fmt.Println(f.MatchTx(pay, pay.TxHash()), f.MatchTx(spend, spend.TxHash()))
	// Output: true true
}

// A wallet's filter over its life: sized with room for the outpoints the
// peer inserts, matched as the peer matches so that its bits stay the
// peer's, and rebuilt from the wallet's coins, with the same tweak, once
// they predict more false positives than the target.
func ExampleWalletPolicy() {
	addr, err := address.DecodeAddress("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", &chaincfg.RegressionNetParams)
	if err != nil {
		panic(err)
	}
	wallet := []address.Address{addr}
	p := bip37.WalletPolicy{FPRate: 0.001, Tweak: 12345, Flags: bip37.UpdateAll}
	f, _ := p.Build(wallet, nil)
	fmt.Printf("capacity %d: %d bytes, %d hash functions\n", p.Capacity, f.Size(), f.HashFuncs())

	var coins []wire.OutPoint
	for i := uint32(0); !p.Due(f); i++ {
		pay := wire.NewMsgTx(2)
		pay.AddTxIn(wire.NewTxIn(&wire.OutPoint{Index: i}, nil, nil))
		pay.AddTxOut(wire.NewTxOut(50000, append([]byte{0x00, 0x14}, addr.ScriptAddress()...)))
		f.MatchTx(pay, pay.TxHash()) // the peer inserts the outpoint
		coins = append(coins, wire.OutPoint{Hash: pay.TxHash()})
	}
	fmt.Printf("due after %d payments: rate %.6f\n", len(coins), f.FilledFalsePositiveRate())
	f, _ = p.Build(wallet, coins)
	fmt.Printf("capacity %d: %d bytes, rate %.6f, tweak %d\n", p.Capacity, f.Size(), f.FilledFalsePositiveRate(), f.Tweak())
	// Output:
	// capacity 100: 179 bytes, 9 hash functions
	// due after 99 payments: rate 0.001004
	// capacity 200: 359 bytes, rate 0.000009, tweak 12345
}

// A client checks the merkle block a peer sent and learns which
// transactions to expect next. This one is from Core's merkle_block_1 test.
func ExampleVerifyMerkleBlock() {
	msg, err := bip37.DecodeMerkleBlock(merkleBlockVector())
	if err != nil {
		panic(err)
	}
	matches, err := bip37.VerifyMerkleBlock(msg)
	if err != nil {
		panic(err)
	}
	fmt.Println(msg.Header.BlockHash())
	for _, m := range matches {
		fmt.Println(m.Index, m.TxID)
	}
	// Output:
	// 0000000000013b8ab2cd513b0261a14096412195a72a0c4827d229dcc7e0f7af
	// 8 74d681e0e03bafa802c8aa084379aa98d9fcd632ddc2ed9782b586ec87451f20
}

// A node answers a filtered-block request with a merkle block and then the
// proven transactions; the client's Collector pairs them.
func ExampleCollector() {
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(blockVector())); err != nil {
		panic(err)
	}
	node, _ := bip37.New(10, 1e-6, 0, bip37.UpdateAll)
	node.AddHash(block.Transactions[8].TxHash())
	msg, matches := bip37.NewMerkleBlock(&block, node)

	var c bip37.Collector
	done, err := c.MerkleBlock(msg)
	fmt.Println(done == nil, err, len(c.Missing()))
	for _, m := range matches {
		done, err = c.Tx(block.Transactions[m.Index])
	}
	fmt.Println(len(done.Txs), done.Txs[0].TxHash() == done.Matches[0].TxID, err)
	// Output:
	// true <nil> 1
	// 1 true <nil>
}

func merkleBlockVector() []byte {
	return merkleFile().Vectors[0].Steps[0].DerivedMerkleBlock
}

func blockVector() []byte { return merkleFile().Vectors[0].Block }

func merkleFile() *testvectors.BIP37MerkleBlockFile {
	data, _ := testvectors.Read("bip37/merkle_blocks.json")
	f, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil {
		panic(err)
	}
	return f
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
