package spv

import (
	"slices"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

func mustAddress(t *testing.T, s string) address.Address {
	t.Helper()
	a, err := address.DecodeAddress(s, Regtest.Params)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestWatchCheck(t *testing.T) {
	pkh := mustAddress(t, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn")
	wpkh := mustAddress(t, "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080")
	known := wire.OutPoint{Hash: chainhash.Hash{7}, Index: 1}
	w, err := NewWatch([]address.Address{pkh, wpkh, pkh}, []wire.OutPoint{known})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Addresses()) != 2 || len(w.Scripts()) != 2 {
		t.Fatalf("NewWatch(3 addresses, one repeated): %d addresses, %d scripts, want 2, 2", len(w.Addresses()), len(w.Scripts()))
	}
	script := func(a address.Address) []byte { s, _ := txscript.PayToAddrScript(a); return s }

	// Pays wpkh in output 1; spends the known coin in input 1.
	tx := wire.NewMsgTx(2)
	tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{8}}, nil, nil))
	tx.AddTxIn(wire.NewTxIn(&known, nil, nil))
	tx.AddTxOut(wire.NewTxOut(5, []byte{0x51}))
	tx.AddTxOut(wire.NewTxOut(6, script(wpkh)))
	txid := tx.TxHash()
	ins, outs := w.Check(tx, txid)
	if len(ins) != 1 || ins[0] != (Input{Index: 1, Spends: known}) {
		t.Errorf("Check(): inputs %v, want input 1 spending %v", ins, known)
	}
	if len(outs) != 1 || outs[0].Index != 1 || outs[0].Value != 6 || outs[0].Address != wpkh {
		t.Errorf("Check(): outputs %v, want output 1 of 6 sat to %v", outs, wpkh)
	}
	if got, want := w.Coins(), []wire.OutPoint{{Hash: txid, Index: 1}}; !slices.Equal(got, want) {
		t.Errorf("Coins() after the spend and the payment = %v, want %v", got, want)
	}

	// Spends the coin just found.
	spend := wire.NewMsgTx(2)
	spend.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: txid, Index: 1}, nil, nil))
	spend.AddTxOut(wire.NewTxOut(1, []byte{0x51}))
	if ins, outs := w.Check(spend, spend.TxHash()); len(ins) != 1 || len(outs) != 0 {
		t.Errorf("Check(spend of the new coin) = %v, %v, want one input", ins, outs)
	}
	if ins, outs := w.Check(spend, spend.TxHash()); len(ins)+len(outs) != 0 {
		t.Errorf("Check(the same spend again) = %v, %v, want nothing: the coin is gone", ins, outs)
	}
}

// TestWatchCheckAllocs pins the per-transaction path: a transaction that
// is not the wallet's costs no allocation.
func TestWatchCheckAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	w, err := NewWatch([]address.Address{mustAddress(t, "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := wire.NewMsgTx(2)
	tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{8}}, nil, nil))
	tx.AddTxOut(wire.NewTxOut(5, []byte{0x00, 0x14, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}))
	txid := tx.TxHash()
	if n := testing.AllocsPerRun(100, func() { w.Check(tx, txid) }); n != 0 {
		t.Errorf("Check(a transaction not the wallet's) allocates %v times, want 0", n)
	}
}
