package wallet

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// CoinbaseMaturity is how many confirmations a coinbase output needs
// before it may be spent: 100 on every Bitcoin network (Core's
// COINBASE_MATURITY).
const CoinbaseMaturity = 100

// Unconfirmed is the height of a transaction in no block: one a reorg
// disconnected, or one the wallet sent.
const Unconfirmed int32 = -1

// Block is a block of the chain the ledger follows.
type Block struct {
	Height int32
	Hash   chainhash.Hash // internal byte order
}

// Tx is a wallet transaction: one that pays a watched script or spends a
// wallet coin.
type Tx struct {
	Msg      *wire.MsgTx
	ID       chainhash.Hash
	Height   int32          // of its block, or Unconfirmed
	Block    chainhash.Hash // zero while unconfirmed
	Coinbase bool

	seq uint64 // order the ledger learnt it, for ties within a block
}

// Coin is a wallet output no confirmed transaction spends.
type Coin struct {
	OutPoint wire.OutPoint
	Value    int64 // satoshis
	Script   []byte
	Height   int32 // of the transaction that made it, or Unconfirmed
	Coinbase bool
	// SpentBy is the unconfirmed wallet transaction spending the coin, if
	// any; zero otherwise.
	SpentBy chainhash.Hash
}

// Spent reports whether an unconfirmed transaction spends the coin.
func (c Coin) Spent() bool { return c.SpentBy != chainhash.Hash{} }

// Update is what a change to the ledger did.
type Update struct {
	Added       []*Tx            // transactions new to the ledger
	Confirmed   []chainhash.Hash // unconfirmed transactions a block now confirms
	Unconfirmed []chainhash.Hash // transactions a disconnected block held
	// Removed are unconfirmed transactions dropped because a confirmed
	// transaction spends the same coin (a double spend won), with their
	// unconfirmed descendants.
	Removed []chainhash.Hash
	// Watch are the scripts the gap limit added ([Wallet] only): match
	// them from the wallet's birthday, this block included.
	Watch []Derived
}

// Ledger holds a wallet's transactions and derives its coins and balance.
// It learns them from blocks ([Ledger.Connect], [Ledger.Disconnect]) and
// from the transactions it sends ([Ledger.AddUnconfirmed]). Which output
// scripts are the wallet's is asked of owns at every query, so a watch
// list that grows (a gap limit) counts outputs of transactions already
// held.
//
// A reorg does not delete a transaction: a disconnected block's
// transactions become unconfirmed, so the coins they made leave the
// confirmed balance and the coins they spent return to it, and a block of
// the new branch that holds them confirms them again. One that never does
// stays unconfirmed until [Ledger.Remove], or until a confirmed
// transaction spending the same coin drops it.
type Ledger struct {
	owns   func(script []byte) bool
	txs    map[chainhash.Hash]*Tx
	spends map[wire.OutPoint]chainhash.Hash // every input of every held tx → that tx
	blocks map[int32]chainhash.Hash         // heights that hold wallet txs
	tip    int32
	seq    uint64
}

// NewLedger returns an empty ledger for the scripts owns recognises, with
// no block connected (Tip is -1).
func NewLedger(owns func(script []byte) bool) *Ledger {
	return &Ledger{owns: owns, txs: make(map[chainhash.Hash]*Tx), spends: make(map[wire.OutPoint]chainhash.Hash),
		blocks: make(map[int32]chainhash.Hash), tip: -1}
}

// Tip returns the height of the highest block connected, -1 before any.
func (l *Ledger) Tip() int32 { return l.tip }

// Connect records that block b is on the chain with txs among its
// transactions; txs that neither pay a watched script nor spend a wallet
// coin are ignored, and a block with none only moves the tip. Blocks
// connect in chain order, but one below the tip may be connected again
// with more of its transactions (a rescan for scripts the gap limit added).
// A block at a height the ledger holds under another hash is an error:
// disconnect it first.
func (l *Ledger) Connect(b Block, txs []*wire.MsgTx) (Update, error) {
	if b.Height < 0 {
		return Update{}, fmt.Errorf("wallet: block height %d", b.Height)
	}
	if h, ok := l.blocks[b.Height]; ok && h != b.Hash {
		return Update{}, fmt.Errorf("wallet: block %d is %v in the ledger, not %v: disconnect it first", b.Height, h, b.Hash)
	}
	var up Update
	for _, msg := range txs {
		if err := l.confirm(msg, b, &up); err != nil {
			return up, err
		}
	}
	l.tip = max(l.tip, b.Height)
	return up, nil
}

