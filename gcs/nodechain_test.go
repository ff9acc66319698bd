package gcs

import (
	"context"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

var regtest = &chaincfg.RegressionNetParams

// nullData is an OP_RETURN output script, which basic filters leave out.
var nullData = []byte{0x6a, 0x04, 'g', 'c', 's', '!'}

// traffic mines the chain the node tests filter: the wallet w receives
// P2PKH, P2WPKH and P2TR outputs from others, who mine, and spends them, among
// unrelated payments of others, one with an OP_RETURN output. One block
// holds only sweeps of one coin of each type to others, so that only the
// scripts they spend tie it to the wallet; another spends a coin in the
// block that confirms it. Some blocks hold no wallet transaction, one holds
// a coinbase only.
func traffic(ctx context.Context, t *testing.T, n *livenode.Node, w, others *livenode.Wallet) {
	t.Helper()
	tr := livenode.NewTraffic(ctx, t, n, w, others)
	tr.Mine(110) // 11 mature coinbases for others
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8),
		w.NewAddress(livenode.P2WPKH).Pay(2e8), w.NewAddress(livenode.P2TR).Pay(3e8))
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2WPKH).Pay(4e8))
	tr.Unrelated(2)
	tr.Mine(1)

	tr.Unrelated(3)
	coin := others.Spendable()[0]
	tr.Send(others, []livenode.Coin{coin}, livenode.Payment{Script: nullData}, others.NewAddress(livenode.P2TR).Pay(coin.Value/2))
	tr.Mine(1)

	for _, k := range []livenode.AddrType{livenode.P2PKH, livenode.P2WPKH, livenode.P2TR} {
		tr.Sweep(w.Spendable(k)[:1], others.NewAddress(k))
	}
	tr.Unrelated(1)
	tr.Mine(1)

	tx := tr.Send(w, w.Spendable(livenode.P2WPKH), w.NewAddress(livenode.P2TR).Pay(5e7))
	tr.Sweep([]livenode.Coin{tx.Coin(0)}, others.NewAddress(livenode.P2PKH))
	tr.Unrelated(1)
	tr.Mine(1)
	tr.Mine(1)

	tr.Send(w, w.Spendable(), w.NewAddress(livenode.P2WPKH).Pay(1e8))
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8))
	tr.Unrelated(1)
	tr.Mine(1)
}

// chainBlocks returns every block from genesis to the tip, read with RPC,
// and for each the output scripts its inputs spend, in input order after
// the coinbase: what BuildBasic needs besides the block.
func chainBlocks(ctx context.Context, t *testing.T, n *livenode.Node) ([]*wire.MsgBlock, [][][]byte) {
	t.Helper()
	blocks, err := n.Blocks(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[wire.OutPoint][]byte{}
	spent := make([][][]byte, len(blocks))
	for h, b := range blocks {
		var prev [][]byte
		for i, tx := range b.Transactions {
			for _, in := range tx.TxIn {
				if i == 0 {
					break // the coinbase spends nothing
				}
				s, ok := scripts[in.PreviousOutPoint]
				if !ok {
					t.Fatalf("block %d: input spends %v, which no earlier output created", h, in.PreviousOutPoint)
				}
				prev = append(prev, s)
			}
			txid := tx.TxHash()
			for j, out := range tx.TxOut {
				scripts[wire.OutPoint{Hash: txid, Index: uint32(j)}] = out.PkScript
			}
		}
		spent[h] = prev
	}
	return blocks, spent
}
