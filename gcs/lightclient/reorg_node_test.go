package lightclient

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestFollowReorgNodes follows a descriptor wallet (wpkh over a tpub,
// receiving and change, gap 3) on three regtest nodes, A and C
// linked, B linked to A until it is cut off. Paid before the start at
// receiving 0 and 2, then at 4 in a new block; then A mines two blocks
// that pay receiving 5 and spend receiving 0, while B mines four that
// double-spend the funding of the first to pay change 1. Once B's blocks
// reach them, A and C reorganise to B's branch: the stream disconnects A's two
// blocks, descending, with the two transactions as removed, then connects
// B's four, ascending, with the double spend. The ledger's coins are then
// exactly the outputs to the wallet's scripts that the node's final chain
// leaves unspent, each confirmed by gettxout. On btcd and litecoind, in
// both modes: in BIP37 one peer suffices, so B's branch connects as soon
// as B serves it.
func TestFollowReorgNodes(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		for _, mode := range []Mode{BIP157, BIP37} {
			t.Run(n.Name+"/"+mode.String(), func(t *testing.T) { followReorg(t, n, mode) })
		}
	}
}

func followReorg(t *testing.T, n spvtest.Node, mode Mode) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	network := spv.Regtest
	if n.Name == "litecoind" {
		network = spvtest.LitecoinRegtest
	}
	funder := livenode.NewWallet("lightclient funder", regtest)
	miner := funder.NewAddress(livenode.P2WPKH).Address
	a, b, c := n.Start(t, miner), n.Start(t, miner), n.Start(t, miner)
	if _, err := a.Generate(ctx, 104); err != nil {
		t.Fatal(err)
	}
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	spvtest.Link(t, a, b)
	spvtest.Link(t, a, c)
	acct := spvtest.NewAccount(t, regtest)
	pay := func(n *livenode.Node, chain, index uint32, value int64) *livenode.Tx {
		t.Helper()
		_, script := acct.Child(t, chain, index)
		tx, err := funder.Send(ctx, n, funder.Spendable()[:1], livenode.Payment{Script: script, Value: value})
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	mine := func(n *livenode.Node, blocks int, synced ...*livenode.Node) int32 {
		t.Helper()
		if _, err := n.Generate(ctx, blocks); err != nil {
			t.Fatal(err)
		}
		tip, err := n.BlockCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		waitTip(t, tip, append(synced, n)...)
		return tip
	}
	first := pay(a, 0, 0, 1e8)
	mine(a, 1, b, c)
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	pay(a, 0, 2, 2e8)
	tip := mine(a, 1, b, c)
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}

	cl := start(t, Config{Logger: testLogger(t), Mode: mode, Network: network, Peers: []string{a.P2PAddr, b.P2PAddr, c.P2PAddr}, Descriptors: []*descriptor.Descriptor{acct.Desc},
		Gap: 3, Birthday: 100, Follow: true, Timeout: nodeTimeout})
	evs := collect(t, cl, tip)
	if got := txCount(evs); got != 2 {
		t.Fatalf("first scan: %d wallet transactions in %s, want 2", got, describe(evs))
	}

	pay(a, 0, 4, 3e8)
	tip = mine(a, 1, b, c)
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	if evs := withoutSynced(collect(t, cl, tip)); describe(evs) != fmt.Sprintf("+%d[1] =%d", tip, tip) {
		t.Fatalf("new block: %s", describe(evs))
	}

	// A's branch (kept by C) and B's, heavier.
	spvtest.Unlink(t, a, b)
	coin := funder.Spendable()[0]
	_, r5 := acct.Child(t, 0, 5)
	_, c1 := acct.Child(t, 1, 1)
	t1, err := funder.Build([]livenode.Coin{coin}, livenode.Payment{Script: r5, Value: 4e8})
	if err != nil {
		t.Fatal(err)
	}
	t2, err := funder.Build([]livenode.Coin{coin}, livenode.Payment{Script: c1, Value: 5e8})
	if err != nil {
		t.Fatal(err)
	}
	s1 := acct.Spend(t, wire.OutPoint{Hash: first.ID}, 1e8, 0, 0, livenode.Payment{Script: funder.NewAddress(livenode.P2WPKH).Script, Value: 1e8 - 1000})
	for _, tx := range []*wire.MsgTx{t1.Msg, s1} {
		if _, err := a.SendRawTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	fork := tip
	tipA := mine(a, 2, c)
	evs = withoutSynced(collect(t, cl, tipA))
	if got := describe(evs); got != fmt.Sprintf("+%d[2] +%d =%d", fork+1, fork+2, tipA) {
		t.Fatalf("branch A: %s", got)
	}
	if _, err := b.SendRawTransaction(ctx, t2.Msg); err != nil {
		t.Fatal(err)
	}
	tipB := mine(b, 4)
	// A and C take B's branch. Its blocks reach them by submitblock, not
	// by linking B again: btcd's sync from a peer that reconnects with
	// more work stalls at times (spvtest.CopyBlocks).
	spvtest.CopyBlocks(t, b, fork+1, a, c)
	waitTip(t, tipB, a, c)
	evs = withoutSynced(collect(t, cl, tipB))
	want := fmt.Sprintf("-%d -%d[2] +%d[1] +%d +%d +%d =%d", fork+2, fork+1, fork+1, fork+2, fork+3, fork+4, tipB)
	if got := describe(evs); got != want {
		t.Fatalf("reorganisation: %s, want %s", got, want)
	}
	removed := evs[1].Txs // the order within a block is the block's
	if ids := []chainhash.Hash{removed[0].ID, removed[1].ID}; !slices.Contains(ids, t1.ID) || !slices.Contains(ids, s1.TxHash()) {
		t.Errorf("removed %v, want t1 %v and s1 %v", ids, t1.ID, s1.TxHash())
	}
	if evs[2].Txs[0].ID != t2.ID {
		t.Errorf("connected %v at %d, want t2 %v", evs[2].Txs[0].ID, fork+1, t2.ID)
	}
	checkUTXOs(t, cl, a)
}

