package livenode

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Coin is an unspent output that pays a wallet address.
type Coin struct {
	OutPoint wire.OutPoint
	Value    int64 // satoshis
	Addr     *Addr
	Height   int32 // height of the confirming block, -1 while unconfirmed
	Coinbase bool
}

// Tx is a transaction that pays or spends the wallet: what a filter scan
// for the wallet's scripts must find.
type Tx struct {
	Msg    *wire.MsgTx
	ID     chainhash.Hash // txid, internal byte order
	Pays   []*Addr        // Pays[i]: the wallet address output i pays, nil if none
	Spends []*Addr        // Spends[i]: the wallet address of the coin input i spends, nil if none
	Block  chainhash.Hash // confirming block, zero while unconfirmed
	Height int32          // confirming block's height, -1 while unconfirmed
}

// Coin returns output i as a coin. It panics if output i pays no wallet
// address.
func (tx *Tx) Coin(i int) Coin {
	if tx.Pays[i] == nil {
		panic(fmt.Sprintf("livenode: output %d of %v pays no wallet address", i, tx.ID))
	}
	return Coin{
		OutPoint: wire.OutPoint{Hash: tx.ID, Index: uint32(i)},
		Value:    tx.Msg.TxOut[i].Value,
		Addr:     tx.Pays[i],
		Height:   tx.Height,
		Coinbase: tx.Msg.TxIn[0].PreviousOutPoint.Index == wire.MaxPrevOutIndex &&
			tx.Msg.TxIn[0].PreviousOutPoint.Hash == chainhash.Hash{},
	}
}

// Chain is what the wallet needs from a node; [*Node] implements it.
type Chain interface {
	BlockCount(ctx context.Context) (int32, error)
	BlockHash(ctx context.Context, height int32) (chainhash.Hash, error)
	Block(ctx context.Context, hash chainhash.Hash) (*wire.MsgBlock, error)
	SendRawTransaction(ctx context.Context, tx *wire.MsgTx) (chainhash.Hash, error)
}

// Sync reads the blocks the wallet has not seen yet, from genesis on the
// first call, and records the transactions that pay or spend it. It fails
// if the chain no longer extends the last block synced.
func (w *Wallet) Sync(ctx context.Context, c Chain) error {
	count, err := c.BlockCount(ctx)
	if err != nil {
		return err
	}
	for h := w.tip + 1; h <= count; h++ {
		hash, err := c.BlockHash(ctx, h)
		if err != nil {
			return err
		}
		b, err := c.Block(ctx, hash)
		if err != nil {
			return err
		}
		if h > 0 && b.Header.PrevBlock != w.tipHash {
			return fmt.Errorf("livenode: wallet: block %d (%v) does not extend %v: reorgs are not supported", h, hash, w.tipHash)
		}
		for i, msg := range b.Transactions {
			w.observe(msg, i == 0, hash, h)
		}
		w.tip, w.tipHash = h, hash
	}
	return nil
}

// Tip returns the height of the last block synced, -1 before any.
func (w *Wallet) Tip() int32 { return w.tip }

// observe records msg if it pays or spends the wallet, or updates where a
// known one confirmed. height is -1 for a transaction not in a block.
func (w *Wallet) observe(msg *wire.MsgTx, coinbase bool, block chainhash.Hash, height int32) *Tx {
	id := msg.TxHash()
	if tx := w.txs[id]; tx != nil {
		tx.Block, tx.Height = block, height
		for i := range tx.Pays {
			op := wire.OutPoint{Hash: id, Index: uint32(i)}
			if c, ok := w.coins[op]; ok {
				c.Height = height
				w.coins[op] = c
			}
		}
		return tx
	}
	tx := &Tx{Msg: msg, ID: id, Pays: make([]*Addr, len(msg.TxOut)),
		Spends: make([]*Addr, len(msg.TxIn)), Block: block, Height: height}
	relevant := false
	for i, in := range msg.TxIn {
		if c, ok := w.coins[in.PreviousOutPoint]; ok && !coinbase {
			tx.Spends[i], relevant = c.Addr, true
			delete(w.coins, in.PreviousOutPoint)
		}
	}
	for i, out := range msg.TxOut {
		a := w.Owner(out.PkScript)
		if a == nil {
			continue
		}
		tx.Pays[i], relevant = a, true
		op := wire.OutPoint{Hash: id, Index: uint32(i)}
		w.coins[op] = Coin{OutPoint: op, Value: out.Value, Addr: a, Height: height, Coinbase: coinbase}
	}
	if !relevant {
		return nil
	}
	w.txs[id] = tx
	w.order = append(w.order, tx)
	return tx
}

// Txs returns the transactions that paid or spent the wallet, in the
// order the wallet first saw them.
func (w *Wallet) Txs() []*Tx { return append([]*Tx(nil), w.order...) }

// Tx returns the wallet transaction with txid id, or nil.
func (w *Wallet) Tx(id chainhash.Hash) *Tx { return w.txs[id] }

// Coins returns the unspent coins, confirmed ones first by height, then
// by outpoint.
func (w *Wallet) Coins() []Coin {
	cs := make([]Coin, 0, len(w.coins))
	for _, c := range w.coins {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b Coin) int {
		return cmp.Or(
			cmp.Compare(uint32(a.Height), uint32(b.Height)), // -1 sorts last
			bytes.Compare(a.OutPoint.Hash[:], b.OutPoint.Hash[:]),
			cmp.Compare(a.OutPoint.Index, b.OutPoint.Index))
	})
	return cs
}

// Spendable returns the coins a transaction may spend in the next block,
// leaving out coinbases younger than the coinbase maturity (100 blocks in
// regtest), in the order of [Wallet.Coins]. With types given, only coins
// of those address types are returned.
func (w *Wallet) Spendable(types ...AddrType) []Coin {
	var cs []Coin
	for _, c := range w.Coins() {
		if len(types) > 0 && !slices.Contains(types, c.Addr.Type) {
			continue
		}
		if c.Coinbase && (c.Height < 0 || w.tip+1-c.Height < int32(w.params.CoinbaseMaturity)) {
			continue
		}
		cs = append(cs, c)
	}
	return cs
}
