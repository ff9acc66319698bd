package spvtest

import (
	"fmt"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Unspent returns the outputs to the scripts owned names that n's best
// chain leaves unspent, worked out block by block from n's blocks, and
// fails the test unless gettxout confirms each with its value: the coins
// a wallet's ledger must hold at n's tip.
func Unspent(t testing.TB, n *livenode.Node, owned map[string]bool) map[wire.OutPoint]int64 {
	t.Helper()
	ctx := t.Context()
	blocks, err := n.Blocks(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	coins := make(map[wire.OutPoint]int64)
	for _, blk := range blocks {
		for _, tx := range blk.Transactions {
			for _, in := range tx.TxIn {
				delete(coins, in.PreviousOutPoint)
			}
			for i, o := range tx.TxOut {
				if owned[string(o.PkScript)] {
					coins[wire.OutPoint{Hash: tx.TxHash(), Index: uint32(i)}] = o.Value
				}
			}
		}
	}
	for op, value := range coins {
		var out *struct {
			Value float64 `json:"value"`
		}
		if err := n.RPC.Call(ctx, &out, "gettxout", op.Hash.String(), op.Index, false); err != nil {
			t.Fatal(err)
		}
		if out == nil || fmt.Sprintf("%.8f", out.Value) != fmt.Sprintf("%.8f", float64(value)/1e8) {
			t.Fatalf("gettxout %v = %+v, want unspent with %d sat", op, out, value)
		}
	}
	return coins
}