func (l *Ledger) confirm(msg *wire.MsgTx, b Block, up *Update) error {
	id := msg.TxHash()
	if tx, ok := l.txs[id]; ok {
		switch {
		case tx.Height == Unconfirmed:
			tx.Height, tx.Block = b.Height, b.Hash
			l.blocks[b.Height] = b.Hash
			up.Confirmed = append(up.Confirmed, id)
			return nil
		case tx.Block == b.Hash:
			return nil
		}
		return fmt.Errorf("wallet: transaction %v is in block %d already, not in %d", id, tx.Height, b.Height)
	}
	if !l.relevant(msg) {
		return nil
	}
	if err := l.evictConflicts(msg, id, up); err != nil {
		return err
	}
	tx := &Tx{Msg: msg, ID: id, Height: b.Height, Block: b.Hash, Coinbase: isCoinbase(msg)}
	l.add(tx)
	l.blocks[b.Height] = b.Hash
	up.Added = append(up.Added, tx)
	return nil
}

// AddUnconfirmed records a transaction in no block yet, such as one the
// wallet broadcast. It replaces unconfirmed transactions that spend the
// same coins (Update.Removed); one that double spends a confirmed
// transaction is an error.
func (l *Ledger) AddUnconfirmed(msg *wire.MsgTx) (Update, error) {
	var up Update
	id := msg.TxHash()
	if _, ok := l.txs[id]; ok {
		return up, nil
	}
	if !l.relevant(msg) {
		return up, fmt.Errorf("wallet: transaction %v neither pays nor spends the wallet", id)
	}
	if err := l.evictConflicts(msg, id, &up); err != nil {
		return up, err
	}
	tx := &Tx{Msg: msg, ID: id, Height: Unconfirmed}
	l.add(tx)
	up.Added = append(up.Added, tx)
	return up, nil
}

// Disconnect records that block b left the chain, with every block above
// it: the transactions they held become unconfirmed, and the tip drops to
// b.Height-1. Disconnect the blocks of a reorg from the tip down, as the
// header chain reports them.
func (l *Ledger) Disconnect(b Block) (Update, error) {
	if b.Height < 0 || b.Height > l.tip {
		return Update{}, fmt.Errorf("wallet: disconnecting block %d, the tip is %d", b.Height, l.tip)
	}
	if h, ok := l.blocks[b.Height]; ok && h != b.Hash {
		return Update{}, fmt.Errorf("wallet: block %d is %v in the ledger, not %v", b.Height, h, b.Hash)
	}
	var up Update
	for _, tx := range l.sorted() {
		if tx.Height >= b.Height {
			tx.Height, tx.Block = Unconfirmed, chainhash.Hash{}
			up.Unconfirmed = append(up.Unconfirmed, tx.ID)
		}
	}
	for h := range l.blocks {
		if h >= b.Height {
			delete(l.blocks, h)
		}
	}
	l.tip = b.Height - 1
	return up, nil
}

// Remove drops an unconfirmed transaction, and the unconfirmed ones that
// spend its outputs, and returns their txids. A confirmed or unknown
// transaction is an error.
func (l *Ledger) Remove(id chainhash.Hash) ([]chainhash.Hash, error) {
	tx, ok := l.txs[id]
	switch {
	case !ok:
		return nil, fmt.Errorf("wallet: no transaction %v", id)
	case tx.Height != Unconfirmed:
		return nil, fmt.Errorf("wallet: transaction %v is confirmed in block %d", id, tx.Height)
	}
	var gone []chainhash.Hash
	l.drop(tx, &gone)
	return gone, nil
}

// Tx returns the wallet transaction with txid id.
func (l *Ledger) Tx(id chainhash.Hash) (*Tx, bool) {
	tx, ok := l.txs[id]
	return tx, ok
}

// Txs returns the wallet's transactions, confirmed ones by height, then
// the unconfirmed; ties in the order the ledger learnt them.
func (l *Ledger) Txs() []*Tx { return l.sorted() }

// Unspent returns the wallet's coins that no confirmed transaction spends,
// sorted by txid (internal order) and index. Coins an unconfirmed wallet
// transaction spends are included, marked by SpentBy.
func (l *Ledger) Unspent() []Coin {
	var coins []Coin
	for _, tx := range l.txs {
		for i, out := range tx.Msg.TxOut {
			if !l.owns(out.PkScript) {
				continue
			}
			op := wire.OutPoint{Hash: tx.ID, Index: uint32(i)}
			c := Coin{OutPoint: op, Value: out.Value, Script: out.PkScript, Height: tx.Height, Coinbase: tx.Coinbase}
			if by, ok := l.spends[op]; ok {
				if l.txs[by].Height != Unconfirmed {
					continue
				}
				c.SpentBy = by
			}
			coins = append(coins, c)
		}
	}
	slices.SortFunc(coins, func(a, b Coin) int {
		return cmp.Or(bytes.Compare(a.OutPoint.Hash[:], b.OutPoint.Hash[:]), cmp.Compare(a.OutPoint.Index, b.OutPoint.Index))
	})
	return coins
}

