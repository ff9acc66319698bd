package livenode

import (
	"context"
	"testing"
	"time"
)

// TestTraffic mines with Traffic on btcd and checks what each method
// promises: Mine's height, a sweep of one output that the wallet records,
// unrelated payments that leave the wallet alone and cycle the address
// types, and Blocks from a height to the tip.
func TestTraffic(t *testing.T) {
	t.Parallel()
	w := NewWallet("livenode traffic test", regtest)
	others := NewWallet("livenode traffic test: others", regtest)
	n := StartBtcd(t, others.NewAddress(P2PKH).Address)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	tr := NewTraffic(ctx, t, n, w, others)
	if h := tr.Mine(101); h != 101 || others.Tip() != 101 {
		t.Fatalf("Mine(101) = %d, others at %d, want 101", h, others.Tip())
	}
	paid := tr.Send(others, others.Spendable()[:1], w.NewAddress(P2WPKH).Pay(1e8))
	tr.Mine(1)
	sweep := tr.Sweep([]Coin{w.Tx(paid.ID).Coin(0)}, others.NewAddress(P2TR))
	if got := sweep.Msg.TxOut[0].Value; got != 1e8-sweepFee || sweep.Spends[0] == nil {
		t.Errorf("Sweep(1e8 sat) pays %d, spends %v, want %d from the wallet", got, sweep.Spends, int64(1e8-sweepFee))
	}
	tr.Unrelated(4)
	txs := others.Txs()
	for i, want := range []AddrType{P2PKH, P2WPKH, P2TR, P2PKH} {
		if pays := txs[len(txs)-4+i].Pays[0]; pays == nil || pays.Type != want {
			t.Errorf("Unrelated(4): payment %d pays %v, want a new %v address of the others", i, pays, want)
		}
	}
	tip := tr.Mine(1)
	if txs := w.Txs(); len(txs) != 2 || txs[1].ID != sweep.ID || txs[1].Height != tip {
		t.Errorf("wallet transactions after the sweep was mined at %d: %d, want the payment and the sweep", tip, len(txs))
	}
	blocks, err := n.Blocks(ctx, tip-1)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[1].BlockHash() != sweep.Block || len(blocks[1].Transactions) != 1+1+4 {
		t.Errorf("Blocks(%d) = %d blocks, want 2, the last holding the sweep and 4 unrelated payments", tip-1, len(blocks))
	}
}
