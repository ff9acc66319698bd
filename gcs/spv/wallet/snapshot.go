package wallet

import (
	"fmt"
	"strings"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// Snapshot is a wallet's state in a form a caller can keep between runs
// (package gcs/lightclient writes it into its store): the gap limit, each
// chain as text with the highest index a transaction paid, and the
// ledger's transactions and tip. [Wallet.Snapshot] takes one; [Restore]
// rebuilds the wallet from it.
type Snapshot struct {
	Gap    uint32
	Chains []ChainState
	Tip    int32     // the ledger's tip, -1 before any block
	Txs    []TxState // in the order [Ledger.Txs] returns them
}

// ChainState is a chain of a [Snapshot].
type ChainState struct {
	// Source is the chain's descriptor with its checksum (one path), or
	// addr(ADDRESS) for a single address ([Address]).
	Source string
	Used   int64 // the highest index a transaction paid, -1 before any
}

// TxState is a transaction of a [Snapshot]'s ledger.
type TxState struct {
	Msg    *wire.MsgTx
	Height int32          // of its block, or Unconfirmed
	Block  chainhash.Hash // zero while unconfirmed
}

// Snapshot returns w's state. It fails for a chain that is neither a
// descriptor nor an address, whose text [Restore] could not parse. The
// transactions' messages are w's own: do not modify them.
func (w *Wallet) Snapshot() (Snapshot, error) {
	s := Snapshot{Gap: w.Scripts.gap, Tip: w.Ledger.tip}
	for i, c := range w.Scripts.chains {
		text, err := sourceText(c.src)
		if err != nil {
			return Snapshot{}, fmt.Errorf("wallet: chain %d: %w", i, err)
		}
		s.Chains = append(s.Chains, ChainState{Source: text, Used: c.used})
	}
	for _, tx := range w.Ledger.sorted() {
		s.Txs = append(s.Txs, TxState{Msg: tx.Msg, Height: tx.Height, Block: tx.Block})
	}
	return s, nil
}

// sourceText writes a chain so that [parseSource] reads it back.
func sourceText(src Source) (string, error) {
	switch s := src.(type) {
	case *descriptor.Descriptor:
		return s.String(), nil
	case fixed:
		return s.String(), nil
	}
	return "", fmt.Errorf("%s is neither a descriptor nor an address", src)
}

// parseSource reads a chain [sourceText] wrote, for net.
func parseSource(text string, net *chaincfg.Params) (Source, error) {
	if a, ok := strings.CutPrefix(text, "addr("); ok && strings.HasSuffix(a, ")") {
		addr, err := address.DecodeAddress(strings.TrimSuffix(a, ")"), net)
		if err != nil {
			return nil, err
		}
		if !addr.IsForNet(net) {
			return nil, fmt.Errorf("address %s is not for %s", addr, net.Name)
		}
		return Address(addr), nil
	}
	d, err := descriptor.Parse(text, net)
	if err != nil {
		return nil, err
	}
	if d.Paths() > 1 {
		return nil, fmt.Errorf("descriptor %s has %d paths, a chain one", d, d.Paths())
	}
	return d, nil
}

// Restore rebuilds the wallet s describes, its chains parsed for net: it
// derives each chain's scripts up to its used index plus the gap limit
// (the cost of a restore), then replays the ledger, checking that it
// holds together: every transaction the wallet's, no two confirmed
// transactions spending one coin, one block a height, and no height above
// the tip.
func Restore(s Snapshot, net *chaincfg.Params) (*Wallet, error) {
	srcs := make([]Source, len(s.Chains))
	for i, c := range s.Chains {
		src, err := parseSource(c.Source, net)
		if err != nil {
			return nil, fmt.Errorf("wallet: chain %d %q: %w", i, c.Source, err)
		}
		if c.Used < -1 || c.Used >= maxIndex || c.Used >= 0 && !src.Ranged() {
			return nil, fmt.Errorf("wallet: chain %d (%s): used index %d", i, src, c.Used)
		}
		srcs[i] = src
	}
	scripts, err := newScripts(s.Gap, srcs)
	if err != nil {
		return nil, err
	}
	for i, c := range s.Chains {
		if c.Used < 0 {
			continue
		}
		if _, err := scripts.MarkUsed(i, uint32(c.Used)); err != nil {
			return nil, err
		}
	}
	w := &Wallet{Scripts: scripts, Ledger: NewLedger(scripts.Owns)}
	if err := w.Ledger.replay(s.Tip, s.Txs); err != nil {
		return nil, err
	}
	return w, nil
}

// replay adds a snapshot's transactions to an empty ledger, in their
// order, and sets its tip.
func (l *Ledger) replay(tip int32, txs []TxState) error {
	if tip < -1 {
		return fmt.Errorf("wallet: ledger tip %d", tip)
	}
	for _, t := range txs {
		var up Update
		var err error
		switch {
		case t.Msg == nil:
			return fmt.Errorf("wallet: a ledger transaction without its message")
		case t.Height == Unconfirmed:
			up, err = l.AddUnconfirmed(t.Msg)
		case t.Height < 0 || t.Height > tip:
			return fmt.Errorf("wallet: transaction %v at height %d, the tip is %d", t.Msg.TxHash(), t.Height, tip)
		default:
			up, err = l.Connect(Block{Height: t.Height, Hash: t.Block}, []*wire.MsgTx{t.Msg})
		}
		if err != nil {
			return err
		}
		if len(up.Added) != 1 || len(up.Removed) > 0 {
			return fmt.Errorf("wallet: transaction %v does not fit the ledger (added %d, removed %d)", t.Msg.TxHash(), len(up.Added), len(up.Removed))
		}
	}
	l.tip = tip
	return nil
}