// Balance sums the wallet's coins in satoshis.
type Balance struct {
	// Confirmed: coins at least minConf blocks deep, coinbase outputs
	// only once mature: what the chain says the wallet can spend.
	// Unconfirmed spends are not deducted (see Outgoing).
	Confirmed int64
	// Shallow: coins confirmed fewer than minConf blocks deep.
	Shallow int64
	// Immature: coinbase outputs fewer than CoinbaseMaturity blocks deep.
	Immature int64
	// Incoming: outputs of unconfirmed transactions that no other
	// unconfirmed transaction spends.
	Incoming int64
	// Outgoing: confirmed coins unconfirmed transactions spend.
	Outgoing int64
}

// Balance returns the balance at the ledger's tip, counting a coin as
// confirmed once it is minConf blocks deep (minConf below 1 counts as 1).
func (l *Ledger) Balance(minConf int32) Balance {
	minConf = max(minConf, 1)
	var b Balance
	for _, c := range l.Unspent() {
		if c.Height == Unconfirmed {
			if !c.Spent() {
				b.Incoming += c.Value
			}
			continue
		}
		if c.Spent() {
			b.Outgoing += c.Value
		}
		switch depth := l.tip - c.Height + 1; {
		case c.Coinbase && depth < CoinbaseMaturity:
			b.Immature += c.Value
		case depth < minConf:
			b.Shallow += c.Value
		default:
			b.Confirmed += c.Value
		}
	}
	return b
}

// relevant reports whether msg pays a watched script or spends a coin of
// a held transaction that pays one.
func (l *Ledger) relevant(msg *wire.MsgTx) bool {
	for _, out := range msg.TxOut {
		if l.owns(out.PkScript) {
			return true
		}
	}
	for _, in := range msg.TxIn {
		prev, ok := l.txs[in.PreviousOutPoint.Hash]
		if ok && in.PreviousOutPoint.Index < uint32(len(prev.Msg.TxOut)) && l.owns(prev.Msg.TxOut[in.PreviousOutPoint.Index].PkScript) {
			return true
		}
	}
	return false
}

// evictConflicts drops the unconfirmed transactions that spend an input
// of msg; a confirmed one means two confirmed transactions spend one coin,
// which no valid chain holds.
func (l *Ledger) evictConflicts(msg *wire.MsgTx, id chainhash.Hash, up *Update) error {
	if isCoinbase(msg) {
		return nil
	}
	for _, in := range msg.TxIn {
		by, ok := l.spends[in.PreviousOutPoint]
		if !ok || by == id {
			continue
		}
		other := l.txs[by]
		if other.Height != Unconfirmed {
			return fmt.Errorf("wallet: %v spends %v, which %v in block %d spends already", id, in.PreviousOutPoint, by, other.Height)
		}
		l.drop(other, &up.Removed)
	}
	return nil
}

// drop removes tx and, first, the held transactions spending its outputs.
func (l *Ledger) drop(tx *Tx, gone *[]chainhash.Hash) {
	if _, ok := l.txs[tx.ID]; !ok {
		return
	}
	for i := range tx.Msg.TxOut {
		if by, ok := l.spends[wire.OutPoint{Hash: tx.ID, Index: uint32(i)}]; ok {
			l.drop(l.txs[by], gone)
		}
	}
	for _, in := range tx.Msg.TxIn {
		if l.spends[in.PreviousOutPoint] == tx.ID {
			delete(l.spends, in.PreviousOutPoint)
		}
	}
	delete(l.txs, tx.ID)
	*gone = append(*gone, tx.ID)
}

func (l *Ledger) add(tx *Tx) {
	l.seq++
	tx.seq = l.seq
	l.txs[tx.ID] = tx
	if tx.Coinbase {
		return
	}
	for _, in := range tx.Msg.TxIn {
		l.spends[in.PreviousOutPoint] = tx.ID
	}
}

// sorted returns the held transactions, confirmed by height, then
// unconfirmed, ties in the order they were added.
func (l *Ledger) sorted() []*Tx {
	out := make([]*Tx, 0, len(l.txs))
	for _, tx := range l.txs {
		out = append(out, tx)
	}
	key := func(t *Tx) int64 {
		if t.Height == Unconfirmed {
			return 1 << 40
		}
		return int64(t.Height)
	}
	slices.SortFunc(out, func(a, b *Tx) int {
		return cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.seq, b.seq))
	})
	return out
}

// isCoinbase reports whether msg is a coinbase: its single input spends
// the null outpoint, which consensus allows no other transaction.
func isCoinbase(msg *wire.MsgTx) bool {
	if len(msg.TxIn) != 1 {
		return false
	}
	op := msg.TxIn[0].PreviousOutPoint
	return op.Index == wire.MaxPrevOutIndex && op.Hash == chainhash.Hash{}
}