// waitTip waits until every node has a block at height tip.
func waitTip(t testing.TB, tip int32, nodes ...*livenode.Node) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		done := true
		for _, n := range nodes {
			if h, err := n.BlockCount(t.Context()); err != nil || h < tip {
				done = false
			}
		}
		if done {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("nodes did not reach height %d within 30 s", tip)
		}
	}
}

func txCount(evs []Event) int {
	n := 0
	for _, ev := range evs {
		n += len(ev.Txs)
	}
	return n
}

// checkUTXOs compares the client's confirmed coins with the outputs to
// the wallet's watched scripts that n's chain leaves unspent
// (spvtest.Unspent, each confirmed by gettxout).
func checkUTXOs(t testing.TB, cl *Client, n *livenode.Node) {
	t.Helper()
	owned := make(map[string]bool)
	for _, d := range cl.Watched() {
		owned[string(d.Script)] = true
	}
	want := spvtest.Unspent(t, n, owned)
	got := make(map[wire.OutPoint]int64)
	for _, coin := range cl.Unspent() {
		if coin.Height >= 0 {
			got[coin.OutPoint] = coin.Value
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("client's coins %v, the node's chain leaves %v", got, want)
	}
	t.Logf("%d coins, balance %+v", len(want), cl.Balance(1))
}

// TestReorgWhileStoppedNodes keeps a descriptor wallet (wpkh over a tpub,
// gap 3) in a store on three regtest nodes. With B cut off, A mines two
// blocks that pay receiving 3 and spend receiving 0; the client, run to
// the tip, reports them and stops. While it is stopped B mines four blocks
// that double-spend both (the funder's coin pays change 1 instead, and
// receiving 0 is spent to change 2), and A and C take B's branch. Started
// again on the store, the client disconnects A's two blocks, descending,
// with the two transactions the first run reported in them, then
// connects B's four with the double spends; its coins are those the
// node's final chain leaves the wallet (gettxout on each) and its ledger
// that of a client that scanned the final chain alone. On btcd and
// litecoind, in both modes.
func TestReorgWhileStoppedNodes(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		for _, mode := range []Mode{BIP157, BIP37} {
			t.Run(n.Name+"/"+mode.String(), func(t *testing.T) { reorgWhileStopped(t, n, mode) })
		}
	}
}

