package livenode

import (
	"fmt"
	"slices"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

var regtest = &chaincfg.RegressionNetParams

// fund records a fake confirmed coinbase at height paying a, standing in
// for a mined block, and returns its coin.
func fund(w *Wallet, a *Addr, height int32, value int64) Coin {
	msg := wire.NewMsgTx(1)
	msg.AddTxIn(wire.NewTxIn(wire.NewOutPoint(&chainhash.Hash{}, wire.MaxPrevOutIndex), []byte{byte(height), 0}, nil))
	msg.AddTxOut(wire.NewTxOut(value, a.Script))
	return w.observe(msg, true, chainhash.Hash{byte(height)}, height).Coin(0)
}

func TestWalletDeterministic(t *testing.T) {
	a, b, c := NewWallet("seed", regtest), NewWallet("seed", regtest), NewWallet("other", regtest)
	for _, k := range []AddrType{P2PKH, P2WPKH, P2TR} {
		x, y, z := a.NewAddress(k), b.NewAddress(k), c.NewAddress(k)
		if x.String() != y.String() {
			t.Errorf("NewAddress(%v) with the same seed = %s and %s, want equal", k, x, y)
		}
		if x.String() == z.String() {
			t.Errorf("NewAddress(%v) with different seeds = %s twice, want different", k, x)
		}
		if got := a.Owner(x.Script); got != x {
			t.Errorf("Owner(%x) = %v, want %v", x.Script, got, x)
		}
	}
}

func TestAddrScriptClass(t *testing.T) {
	w := NewWallet("class", regtest)
	tests := []struct {
		typ  AddrType
		want txscript.ScriptClass
	}{
		{P2PKH, txscript.PubKeyHashTy},
		{P2WPKH, txscript.WitnessV0PubKeyHashTy},
		{P2TR, txscript.WitnessV1TaprootTy},
	}
	for _, tt := range tests {
		if got := txscript.GetScriptClass(w.NewAddress(tt.typ).Script); got != tt.want {
			t.Errorf("GetScriptClass(NewAddress(%v).Script) = %v, want %v", tt.typ, got, tt.want)
		}
	}
}

// TestBuildChain spends each address type in turn without a node; Build
// checks every input with btcd's script engine.
func TestBuildChain(t *testing.T) {
	w := NewWallet("chain", regtest)
	other := NewWallet("unrelated", regtest).NewAddress(P2WPKH)
	mine := w.NewAddress(P2PKH)
	coin := fund(w, mine, 1, 50e8)
	w.tip = 200
	steps := []struct {
		to   *Addr
		mine bool
	}{
		{w.NewAddress(P2WPKH), true},
		{w.NewAddress(P2TR), true},
		{other, false},
	}
	for _, s := range steps {
		tx, err := w.Build([]Coin{coin}, s.to.Pay(coin.Value/2))
		if err != nil {
			t.Fatalf("Build(%v -> %v) = %v", coin.Addr.Type, s.to.Type, err)
		}
		if tx.Spends[0] != coin.Addr || (tx.Pays[0] == s.to) != s.mine {
			t.Errorf("Build(%v -> %v): Spends[0] = %v, Pays[0] = %v", coin.Addr.Type, s.to.Type, tx.Spends[0], tx.Pays[0])
		}
		change := tx.Pays[len(tx.Pays)-1]
		if change == nil || change.Type != coin.Addr.Type {
			t.Errorf("Build(%v -> %v): change pays %v, want a new %v address", coin.Addr.Type, s.to.Type, change, coin.Addr.Type)
		}
		fee := coin.Value - tx.Msg.TxOut[0].Value - tx.Msg.TxOut[1].Value
		if min := vsize(tx.Msg) * feeRate; fee < min || fee > min+10 {
			t.Errorf("Build(%v -> %v): fee %d for %d vB, want %d plus a few", coin.Addr.Type, s.to.Type, fee, vsize(tx.Msg), min)
		}
		w.observe(tx.Msg, false, chainhash.Hash{}, -1)
		coin = tx.Coin(len(tx.Pays) - 1) // spend the change next
	}
}

func TestVerifyCatchesBadSignature(t *testing.T) {
	for _, typ := range []AddrType{P2PKH, P2WPKH, P2TR} {
		w := NewWallet("bad", regtest)
		coin := fund(w, w.NewAddress(typ), 1, 1e8)
		w.tip = 200
		tx, err := w.Build([]Coin{coin}, w.NewAddress(typ).Pay(5e7))
		if err != nil {
			t.Fatal(err)
		}
		in := tx.Msg.TxIn[0]
		if typ == P2PKH {
			in.SignatureScript[10] ^= 1
		} else {
			in.Witness[0][10] ^= 1
		}
		prev := map[wire.OutPoint]*wire.TxOut{coin.OutPoint: wire.NewTxOut(coin.Value, coin.Addr.Script)}
		if err := verify(tx.Msg, prev); err == nil {
			t.Errorf("verify(%v spend with a flipped signature bit) = nil, want an error", typ)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	w := NewWallet("refuse", regtest)
	a := w.NewAddress(P2WPKH)
	coin := fund(w, a, 1, 10000)
	stranger := Coin{OutPoint: wire.OutPoint{Index: 7}, Value: 1e8, Addr: a}
	tests := []struct {
		name string
		from []Coin
		to   []Payment
	}{
		{"no coins", nil, []Payment{a.Pay(1)}},
		{"unknown coin", []Coin{stranger}, []Payment{a.Pay(1)}},
		{"same coin twice", []Coin{coin, coin}, []Payment{a.Pay(1)}},
		{"overspend", []Coin{coin}, []Payment{a.Pay(10001)}},
		{"no room for the fee", []Coin{coin}, []Payment{a.Pay(9990)}},
	}
	for _, tt := range tests {
		if _, err := w.Build(tt.from, tt.to...); err == nil {
			t.Errorf("Build(%s) = nil error, want an error", tt.name)
		}
	}
}

func TestSpendableMaturity(t *testing.T) {
	w := NewWallet("maturity", regtest)
	a := w.NewAddress(P2PKH)
	for h := int32(1); h <= 5; h++ {
		fund(w, a, h, 50e8)
	}
	// A coinbase at height h may be spent in block h+100, the block after
	// tip h+99.
	w.tip = 102
	var heights []int32
	for _, c := range w.Spendable() {
		heights = append(heights, c.Height)
	}
	if want := []int32{1, 2, 3}; !slices.Equal(heights, want) {
		t.Errorf("Spendable() at tip 102 = heights %v, want %v", heights, want)
	}
	if got := w.Spendable(P2TR); len(got) != 0 {
		t.Errorf("Spendable(P2TR) = %d coins, want 0", len(got))
	}
}

func ExampleWallet() {
	w := NewWallet("example", &chaincfg.RegressionNetParams)
	for _, k := range []AddrType{P2PKH, P2WPKH, P2TR} {
		a := w.NewAddress(k)
		fmt.Printf("%v: %d-byte script, %s\n", a.Type, len(a.Script), txscript.GetScriptClass(a.Script))
	}
	// Output:
	// P2PKH: 25-byte script, pubkeyhash
	// P2WPKH: 22-byte script, witness_v0_keyhash
	// P2TR: 34-byte script, witness_v1_taproot
}
