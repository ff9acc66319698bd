package wallet_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestDescriptorWalletScan pays a descriptor wallet at indexes that only a
// growing gap limit reaches (gap 3: receiving 0, 2, 4, 7 and change 1),
// spends one of its coins, and scans a btcd regtest node with BIP157
// filters the way a wallet would: the watched scripts first, then,
// round after round, only the scripts each round's payments added. The
// transactions found equal those of one scan for the whole address list,
// and the ledger's coins are exactly the node's unspent outputs
// (gettxout).
func TestDescriptorWalletScan(t *testing.T) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	funder := livenode.NewWallet("descriptor wallet funder", regtest)
	n := livenode.StartBtcd(t, funder.NewAddress(livenode.P2WPKH).Address)
	mine := func(blocks int) {
		t.Helper()
		if _, err := n.Generate(ctx, blocks); err != nil {
			t.Fatal(err)
		}
		if err := funder.Sync(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	mine(105)
	acct := spvtest.NewAccount(t, regtest)
	payments := []struct {
		chain, index uint32
		value        int64
	}{{0, 0, 1_0000_0000}, {0, 2, 2_0000_0000}, {1, 1, 5000_0000}, {0, 4, 3_0000_0000}, {0, 7, 7000_0000}}
	var first *livenode.Tx
	for _, p := range payments {
		_, script := acct.Child(t, p.chain, p.index)
		tx, err := funder.Send(ctx, n, funder.Spendable()[:1], livenode.Payment{Script: script, Value: p.value})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = tx
		}
		mine(1)
	}
	// Spend receiving 0 to the funder, change to change 0.
	spend := spendCoin(t, acct, first, n, funder.NewAddress(livenode.P2WPKH).Script)
	mine(2)

	s, err := spv.Dial(ctx, n.P2PAddr, spv.Config{Network: spv.Regtest, Services: wire.SFNodeCF, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	chain, err := spv.NewChain(spv.Regtest)
	if err != nil {
		t.Fatal(err)
	}
	if err := spv.SyncHeaders(ctx, s, chain); err != nil {
		t.Fatal(err)
	}
	const birthday = 100
	scan := func(watch []address.Address) map[int32][]spv.Tx {
		t.Helper()
		w, err := spv.NewWatch(watch, nil)
		if err != nil {
			t.Fatal(err)
		}
		found := make(map[int32][]spv.Tx)
		_, err = cfscan.Run(ctx, cfscan.Config{Session: s, Chain: chain, Watch: w, From: birthday, To: -1,
			Emit: func(tx spv.Tx) error { found[tx.Height] = append(found[tx.Height], tx); return nil }})
		if err != nil {
			t.Fatal(err)
		}
		return found
	}

	w, err := wallet.New(3, acct.Desc)
	if err != nil {
		t.Fatal(err)
	}
	pending, rounds := w.Scripts.Watched(), 0
	for ; len(pending) > 0; rounds++ {
		found := scan(addresses(pending))
		pending = nil
		for _, h := range sortedKeys(found) {
			var msgs []*wire.MsgTx
			for _, tx := range found[h] {
				msgs = append(msgs, tx.Msg)
			}
			up, err := w.Connect(wallet.Block{Height: h, Hash: found[h][0].Block}, msgs)
			if err != nil {
				t.Fatal(err)
			}
			pending = append(pending, up.Watch...)
		}
	}
	if _, err := w.Connect(wallet.Block{Height: chain.Height(), Hash: chain.Tip()}, nil); err != nil {
		t.Fatal(err)
	}
	if used, _ := w.Scripts.MaxUsed(0); used != 7 || rounds < 3 {
		t.Errorf("after %d scan rounds receiving maxUsed = %d, want 7 after 3 rounds or more", rounds, used)
	}

	// One scan for every address the wallet ended up watching finds the
	// same transactions.
	all := scan(addresses(w.Scripts.Watched()))
	var want, got []string
	for _, txs := range all {
		for _, tx := range txs {
			want = append(want, tx.ID.String())
		}
	}
	for _, tx := range w.Ledger.Txs() {
		got = append(got, tx.ID.String())
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) || len(got) != len(payments)+1 {
		t.Errorf("descriptor wallet found %v,\naddress-list scan %v; want %d transactions each", got, want, len(payments)+1)
	}

	// The ledger's coins are the node's unspent outputs, nothing more.
	coins := w.Ledger.Unspent()
	var total int64
	for _, c := range coins {
		checkTxOut(t, n, c.OutPoint, c.Value)
		total += c.Value
	}
	checkTxOut(t, n, wire.OutPoint{Hash: first.ID, Index: 0}, 0) // spent
	bal := w.Ledger.Balance(1)
	if len(coins) != len(payments) || bal.Confirmed != total || bal.Shallow+bal.Immature+bal.Incoming+bal.Outgoing != 0 {
		t.Errorf("%d coins, Balance(1) = %+v; want %d coins, all %d confirmed", len(coins), bal, len(payments), total)
	}
	t.Logf("%d rounds, %d transactions, %d coins, %d sat; spend %v", rounds, len(got), len(coins), total, spend)
}

// spendCoin spends output 0 of tx, which pays receiving index 0, to
// script, change to change index 0, and submits it.
func spendCoin(t *testing.T, acct spvtest.Account, tx *livenode.Tx, n *livenode.Node, script []byte) chainhash.Hash {
	t.Helper()
	_, change := acct.Child(t, 1, 0)
	value := tx.Msg.TxOut[0].Value
	msg := acct.Spend(t, wire.OutPoint{Hash: tx.ID}, value, 0, 0,
		livenode.Payment{Script: script, Value: 4000_0000}, livenode.Payment{Script: change, Value: value - 4000_0000 - 1000})
	id, err := n.SendRawTransaction(t.Context(), msg)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// checkTxOut asks the node whether op is unspent with value (0: spent).
func checkTxOut(t *testing.T, n *livenode.Node, op wire.OutPoint, value int64) {
	t.Helper()
	var out *struct {
		Value        float64 `json:"value"`
		ScriptPubKey struct {
			Hex string `json:"hex"`
		} `json:"scriptPubKey"`
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := n.RPC.Call(ctx, &out, "gettxout", op.Hash.String(), op.Index, false); err != nil {
		t.Fatal(err)
	}
	switch {
	case value == 0 && out != nil:
		t.Errorf("gettxout %v = %+v, want spent", op, out)
	case value != 0 && (out == nil || fmt.Sprintf("%.8f", out.Value) != fmt.Sprintf("%.8f", float64(value)/1e8)):
		t.Errorf("gettxout %v = %+v, want unspent with %d sat", op, out, value)
	}
}

func addresses(ds []wallet.Derived) []address.Address {
	out := make([]address.Address, len(ds))
	for i, d := range ds {
		out[i] = d.Address
	}
	return out
}

func sortedKeys(m map[int32][]spv.Tx) []int32 {
	var ks []int32
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
