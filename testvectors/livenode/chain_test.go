package livenode

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcutil/v2/gcs"
	"github.com/btcsuite/btcd/btcutil/v2/gcs/builder"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

type startFunc func(t testing.TB, mining address.Address, args ...string) *Node

// testChain is the scenario every Bitcoin-family node must pass: mine to
// the wallet, spend P2PKH -> P2WPKH -> P2TR -> an unrelated address, see
// all three confirm, check the block's BIP158 filter and BIP157 header,
// and talk P2P.
func testChain(t *testing.T, start startFunc) {
	w := NewWallet("livenode chain test", regtest)
	mine := w.NewAddress(P2PKH)
	began := time.Now()
	n := start(t, mine.Address)
	t.Logf("%s answered RPC %v after the start call", n.Name, time.Since(began).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	began = time.Now()

	if _, err := n.Generate(ctx, 101); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(ctx, n); err != nil {
		t.Fatal(err)
	}
	checkMaturity(ctx, t, w, n)
	txs := spendChain(ctx, t, w, n)
	hashes, err := n.Generate(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(ctx, n); err != nil {
		t.Fatal(err)
	}
	checkConfirmed(ctx, t, n, hashes[0], txs)
	checkFilter(ctx, t, n, hashes[0], txs)
	checkP2P(ctx, t, n, hashes[0])
	t.Logf("%s scenario took %v", n.Name, time.Since(began).Round(time.Millisecond))
}

// checkMaturity checks the wallet's coinbase maturity rule against the
// node at tip 101: the coinbase of height 2 is the youngest spendable, so
// spending the one of height 3 must be refused.
func checkMaturity(ctx context.Context, t *testing.T, w *Wallet, n *Node) {
	t.Helper()
	var heights []int32
	for _, c := range w.Spendable() {
		heights = append(heights, c.Height)
	}
	if len(heights) != 2 || heights[0] != 1 || heights[1] != 2 {
		t.Fatalf("Spendable() at tip %d = heights %v, want [1 2]", w.Tip(), heights)
	}
	var young Coin
	for _, c := range w.Coins() {
		if c.Height == 3 {
			young = c
		}
	}
	tx, err := w.Build([]Coin{young}, w.NewAddress(P2WPKH).Pay(1e8))
	if err != nil {
		t.Fatal(err)
	}
	var rerr *RPCError
	if _, err := n.SendRawTransaction(ctx, tx.Msg); !errors.As(err, &rerr) {
		t.Errorf("SendRawTransaction(spend of the height-3 coinbase at tip 101) = %v, want an RPC error", err)
	}
}

// spendChain sends P2PKH -> P2WPKH -> P2TR -> unrelated, each spending the
// unconfirmed output of the one before.
func spendChain(ctx context.Context, t *testing.T, w *Wallet, n *Node) []*Tx {
	t.Helper()
	unrelated := NewWallet("someone else", regtest).NewAddress(P2WPKH)
	coin := w.Spendable()[1]
	var txs []*Tx
	for _, to := range []*Addr{w.NewAddress(P2WPKH), w.NewAddress(P2TR), unrelated} {
		tx, err := w.Send(ctx, n, []Coin{coin}, to.Pay(coin.Value/2))
		if err != nil {
			t.Fatalf("Send(%v -> %v) = %v", coin.Addr.Type, to.Type, err)
		}
		if tx.Spends[0] != coin.Addr {
			t.Errorf("Send(%v -> %v): Spends[0] = %v, want %v", coin.Addr.Type, to.Type, tx.Spends[0], coin.Addr)
		}
		if to == unrelated && tx.Pays[0] != nil || to != unrelated && tx.Pays[0] != to {
			t.Errorf("Send(%v -> %v): Pays[0] = %v", coin.Addr.Type, to.Type, tx.Pays[0])
		}
		txs = append(txs, tx)
		if to != unrelated {
			coin = tx.Coin(0)
		}
	}
	return txs
}

// checkConfirmed checks that block holds the transactions and that the
// wallet saw them confirm there.
func checkConfirmed(ctx context.Context, t *testing.T, n *Node, block chainhash.Hash, txs []*Tx) {
	t.Helper()
	if best, err := n.BestBlockHash(ctx); err != nil || best != block {
		t.Errorf("BestBlockHash() = %v, %v, want %v", best, err, block)
	}
	b, err := n.Block(ctx, block)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Transactions) != 1+len(txs) {
		t.Fatalf("block %v has %d transactions, want coinbase + %d", block, len(b.Transactions), len(txs))
	}
	for i, tx := range txs {
		if got := b.Transactions[1+i].TxHash(); got != tx.ID {
			t.Errorf("block transaction %d = %v, want %v", 1+i, got, tx.ID)
		}
		if tx.Block != block || tx.Height != 102 {
			t.Errorf("wallet: tx %v confirmed in %v at %d, want %v at 102", tx.ID, tx.Block, tx.Height, block)
		}
	}
}

// checkFilter checks the node's BIP158 filter for block against btcd's
// gcs package and its BIP157 header against the previous one.
func checkFilter(ctx context.Context, t *testing.T, n *Node, block chainhash.Hash, txs []*Tx) {
	t.Helper()
	raw, header, err := n.BasicFilter(ctx, block)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := n.BlockHash(ctx, 101)
	if err != nil {
		t.Fatal(err)
	}
	_, prevHeader, err := n.BasicFilter(ctx, prev)
	if err != nil {
		t.Fatal(err)
	}
	// BIP157: header = dSHA256(dSHA256(filter) || previous header).
	filterHash := chainhash.DoubleHashH(raw)
	if want := chainhash.DoubleHashH(append(filterHash[:], prevHeader[:]...)); header != want {
		t.Errorf("filter header of block 102 = %v, want %v", header, want)
	}
	f, err := gcs.FromNBytes(builder.DefaultP, builder.DefaultM, raw)
	if err != nil {
		t.Fatalf("gcs.FromNBytes(filter of block 102) = %v", err)
	}
	key := builder.DeriveKey(&block)
	for _, tx := range txs {
		for _, out := range tx.Msg.TxOut {
			if ok, err := f.Match(key, out.PkScript); !ok || err != nil {
				t.Errorf("filter of block 102: Match(%x) = %v, %v, want true", out.PkScript, ok, err)
			}
		}
	}
	t.Logf("%s: block 102 filter has N=%d, %d bytes", n.Name, f.N(), len(raw))
}

// checkP2P connects to the node, asks for every header from genesis on
// and for the tip's compact filter, and compares both with RPC.
func checkP2P(ctx context.Context, t *testing.T, n *Node, tip chainhash.Hash) {
	t.Helper()
	p := ConnectPeer(t, n.P2PAddr)
	genesis, err := n.BlockHash(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	gh := wire.NewMsgGetHeaders()
	gh.AddBlockLocatorHash(&genesis)
	if err := p.Send(ctx, gh); err != nil {
		t.Fatal(err)
	}
	headers, err := Await[*wire.MsgHeaders](ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(headers.Headers) != 102 || headers.Headers[101].BlockHash() != tip ||
		headers.Headers[0].PrevBlock != genesis {
		t.Fatalf("headers after genesis: %d, want 102 from genesis to %v", len(headers.Headers), tip)
	}
	if err := p.Send(ctx, wire.NewMsgGetCFilters(wire.GCSFilterRegular, 102, &tip)); err != nil {
		t.Fatal(err)
	}
	cf, err := Await[*wire.MsgCFilter](ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	raw, _, err := n.BasicFilter(ctx, tip)
	if err != nil {
		t.Fatal(err)
	}
	if cf.BlockHash != tip || !bytes.Equal(cf.Data, raw) {
		t.Errorf("P2P cfilter for %v = block %v, %x, want the RPC filter %x", tip, cf.BlockHash, cf.Data, raw)
	}
}
