package spv

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Watch is what a wallet looks for in blocks: outputs that pay its
// addresses, and inputs that spend its coins. Every output it finds paying
// an address becomes a coin, so its spend is found too; coins received
// before the scanned range are given to [NewWatch].
//
// A Watch is not safe for concurrent use.
type Watch struct {
	addrs   []address.Address
	scripts [][]byte
	owner   map[string]address.Address // output script → address
	coins   map[wire.OutPoint]struct{}
}

// NewWatch returns a watch for payments to addrs and spends of coins.
// An address without an output script (txscript.PayToAddrScript) is an
// error.
func NewWatch(addrs []address.Address, coins []wire.OutPoint) (*Watch, error) {
	w := &Watch{owner: make(map[string]address.Address), coins: make(map[wire.OutPoint]struct{})}
	for _, a := range addrs {
		script, err := txscript.PayToAddrScript(a)
		if err != nil {
			return nil, fmt.Errorf("spv: address %v: %w", a, err)
		}
		if _, dup := w.owner[string(script)]; dup {
			continue
		}
		w.addrs = append(w.addrs, a)
		w.scripts = append(w.scripts, script)
		w.owner[string(script)] = a
	}
	for _, op := range coins {
		w.coins[op] = struct{}{}
	}
	return w, nil
}

// Addresses returns the watched addresses, repeats removed, in the order
// given.
func (w *Watch) Addresses() []address.Address { return w.addrs }

// Scripts returns the output scripts of the watched addresses, in the
// order of [Watch.Addresses]: the items a BIP158 filter is queried for.
func (w *Watch) Scripts() [][]byte { return w.scripts }

// Coins returns the unspent coins known: those given to [NewWatch] and
// those found since, sorted by txid (internal order) and index.
func (w *Watch) Coins() []wire.OutPoint {
	ops := make([]wire.OutPoint, 0, len(w.coins))
	for op := range w.coins {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b wire.OutPoint) int {
		return cmp.Or(bytes.Compare(a.Hash[:], b.Hash[:]), cmp.Compare(a.Index, b.Index))
	})
	return ops
}

// Output is an output that pays a watched address.
type Output struct {
	Index   uint32
	Value   int64 // satoshis
	Address address.Address
}

// Input is an input that spends a watched coin.
type Input struct {
	Index  uint32
	Spends wire.OutPoint
}

// Check returns the inputs of tx (whose txid is txid) that spend watched
// coins and the outputs that pay watched addresses, both in index order;
// tx is the wallet's if either is non-empty. It updates the coins: the
// spent ones are gone, the paid ones are added.
func (w *Watch) Check(tx *wire.MsgTx, txid chainhash.Hash) (ins []Input, outs []Output) {
	for i, in := range tx.TxIn {
		if _, ok := w.coins[in.PreviousOutPoint]; ok {
			ins = append(ins, Input{Index: uint32(i), Spends: in.PreviousOutPoint})
			delete(w.coins, in.PreviousOutPoint)
		}
	}
	for i, out := range tx.TxOut {
		if a, ok := w.owner[string(out.PkScript)]; ok {
			outs = append(outs, Output{Index: uint32(i), Value: out.Value, Address: a})
			w.coins[wire.OutPoint{Hash: txid, Index: uint32(i)}] = struct{}{}
		}
	}
	return ins, outs
}
