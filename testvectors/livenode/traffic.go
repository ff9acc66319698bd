package livenode

import (
	"context"
	"testing"
)

// Traffic mines a regtest chain for a test on a node: blocks, payments
// between a wallet under test and others who mine, sweeps without change,
// and payments among the others alone. Each method fails the test on any
// error. The scenario, what to mine in which order and why, stays with the
// test that needs it.
//
// The others' wallet must hold the node's mining address, so that
// [Traffic.Unrelated] and the test have coinbases to spend.
type Traffic struct {
	ctx       context.Context
	t         testing.TB
	n         *Node
	w, others *Wallet
	payments  int // unrelated payments so far, to cycle their address types
}

// NewTraffic returns the traffic of wallet w and of others on n. ctx bounds
// every call to the node.
func NewTraffic(ctx context.Context, t testing.TB, n *Node, w, others *Wallet) *Traffic {
	return &Traffic{ctx: ctx, t: t, n: n, w: w, others: others}
}

// Mine mines count blocks, syncs both wallets and returns the new tip's
// height.
func (tr *Traffic) Mine(count int) int32 {
	tr.t.Helper()
	if _, err := tr.n.Generate(tr.ctx, count); err != nil {
		tr.t.Fatal(err)
	}
	for _, w := range []*Wallet{tr.w, tr.others} {
		if err := w.Sync(tr.ctx, tr.n); err != nil {
			tr.t.Fatal(err)
		}
	}
	return tr.w.Tip()
}

// Send spends coins of from to the payments with [Wallet.Send].
func (tr *Traffic) Send(from *Wallet, coins []Coin, to ...Payment) *Tx {
	tr.t.Helper()
	tx, err := from.Send(tr.ctx, tr.n, coins, to...)
	if err != nil {
		tr.t.Fatal(err)
	}
	return tx
}

// sweepFee is what a sweep leaves for the fee: below [dustLimit], so that
// the wallet adds no change, and above the fee of one input.
const sweepFee = 540

// Sweep spends the wallet's coins to one output paying to, without change,
// so that nothing but the outpoints it spends ties it to the wallet.
func (tr *Traffic) Sweep(coins []Coin, to *Addr) *Tx {
	tr.t.Helper()
	var sum int64
	for _, c := range coins {
		sum += c.Value
	}
	tx := tr.Send(tr.w, coins, to.Pay(sum-sweepFee))
	if len(tx.Msg.TxOut) != 1 {
		tr.t.Fatalf("sweep %v has %d outputs, want 1", tx.ID, len(tx.Msg.TxOut))
	}
	return tx
}

// Unrelated sends k payments from the others to new addresses of their
// own, each of a third of their oldest spendable coin, cycling through
// P2PKH, P2WPKH and P2TR.
func (tr *Traffic) Unrelated(k int) {
	tr.t.Helper()
	types := []AddrType{P2PKH, P2WPKH, P2TR}
	for range k {
		coin := tr.others.Spendable()[0]
		tr.Send(tr.others, []Coin{coin}, tr.others.NewAddress(types[tr.payments%3]).Pay(coin.Value/3))
		tr.payments++
	}
}
