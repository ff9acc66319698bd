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
	c := &chainTraffic{ctx: ctx, t: t, n: n, w: w, others: others}
	c.mine(110) // 11 mature coinbases for others
	c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8),
		w.NewAddress(livenode.P2WPKH).Pay(2e8), w.NewAddress(livenode.P2TR).Pay(3e8))
	c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2WPKH).Pay(4e8))
	c.unrelated(2)
	c.mine(1)

	c.unrelated(3)
	coin := others.Spendable()[0]
	c.send(others, []livenode.Coin{coin}, livenode.Payment{Script: nullData}, others.NewAddress(livenode.P2TR).Pay(coin.Value/2))
	c.mine(1)

	for _, k := range []livenode.AddrType{livenode.P2PKH, livenode.P2WPKH, livenode.P2TR} {
		c.sweep(w.Spendable(k)[:1], others.NewAddress(k))
	}
	c.unrelated(1)
	c.mine(1)

	tx := c.send(w, w.Spendable(livenode.P2WPKH), w.NewAddress(livenode.P2TR).Pay(5e7))
	c.sweep([]livenode.Coin{tx.Coin(0)}, others.NewAddress(livenode.P2PKH))
	c.unrelated(1)
	c.mine(1)
	c.mine(1)

	c.send(w, w.Spendable(), w.NewAddress(livenode.P2WPKH).Pay(1e8))
	c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8))
	c.unrelated(1)
	c.mine(1)
}

// chainTraffic mines and sends for [traffic], failing the test on any error.
type chainTraffic struct {
	ctx       context.Context
	t         *testing.T
	n         *livenode.Node
	w, others *livenode.Wallet
	payments  int
}

// mine mines count blocks and syncs both wallets.
func (c *chainTraffic) mine(count int) {
	c.t.Helper()
	if _, err := c.n.Generate(c.ctx, count); err != nil {
		c.t.Fatal(err)
	}
	for _, w := range []*livenode.Wallet{c.w, c.others} {
		if err := w.Sync(c.ctx, c.n); err != nil {
			c.t.Fatal(err)
		}
	}
}

func (c *chainTraffic) send(from *livenode.Wallet, coins []livenode.Coin, to ...livenode.Payment) *livenode.Tx {
	c.t.Helper()
	tx, err := from.Send(c.ctx, c.n, coins, to...)
	if err != nil {
		c.t.Fatal(err)
	}
	return tx
}

// sweepFee is what a sweep leaves for the fee: below the wallet's dust
// limit, so that it adds no change, and above the fee of one input.
const sweepFee = 540

// sweep spends the wallet's coins to one output of to, without change.
func (c *chainTraffic) sweep(coins []livenode.Coin, to *livenode.Addr) {
	c.t.Helper()
	var sum int64
	for _, coin := range coins {
		sum += coin.Value
	}
	if tx := c.send(c.w, coins, to.Pay(sum-sweepFee)); len(tx.Msg.TxOut) != 1 {
		c.t.Fatalf("sweep %v has %d outputs, want 1", tx.ID, len(tx.Msg.TxOut))
	}
}

// unrelated sends k payments between others' own addresses, cycling through
// the address types.
func (c *chainTraffic) unrelated(k int) {
	c.t.Helper()
	types := []livenode.AddrType{livenode.P2PKH, livenode.P2WPKH, livenode.P2TR}
	for range k {
		coin := c.others.Spendable()[0]
		c.send(c.others, []livenode.Coin{coin}, c.others.NewAddress(types[c.payments%3]).Pay(coin.Value/3))
		c.payments++
	}
}

// chainBlocks returns every block from genesis to the tip, read with RPC,
// and for each the output scripts its inputs spend, in input order after
// the coinbase: what BuildBasic needs besides the block.
func chainBlocks(ctx context.Context, t *testing.T, n *livenode.Node) ([]*wire.MsgBlock, [][][]byte) {
	t.Helper()
	tip, err := n.BlockCount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	scripts := map[wire.OutPoint][]byte{}
	var blocks []*wire.MsgBlock
	var spent [][][]byte
	for h := range tip + 1 {
		hash, err := n.BlockHash(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		b, err := n.Block(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
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
		blocks, spent = append(blocks, b), append(spent, prev)
	}
	return blocks, spent
}