func reorgWhileStopped(t *testing.T, n spvtest.Node, mode Mode) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	network := spv.Regtest
	if n.Name == "litecoind" {
		network = spvtest.LitecoinRegtest
	}
	funder := livenode.NewWallet("lightclient funder", regtest)
	miner := funder.NewAddress(livenode.P2WPKH).Address
	a, b, c := n.Start(t, miner), n.Start(t, miner), n.Start(t, miner)
	if _, err := a.Generate(ctx, 104); err != nil {
		t.Fatal(err)
	}
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	spvtest.Link(t, a, b)
	spvtest.Link(t, a, c)
	acct := spvtest.NewAccount(t, regtest)
	mine := func(n *livenode.Node, blocks int, synced ...*livenode.Node) int32 {
		t.Helper()
		if _, err := n.Generate(ctx, blocks); err != nil {
			t.Fatal(err)
		}
		tip, err := n.BlockCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		waitTip(t, tip, append(synced, n)...)
		return tip
	}
	_, r0 := acct.Child(t, 0, 0)
	first, err := funder.Send(ctx, a, funder.Spendable()[:1], livenode.Payment{Script: r0, Value: 1e8})
	if err != nil {
		t.Fatal(err)
	}
	fork := mine(a, 1, b, c)
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}

	spvtest.Unlink(t, a, b)
	coin := funder.Spendable()[0]
	pay := func(chain, index uint32, value int64) *livenode.Tx {
		_, script := acct.Child(t, chain, index)
		tx, err := funder.Build([]livenode.Coin{coin}, livenode.Payment{Script: script, Value: value})
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	spendR0 := func(chain, index uint32) *wire.MsgTx {
		_, script := acct.Child(t, chain, index)
		return acct.Spend(t, wire.OutPoint{Hash: first.ID}, 1e8, 0, 0, livenode.Payment{Script: script, Value: 1e8 - 1000})
	}
	t1, s1 := pay(0, 3, 4e8), acct.Spend(t, wire.OutPoint{Hash: first.ID}, 1e8, 0, 0, livenode.Payment{Script: funder.NewAddress(livenode.P2WPKH).Script, Value: 1e8 - 1000})
	t2, s2 := pay(1, 1, 5e8), spendR0(1, 2)
	for _, tx := range []*wire.MsgTx{t1.Msg, s1} {
		if _, err := a.SendRawTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	tipA := mine(a, 2, c)

	cfg := Config{Mode: mode, Network: network, Peers: []string{a.P2PAddr, b.P2PAddr, c.P2PAddr}, Descriptors: []*descriptor.Descriptor{acct.Desc},
		Gap: 3, Birthday: 100, Store: t.TempDir(), Timeout: nodeTimeout}
	_, evs := runOnce(t, cfg)
	if got, want := describe(withoutSynced(evs)), fmt.Sprintf("+%d[1] +%d[2] +%d =%d", fork, fork+1, fork+2, tipA); !strings.HasSuffix(got, want) {
		t.Fatalf("first run: %s, want it to end %s", got, want)
	}

	for _, tx := range []*wire.MsgTx{t2.Msg, s2} {
		if _, err := b.SendRawTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	tipB := mine(b, 4)
	spvtest.CopyBlocks(t, b, fork+1, a, c)
	waitTip(t, tipB, a, c)
	cl, evs := runOnce(t, cfg)
	want := fmt.Sprintf("-%d -%d[2] +%d[2] +%d +%d +%d =%d", fork+2, fork+1, fork+1, fork+2, fork+3, fork+4, tipB)
	if got := describe(evs); got != want {
		t.Fatalf("restart after the reorganisation: %s, want %s", got, want)
	}
	ids := func(ev Event) []chainhash.Hash {
		var out []chainhash.Hash
		for _, tx := range ev.Txs {
			out = append(out, tx.ID)
		}
		return out
	}
	if got := ids(evs[1]); !slices.Contains(got, t1.ID) || !slices.Contains(got, s1.TxHash()) {
		t.Errorf("disconnected %v, want t1 %v and s1 %v", got, t1.ID, s1.TxHash())
	}
	if got := ids(evs[2]); !slices.Contains(got, t2.ID) || !slices.Contains(got, s2.TxHash()) {
		t.Errorf("connected %v, want t2 %v and s2 %v", got, t2.ID, s2.TxHash())
	}
	checkUTXOs(t, cl, a)
	fresh := cfg
	fresh.Store = t.TempDir()
	scanned, _ := runOnce(t, fresh)
	if got, want := ledger(cl), ledger(scanned); got != want {
		t.Errorf("ledger after the restart %q, a scan of the final chain's %q", got, want)
	}
}
