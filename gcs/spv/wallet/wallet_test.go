package wallet_test

import (
	"fmt"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

func regtestWallet(t testing.TB, gap uint32) *wallet.Wallet {
	t.Helper()
	k, err := hdkeychain.NewKeyFromString("xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8")
	if err == nil {
		k, err = k.CloneWithVersion(chaincfg.RegressionNetParams.HDPublicKeyID[:])
	}
	if err != nil {
		t.Fatal(err)
	}
	d, err := descriptor.Parse("wpkh("+k.String()+"/<0;1>/*)", &chaincfg.RegressionNetParams)
	if err != nil {
		t.Fatal(err)
	}
	w, err := wallet.New(gap, d)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func script(t testing.TB, w *wallet.Wallet, chain int, i uint32) []byte {
	t.Helper()
	s, err := w.Scripts.Chains()[chain].(*descriptor.Descriptor).Script(i)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWalletExtendsOnPayment feeds blocks whose transactions pay the last
// watched receiving index: each returns the scripts to rescan, and a
// payment to one of those is then recognised.
func TestWalletExtendsOnPayment(t *testing.T) {
	w := regtestWallet(t, 3)
	pay := func(seed byte, s []byte, v int64) *wire.MsgTx {
		tx := wire.NewMsgTx(2)
		tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{seed}}, nil, nil))
		tx.AddTxOut(wire.NewTxOut(v, s))
		return tx
	}
	b := func(h int32) wallet.Block { return wallet.Block{Height: h, Hash: chainhash.Hash{byte(h)}} }
	far := script(t, w, 0, 5) // not watched yet
	up, err := w.Connect(b(1), []*wire.MsgTx{pay(1, far, 1)})
	if err != nil || len(up.Added) != 0 || len(up.Watch) != 0 {
		t.Fatalf("a payment beyond the gap: Update %+v, %v; want nothing", up, err)
	}
	up, err = w.Connect(b(2), []*wire.MsgTx{pay(2, script(t, w, 0, 2), 100)})
	if err != nil || len(up.Added) != 1 || len(up.Watch) != 3 || up.Watch[0].Index != 3 || up.Watch[2].Index != 5 {
		t.Fatalf("a payment to index 2: Update %+v, %v; want indexes 3 to 5 to watch", up, err)
	}
	// The rescan of the new scripts finds block 1's payment to index 5.
	up, err = w.Connect(b(1), []*wire.MsgTx{pay(1, far, 1)})
	if err != nil || len(up.Added) != 1 || len(up.Watch) != 3 || up.Watch[2].Index != 8 {
		t.Fatalf("the rescan's payment to index 5: Update %+v, %v; want indexes 6 to 8 to watch", up, err)
	}
	if bal := w.Ledger.Balance(1); bal.Confirmed != 101 {
		t.Errorf("Balance = %+v, want 101 confirmed", bal)
	}
	if n, err := w.Scripts.Next(0); err != nil || n.Index != 6 {
		t.Errorf("Next(0) = %d, %v; want 6", n.Index, err)
	}
	up, err = w.Disconnect(b(2))
	if err != nil || len(up.Unconfirmed) != 1 || len(w.Scripts.Watched()) != 9+3 {
		t.Errorf("Disconnect(2) = %+v, %v; want one unconfirmed, the watch list kept (%d)", up, err, len(w.Scripts.Watched()))
	}
}

// A wallet fed by a scan: blocks in, balance and the scripts to rescan out.
func Example() {
	d, _ := descriptor.Parse("wpkh(tpubD6NzVbkrYhZ4WaWSyoBvQwbpLkojyoTZPRsgXELWz3Popb3qkjcJyJUGLnL4qHHoQvao8ESaAstxYSnhyswJ76uZPStJRJCTKvosUCJZL5B/<0;1>/*)",
		&chaincfg.RegressionNetParams)
	w, _ := wallet.New(wallet.DefaultGap, d)
	first := w.Scripts.Watched()[0]
	fmt.Printf("watching %d scripts; first: chain %d index %d\n", len(w.Scripts.Watched()), first.Chain, first.Index)

	tx := wire.NewMsgTx(2)
	tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{1}}, nil, nil))
	tx.AddTxOut(wire.NewTxOut(50_000, first.Script))
	up, _ := w.Connect(wallet.Block{Height: 120, Hash: chainhash.Hash{0x78}}, []*wire.MsgTx{tx})
	fmt.Println("new scripts to rescan:", len(up.Watch))
	w.Connect(wallet.Block{Height: 125, Hash: chainhash.Hash{0x7d}}, nil)
	fmt.Printf("%+v\n", w.Ledger.Balance(6))
	// Output:
	// watching 40 scripts; first: chain 0 index 0
	// new scripts to rescan: 1
	// {Confirmed:50000 Shallow:0 Immature:0 Incoming:0 Outgoing:0}
}
