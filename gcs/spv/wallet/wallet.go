package wallet

import (
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// Wallet is a watch-only wallet: the scripts of its descriptors up to the
// gap limit, and the ledger of its transactions. A scan that follows the
// chain feeds it every connected and disconnected block.
type Wallet struct {
	Scripts *Scripts
	Ledger  *Ledger
}

// New returns an empty wallet for descs (see [NewScripts]) with gap limit
// gap.
func New(gap uint32, descs ...*descriptor.Descriptor) (*Wallet, error) {
	s, err := NewScripts(gap, descs...)
	if err != nil {
		return nil, err
	}
	return &Wallet{Scripts: s, Ledger: NewLedger(s.Owns)}, nil
}

// Empty returns a wallet that watches nothing yet, with gap limit gap: add
// chains with w.Scripts.Add.
func Empty(gap uint32) (*Wallet, error) {
	s, err := newScripts(gap, nil)
	if err != nil {
		return nil, err
	}
	return &Wallet{Scripts: s, Ledger: NewLedger(s.Owns)}, nil
}

// Connect records block b and the wallet transactions a scan found in it
// (see [Ledger.Connect]), then marks every watched script they pay as
// used. Update.Watch lists the scripts that extended the watch list: the
// scan must match them from the wallet's birthday, this block included,
// and connect what it finds.
func (w *Wallet) Connect(b Block, txs []*wire.MsgTx) (Update, error) {
	up, err := w.Ledger.Connect(b, txs)
	if err != nil {
		return up, err
	}
	for _, tx := range up.Added {
		if up.Watch, err = w.use(tx.Msg, up.Watch); err != nil {
			return up, err
		}
	}
	return up, nil
}

// AddUnconfirmed records a transaction the wallet sent (see
// [Ledger.AddUnconfirmed]) and marks its outputs' scripts as used, like
// [Wallet.Connect].
func (w *Wallet) AddUnconfirmed(msg *wire.MsgTx) (Update, error) {
	up, err := w.Ledger.AddUnconfirmed(msg)
	if err != nil {
		return up, err
	}
	up.Watch, err = w.use(msg, up.Watch)
	return up, err
}

// Disconnect records that block b and those above it left the chain (see
// [Ledger.Disconnect]). The watch list keeps its extent.
func (w *Wallet) Disconnect(b Block) (Update, error) { return w.Ledger.Disconnect(b) }

func (w *Wallet) use(msg *wire.MsgTx, watch []Derived) ([]Derived, error) {
	for _, out := range msg.TxOut {
		added, err := w.Scripts.Use(out.PkScript)
		if err != nil {
			return watch, err
		}
		watch = append(watch, added...)
	}
	return watch, nil
}
