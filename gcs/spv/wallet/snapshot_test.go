package wallet_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// snapshotWallet is a wallet with a descriptor (receiving and change) and
// a single address, paid, spending, reorganised and sending: every kind
// of ledger entry.
func snapshotWallet(t *testing.T) (*wallet.Wallet, func(h int32) wallet.Block) {
	t.Helper()
	w := regtestWallet(t, 3)
	a, err := address.NewAddressWitnessPubKeyHash(make([]byte, 20), &chaincfg.RegressionNetParams)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Scripts.Add(wallet.Address(a)); err != nil {
		t.Fatal(err)
	}
	single := w.Scripts.Watched()[len(w.Scripts.Watched())-1].Script
	b := func(h int32) wallet.Block { return wallet.Block{Height: h, Hash: chainhash.Hash{byte(h), 7}} }
	tx := func(from []wire.OutPoint, outs ...*wire.TxOut) *wire.MsgTx {
		m := wire.NewMsgTx(2)
		for _, op := range from {
			m.AddTxIn(wire.NewTxIn(&op, nil, nil))
		}
		for _, o := range outs {
			m.AddTxOut(o)
		}
		return m
	}
	recv := tx([]wire.OutPoint{{Hash: chainhash.Hash{1}}}, wire.NewTxOut(5000, script(t, w, 0, 2)), wire.NewTxOut(9, []byte{0x51}))
	recv2 := tx([]wire.OutPoint{{Hash: chainhash.Hash{2}}}, wire.NewTxOut(700, single))
	spend := tx([]wire.OutPoint{{Hash: recv.TxHash()}}, wire.NewTxOut(4000, []byte{0x51}), wire.NewTxOut(900, script(t, w, 1, 0)))
	lost := tx([]wire.OutPoint{{Hash: chainhash.Hash{3}}}, wire.NewTxOut(300, script(t, w, 0, 4)))
	sent := tx([]wire.OutPoint{{Hash: spend.TxHash(), Index: 1}}, wire.NewTxOut(800, []byte{0x51}))
	steps := []struct {
		b   wallet.Block
		txs []*wire.MsgTx
	}{{b(100), []*wire.MsgTx{recv, recv2}}, {b(101), nil}, {b(102), []*wire.MsgTx{spend}}, {b(103), []*wire.MsgTx{lost}}}
	for _, s := range steps {
		if _, err := w.Connect(s.b, s.txs); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Disconnect(b(103)); err != nil { // lost becomes unconfirmed
		t.Fatal(err)
	}
	if _, err := w.Connect(b(103), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddUnconfirmed(sent); err != nil {
		t.Fatal(err)
	}
	return w, b
}

// state is what a wallet shows of itself, to compare two. The watched
// scripts are sorted: a restored wallet derives them chain by chain, the
// running one as payments came.
func state(w *wallet.Wallet) string {
	var s strings.Builder
	var watched []string
	for _, d := range w.Scripts.Watched() {
		watched = append(watched, fmt.Sprintf("watch %d/%d %x %s\n", d.Chain, d.Index, d.Script, d.Address))
	}
	slices.Sort(watched)
	s.WriteString(strings.Join(watched, ""))
	for i := range w.Scripts.Chains() {
		used, ok := w.Scripts.MaxUsed(i)
		fmt.Fprintf(&s, "chain %d %s used %d %v\n", i, w.Scripts.Chains()[i], used, ok)
	}
	for _, tx := range w.Ledger.Txs() {
		fmt.Fprintf(&s, "tx %s %d %s %v\n", tx.ID, tx.Height, tx.Block, tx.Coinbase)
	}
	for _, c := range w.Ledger.Unspent() {
		fmt.Fprintf(&s, "coin %v %d %d %v\n", c.OutPoint, c.Value, c.Height, c.SpentBy)
	}
	fmt.Fprintf(&s, "tip %d balance %+v %+v\n", w.Ledger.Tip(), w.Ledger.Balance(1), w.Ledger.Balance(3))
	return s.String()
}

// TestSnapshotRestore restores a wallet from its snapshot: the same
// watched scripts, used indexes, transactions in the same order, coins
// and balances, and the same answer to the next block.
func TestSnapshotRestore(t *testing.T) {
	w, b := snapshotWallet(t)
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	r, err := wallet.Restore(snap, &chaincfg.RegressionNetParams)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := state(r), state(w); got != want {
		t.Fatalf("restored wallet:\n%s\nwant:\n%s", got, want)
	}
	again, err := r.Snapshot()
	if err != nil || !reflect.DeepEqual(again, snap) {
		t.Errorf("the restored wallet's snapshot differs: %v", err)
	}
	next, err := w.Scripts.Next(0)
	if err != nil {
		t.Fatal(err)
	}
	pay := wire.NewMsgTx(2)
	pay.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{9}}, nil, nil))
	pay.AddTxOut(wire.NewTxOut(1234, next.Script))
	up1, err1 := w.Connect(b(104), []*wire.MsgTx{pay})
	up2, err2 := r.Connect(b(104), []*wire.MsgTx{pay})
	if err1 != nil || err2 != nil || fmt.Sprint(up1.Watch) != fmt.Sprint(up2.Watch) || len(up2.Added) != 1 || state(r) != state(w) {
		t.Errorf("the next block: %+v %v, restored %+v %v", up1, err1, up2, err2)
	}
}

// TestRestoreRefuses: snapshots that do not hold together are refused,
// naming what is wrong.
func TestRestoreRefuses(t *testing.T) {
	w, _ := snapshotWallet(t)
	good, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(s *wallet.Snapshot)) wallet.Snapshot {
		s := good
		s.Chains = slices.Clone(good.Chains)
		s.Txs = slices.Clone(good.Txs)
		f(&s)
		return s
	}
	stranger := wire.NewMsgTx(2)
	stranger.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{4}}, nil, nil))
	stranger.AddTxOut(wire.NewTxOut(1, []byte{0x51}))
	tests := []struct {
		name string
		s    wallet.Snapshot
		want string
	}{
		{"gap 0", edit(func(s *wallet.Snapshot) { s.Gap = 0 }), "gap limit 0"},
		{"bad descriptor", edit(func(s *wallet.Snapshot) { s.Chains[0].Source = "wpkh(nonsense)" }), "chain 0"},
		{"a mainnet address", edit(func(s *wallet.Snapshot) {
			s.Chains[2].Source = "addr(bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4)"
		}), "chain 2"},
		{"a used index on an address", edit(func(s *wallet.Snapshot) { s.Chains[2].Used = 0 }), "used index 0"},
		{"a used index below -1", edit(func(s *wallet.Snapshot) { s.Chains[0].Used = -2 }), "used index -2"},
		{"not the wallet's", edit(func(s *wallet.Snapshot) { s.Txs[1].Msg = stranger }), "does not fit"},
		{"above the tip", edit(func(s *wallet.Snapshot) { s.Tip = 101 }), "the tip is 101"},
		{"two blocks at a height", edit(func(s *wallet.Snapshot) { s.Txs[1].Block = chainhash.Hash{0xee} }), "disconnect it first"},
		{"a transaction twice in blocks", edit(func(s *wallet.Snapshot) {
			dup := s.Txs[0]
			dup.Height, dup.Block = 102, s.Txs[2].Block
			s.Txs = slices.Insert(s.Txs, 3, dup)
		}), "in block 100 already"},
		{"no message", edit(func(s *wallet.Snapshot) { s.Txs[0].Msg = nil }), "without its message"},
	}
	for _, tt := range tests {
		if _, err := wallet.Restore(tt.s, &chaincfg.RegressionNetParams); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Restore = %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}
