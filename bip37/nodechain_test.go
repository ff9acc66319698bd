package bip37

import (
	"context"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

var regtest = &chaincfg.RegressionNetParams

// traffic mines the chain the node tests scan: the wallet w receives and
// spends P2PKH, P2WPKH and P2TR outputs, in blocks shared with unrelated
// transactions of others, who mine. The wallet reads the chain from full
// blocks up to height born, then holds coins (one of each type). Later
// blocks spend them, pay the wallet again, spend those payments (once in
// the block that confirms the coin), and include a block without wallet
// transactions and one with a coinbase only. Some spends are sweeps without
// change, so that nothing but the outpoint they spend ties them to the
// wallet.
func traffic(ctx context.Context, t *testing.T, n *livenode.Node, w, others *livenode.Wallet) (born int32, coins []livenode.Coin) {
	t.Helper()
	tr := livenode.NewTraffic(ctx, t, n, w, others)
	tr.Mine(110) // 11 mature coinbases for others
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8),
		w.NewAddress(livenode.P2WPKH).Pay(2e8), w.NewAddress(livenode.P2TR).Pay(3e8))
	tr.Unrelated(2)
	born = tr.Mine(1)
	coins = w.Coins()

	tr.Sweep(w.Spendable(livenode.P2PKH), others.NewAddress(livenode.P2WPKH))
	tx := tr.Send(w, w.Spendable(livenode.P2WPKH), w.NewAddress(livenode.P2TR).Pay(15e7))
	tr.Sweep([]livenode.Coin{tx.Coin(0)}, others.NewAddress(livenode.P2TR))
	paid := tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2WPKH).Pay(4e8))
	tr.Unrelated(2)
	tr.Mine(1)

	tr.Unrelated(3)
	tr.Mine(1)

	p2tr := w.Spendable(livenode.P2TR)[0]
	if p2tr.Height != born {
		t.Fatalf("wallet: oldest P2TR coin confirmed at %d, want %d", p2tr.Height, born)
	}
	tr.Sweep([]livenode.Coin{p2tr}, others.NewAddress(livenode.P2PKH))
	tr.Sweep([]livenode.Coin{w.Tx(paid.ID).Coin(0)}, others.NewAddress(livenode.P2TR))
	tr.Unrelated(1)
	tr.Mine(1)
	tr.Mine(1)

	tr.Send(w, w.Spendable(), w.NewAddress(livenode.P2WPKH).Pay(2e7))
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8))
	tr.Unrelated(1)
	tr.Mine(1)
	return born, coins
}

// headerChain syncs the node's header chain from genesis with package spv,
// which checks that the headers link and carry the proof of work and
// difficulty of network n: SHA-256d on btcd, scrypt on Litecoin.
func headerChain(ctx context.Context, t *testing.T, node *livenode.Node, n *spv.Network) *spv.Chain {
	t.Helper()
	c, err := spv.NewChain(n)
	if err != nil {
		t.Fatal(err)
	}
	s := spvtest.Dial(t, node.P2PAddr, n, 0, 0)
	if err := spv.SyncHeaders(ctx, s, c); err != nil {
		t.Fatal(err)
	}
	return c
}
