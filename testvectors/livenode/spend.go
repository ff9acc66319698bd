package livenode

import (
	"context"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

const (
	// feeRate in satoshis per virtual byte: twice the 1 sat/vB relay
	// minimum of btcd and Core, so no node refuses a wallet transaction.
	feeRate = 2
	// dustLimit is the smallest change output worth making (Core's dust
	// threshold for P2PKH at the default dust relay fee).
	dustLimit = 546
)

// Payment is one output of a transaction the wallet builds.
type Payment struct {
	Script []byte // output script
	Value  int64  // satoshis
}

// Build returns a signed version-2 transaction that spends the coins from
// and pays to in order. What is left after a fee of 2 sat/vB goes to a new
// wallet address of the first coin's type as a last output, unless it is
// dust. Every input is checked with btcd's script engine before it is
// returned. Build does not change the wallet's coins: [Wallet.Send] does
// that once a node accepted the transaction.
func (w *Wallet) Build(from []Coin, to ...Payment) (*Tx, error) {
	if len(from) == 0 {
		return nil, fmt.Errorf("livenode: build: no coins to spend")
	}
	msg := wire.NewMsgTx(2)
	prev := make(map[wire.OutPoint]*wire.TxOut, len(from))
	var rest int64
	for _, c := range from {
		if _, ok := w.coins[c.OutPoint]; !ok {
			return nil, fmt.Errorf("livenode: build: %v is not an unspent wallet coin", c.OutPoint)
		}
		if prev[c.OutPoint] != nil {
			return nil, fmt.Errorf("livenode: build: %v spent twice", c.OutPoint)
		}
		prev[c.OutPoint] = wire.NewTxOut(c.Value, c.Addr.Script)
		msg.AddTxIn(wire.NewTxIn(&c.OutPoint, nil, nil))
		rest += c.Value
	}
	for _, p := range to {
		msg.AddTxOut(wire.NewTxOut(p.Value, p.Script))
		rest -= p.Value
	}
	if err := w.settleFee(msg, from, prev, rest); err != nil {
		return nil, err
	}
	if err := verify(msg, prev); err != nil {
		return nil, err
	}
	return w.describe(msg), nil
}

// settleFee adds the change output, signs to learn the virtual size, and
// signs again with the fee that size needs. rest is inputs minus payments.
func (w *Wallet) settleFee(msg *wire.MsgTx, from []Coin, prev map[wire.OutPoint]*wire.TxOut, rest int64) error {
	var change *wire.TxOut
	if rest > dustLimit {
		change = wire.NewTxOut(rest, w.NewAddress(from[0].Addr.Type).Script)
		msg.AddTxOut(change)
	}
	if err := sign(msg, from, prev); err != nil {
		return err
	}
	// +2 covers DER signatures one byte longer the second time.
	fee := (vsize(msg) + 2) * feeRate
	switch {
	case change != nil && rest-fee > dustLimit:
		change.Value = rest - fee
	case change != nil:
		msg.TxOut = msg.TxOut[:len(msg.TxOut)-1] // dust: the fee takes it
	case rest < fee:
		return fmt.Errorf("livenode: build: inputs leave %d sat, the fee needs %d", rest, fee)
	}
	return sign(msg, from, prev)
}

// sign fills in every input's signature script or witness.
func sign(msg *wire.MsgTx, from []Coin, prev map[wire.OutPoint]*wire.TxOut) error {
	hashes := txscript.NewTxSigHashes(msg, txscript.NewMultiPrevOutFetcher(prev))
	for i, c := range from {
		in, a := msg.TxIn[i], c.Addr
		var err error
		switch a.Type {
		case P2PKH:
			in.SignatureScript, err = txscript.SignatureScript(msg, i, a.Script, txscript.SigHashAll, a.Key, true)
		case P2WPKH:
			in.Witness, err = txscript.WitnessSignature(msg, hashes, i, c.Value, a.Script, txscript.SigHashAll, a.Key, true)
		case P2TR:
			in.Witness, err = txscript.TaprootWitnessSignature(msg, hashes, i, c.Value, a.Script, txscript.SigHashDefault, a.Key)
		default:
			err = fmt.Errorf("unknown address type %v", a.Type)
		}
		if err != nil {
			return fmt.Errorf("livenode: sign input %d (%v): %v", i, a.Type, err)
		}
	}
	return nil
}

// verify runs every input through btcd's script engine with the standard
// flags, so a signing mistake is reported here rather than as a node's
// terse rejection.
func verify(msg *wire.MsgTx, prev map[wire.OutPoint]*wire.TxOut) error {
	fetcher := txscript.NewMultiPrevOutFetcher(prev)
	hashes := txscript.NewTxSigHashes(msg, fetcher)
	for i, in := range msg.TxIn {
		out := prev[in.PreviousOutPoint]
		vm, err := txscript.NewEngine(out.PkScript, msg, i, txscript.StandardVerifyFlags, nil, hashes, out.Value, fetcher)
		if err == nil {
			err = vm.Execute()
		}
		if err != nil {
			return fmt.Errorf("livenode: input %d does not verify: %v", i, err)
		}
	}
	return nil
}

// vsize returns the virtual size in vbytes (BIP141: weight / 4, rounded up).
func vsize(msg *wire.MsgTx) int64 {
	weight := msg.SerializeSizeStripped()*3 + msg.SerializeSize()
	return int64(weight+3) / 4
}

// describe returns msg annotated with the wallet addresses it pays and
// spends, leaving the wallet unchanged.
func (w *Wallet) describe(msg *wire.MsgTx) *Tx {
	tx := &Tx{Msg: msg, ID: msg.TxHash(), Pays: make([]*Addr, len(msg.TxOut)),
		Spends: make([]*Addr, len(msg.TxIn)), Height: -1}
	for i, out := range msg.TxOut {
		tx.Pays[i] = w.Owner(out.PkScript)
	}
	for i, in := range msg.TxIn {
		if c, ok := w.coins[in.PreviousOutPoint]; ok {
			tx.Spends[i] = c.Addr
		}
	}
	return tx
}

// Send builds a transaction like [Wallet.Build], submits it to c with
// sendrawtransaction, and on success records it: the coins it spends are
// gone, its outputs to the wallet are unconfirmed coins that later
// transactions may spend, and [Wallet.Sync] marks it confirmed.
func (w *Wallet) Send(ctx context.Context, c Chain, from []Coin, to ...Payment) (*Tx, error) {
	tx, err := w.Build(from, to...)
	if err != nil {
		return nil, err
	}
	id, err := c.SendRawTransaction(ctx, tx.Msg)
	if err != nil {
		return nil, err
	}
	if id != tx.ID {
		return nil, fmt.Errorf("livenode: node returned txid %v for %v", id, tx.ID)
	}
	return w.observe(tx.Msg, false, chainhash.Hash{}, -1), nil
}
