package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// descWallet is a regtest chain where a descriptor wallet (spvtest's
// BIP84 account, receiving and change) was paid and spent.
type descWallet struct {
	funder *livenode.Wallet
	acct   spvtest.Account
	n      *livenode.Node
	tip    int32
}

func newDescWallet(t *testing.T, nodes int) (*descWallet, []*livenode.Node) {
	t.Helper()
	regtest := &chaincfg.RegressionNetParams
	w := &descWallet{funder: livenode.NewWallet("btc scan descriptor funder", regtest), acct: spvtest.NewAccount(t, regtest)}
	miner := w.funder.NewAddress(livenode.P2WPKH).Address
	ns := []*livenode.Node{livenode.StartBtcd(t, miner)}
	w.n = ns[0]
	if _, err := w.n.Generate(t.Context(), 104); err != nil {
		t.Fatal(err)
	}
	for range nodes - 1 {
		n := livenode.StartBtcd(t, miner)
		spvtest.Link(t, w.n, n)
		ns = append(ns, n)
	}
	w.sync(t)
	return w, ns
}

func (w *descWallet) sync(t *testing.T) {
	t.Helper()
	if err := w.funder.Sync(t.Context(), w.n); err != nil {
		t.Fatal(err)
	}
}

// pay pays index i of chain from the funder's first coin, through n.
func (w *descWallet) pay(t *testing.T, n *livenode.Node, chain, i uint32, value int64) *livenode.Tx {
	t.Helper()
	_, script := w.acct.Child(t, chain, i)
	tx, err := w.funder.Send(t.Context(), n, w.funder.Spendable()[:1], livenode.Payment{Script: script, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// mine mines blocks on n and waits until every node in synced has the
// new tip, which it returns.
func mine(t *testing.T, n *livenode.Node, blocks int, synced ...*livenode.Node) int32 {
	t.Helper()
	if _, err := n.Generate(t.Context(), blocks); err != nil {
		t.Fatal(err)
	}
	tip, err := n.BlockCount(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	waitHeight(t, tip, synced...)
	return tip
}

// waitHeight waits until every node has a block at height tip.
func waitHeight(t *testing.T, tip int32, nodes ...*livenode.Node) {
	t.Helper()
	for _, m := range nodes {
		for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if h, err := m.BlockCount(t.Context()); err == nil && h >= tip {
				break
			}
			if time.Now().After(end) {
				t.Fatalf("node %s did not reach height %d within 30 s", m.P2PAddr, tip)
			}
		}
	}
}

// address returns the address of index i of chain.
func (w *descWallet) address(t *testing.T, chain, i uint32) string {
	t.Helper()
	a, err := w.acct.Desc.Expand()[chain].Address(i)
	if err != nil {
		t.Fatal(err)
	}
	return a.EncodeAddress()
}

// owned returns the scripts of receiving 0 to 9 and change 0 to 9.
func (w *descWallet) owned(t *testing.T) map[string]bool {
	owned := make(map[string]bool)
	for chain := range uint32(2) {
		for i := range uint32(10) {
			_, script := w.acct.Child(t, chain, i)
			owned[string(script)] = true
		}
	}
	return owned
}

// TestBTCScanDescriptor: a descriptor wallet (wpkh over a tpub,
// receiving and change, gap 3) paid at receiving 0, 2 and 5 and change 1,
// that spends receiving 0 to receiving 7, scanned with --descriptor
// prints exactly what a scan of the five addresses prints: the same
// transactions, the same coins (those the node's gettxout has) and the
// same balance. With --gap 2, receiving 5 lies beyond the gap when 2 is
// the last paid, and its payment is missed: the flag reaches the wallet.
func TestBTCScanDescriptor(t *testing.T) {
	w, _ := newDescWallet(t, 1)
	first := w.pay(t, w.n, 0, 0, 1e8)
	mine(t, w.n, 1)
	w.sync(t)
	w.pay(t, w.n, 0, 2, 2e8)
	w.sync(t) // the change of the first payment is the funder's next coin
	w.pay(t, w.n, 1, 1, 3e8)
	mine(t, w.n, 1)
	w.sync(t)
	pay5 := w.pay(t, w.n, 0, 5, 4e8)
	mine(t, w.n, 1)
	w.sync(t)
	_, r7 := w.acct.Child(t, 0, 7)
	var coin wire.OutPoint
	for i, o := range first.Msg.TxOut {
		if o.Value == 1e8 {
			coin = wire.OutPoint{Hash: first.ID, Index: uint32(i)}
		}
	}
	spend := w.acct.Spend(t, coin, 1e8, 0, 0, livenode.Payment{Script: r7, Value: 5e7},
		livenode.Payment{Script: w.funder.NewAddress(livenode.P2TR).Script, Value: 5e7 - 1000})
	if _, err := w.n.SendRawTransaction(t.Context(), spend); err != nil {
		t.Fatal(err)
	}
	w.tip = mine(t, w.n, 2)

	base := []string{"btc", "scan", "--network", "regtest", "--peer", w.n.P2PAddr, "--birthday", "100", "--json"}
	addrs := slices.Clone(base)
	for _, a := range []string{w.address(t, 0, 0), w.address(t, 0, 2), w.address(t, 1, 1), w.address(t, 0, 5), w.address(t, 0, 7)} {
		addrs = append(addrs, "--address", a)
	}
	for _, mode := range []string{"bip157", "bip37"} {
		t.Run(mode, func(t *testing.T) {
			scan := func(args ...string) (btcJSONOutput, string) {
				t.Helper()
				stats := filepath.Join(t.TempDir(), "stats.json")
				code, stdout, stderr := runCLI(t, append(args, "--mode", mode, "--store", t.TempDir(), "--stats", stats)...)
				if code != exitOK {
					t.Fatalf("%q: exit %d\n%s", args, code, stderr)
				}
				return parseBTCJSON(t, stdout), stdout
			}
			byDesc, descOut := scan(append(base, "--descriptor", w.acct.Desc.String(), "--gap", "3")...)
			_, addrOut := scan(addrs...)
			if descOut != addrOut {
				t.Errorf("--descriptor printed\n%s\n--address printed\n%s", descOut, addrOut)
			}
			if len(byDesc.txs) != 5 || byDesc.txs[4].TxID != spend.TxHash().String() || len(byDesc.txs[4].Inputs) != 1 || len(byDesc.txs[4].Outputs) != 1 {
				t.Errorf("transactions %+v: want the four payments and the spend, its input and its output to receiving 7", byDesc.txs)
			}
			checkWallet(t, byDesc, w.n, w.owned(t), w.tip, true)
			if len(byDesc.utxos) != 4 || byDesc.balance.Confirmed != 2e8+3e8+4e8+5e7 {
				t.Errorf("coins %+v, balance %+v: want receiving 2, 5, 7 and change 1", byDesc.utxos, *byDesc.balance)
			}

			// With gap 2, receiving 5 is never watched, nor 7: the
			// payment to 5 is missed, the spend is found by its input
			// alone.
			narrow, _ := scan(append(base, "--descriptor", w.acct.Desc.String(), "--gap", "2")...)
			want := slices.DeleteFunc(slices.Clone(byDesc.txs), func(tx btcTxJSON) bool { return tx.TxID == pay5.ID.String() })
			want[len(want)-1].Outputs = []btcOutJSON{}
			if fmt.Sprint(narrow.txs) != fmt.Sprint(want) || narrow.balance.Confirmed != 2e8+3e8 {
				t.Errorf("--gap 2 printed %+v, balance %+v; want %+v, 5e8 sat", narrow.txs, *narrow.balance, want)
			}
		})
	}
}

// TestBTCScanFollowReorg follows a descriptor wallet with --follow --json
// on three btcd nodes, A and C linked, B linked to A until it is cut off
// (the scenario of gcs/lightclient's TestFollowReorgNodes, from the CLI).
// Paid at receiving 0 and 2 before the start, then at 4 in a new block;
// then A mines two blocks that pay receiving 5 (t1) and spend receiving 0
// (s1), while B mines four, the first double-spending t1's funding to pay
// change 1 (t2). Once A and C take B's branch, the command prints t1 and
// s1 again as removed, then t2; interrupted, it exits 0 and its coins
// are those the node's final chain leaves the wallet (gettxout), plus
// receiving 0 marked as spent by s1, which is in no block now: outgoing.
func TestBTCScanFollowReorg(t *testing.T) {
	for _, mode := range []string{"bip157", "bip37"} {
		t.Run(mode, func(t *testing.T) { followReorg(t, mode) })
	}
}

func followReorg(t *testing.T, mode string) {
	ctx := t.Context()
	w, ns := newDescWallet(t, 3)
	a, b, c := ns[0], ns[1], ns[2]
	pay0 := w.pay(t, a, 0, 0, 1e8)
	mine(t, a, 1, b, c)
	w.sync(t)
	pay2 := w.pay(t, a, 0, 2, 2e8)
	tip := mine(t, a, 1, b, c)
	w.sync(t)

	r := startCLI(t, "btc", "scan", "--network", "regtest", "--peer", a.P2PAddr, "--peer", b.P2PAddr, "--peer", c.P2PAddr,
		"--descriptor", w.acct.Desc.String(), "--gap", "3", "--birthday", "100", "--follow", "--json", "--mode", mode,
		"--store", t.TempDir())
	synced := func(h int32) string { return fmt.Sprintf("btc scan: synced to block %d ", h) }
	r.waitFor(t, synced(tip))

	pay4 := w.pay(t, a, 0, 4, 3e8)
	tip = mine(t, a, 1, b, c)
	w.sync(t)
	r.waitFor(t, synced(tip))

	// A's branch (kept by C) and B's, heavier.
	spvtest.Unlink(t, a, b)
	coin := w.funder.Spendable()[0]
	_, r5 := w.acct.Child(t, 0, 5)
	_, c1 := w.acct.Child(t, 1, 1)
	t1, err := w.funder.Build([]livenode.Coin{coin}, livenode.Payment{Script: r5, Value: 4e8})
	if err != nil {
		t.Fatal(err)
	}
	t2, err := w.funder.Build([]livenode.Coin{coin}, livenode.Payment{Script: c1, Value: 5e8})
	if err != nil {
		t.Fatal(err)
	}
	var coin0 wire.OutPoint
	for i, o := range pay0.Msg.TxOut {
		if o.Value == 1e8 {
			coin0 = wire.OutPoint{Hash: pay0.ID, Index: uint32(i)}
		}
	}
	s1 := w.acct.Spend(t, coin0, 1e8, 0, 0, livenode.Payment{Script: w.funder.NewAddress(livenode.P2WPKH).Script, Value: 1e8 - 1000})
	for _, tx := range []*wire.MsgTx{t1.Msg, s1} {
		if _, err := a.SendRawTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	fork := tip
	tipA := mine(t, a, 2, c)
	r.waitFor(t, synced(tipA))
	if _, err := b.SendRawTransaction(ctx, t2.Msg); err != nil {
		t.Fatal(err)
	}
	tipB := mine(t, b, 4)
	// Its blocks reach A and C by submitblock: btcd's sync from a peer
	// that reconnects with more work stalls at times (spvtest.CopyBlocks).
	spvtest.CopyBlocks(t, b, fork+1, a, c)
	waitHeight(t, tipB, a, c)
	r.waitFor(t, synced(tipB))
	if code := r.interrupt(t); code != exitOK {
		t.Fatalf("exit %d after the interrupt\n%s", code, r.stderr.String())
	}
	stderr := r.stderr.String()
	t.Logf("%s", stderr)

	out := parseBTCJSON(t, r.stdout.String())
	type line struct {
		id      chainhash.Hash
		height  int32
		removed bool
	}
	var got []line
	for _, tx := range out.txs {
		id, err := chainhash.NewHashFromStr(tx.TxID)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line{*id, tx.Height, tx.Removed})
	}
	branchA := []line{{t1.ID, fork + 1, false}, {s1.TxHash(), fork + 1, false}}
	if len(got) == 7 && got[3].id != t1.ID { // the block's order, which the miner chose
		branchA[0], branchA[1] = branchA[1], branchA[0]
	}
	want := []line{{pay0.ID, fork - 2, false}, {pay2.ID, fork - 1, false}, {pay4.ID, fork, false}}
	want = append(want, branchA...)
	for _, l := range branchA {
		want = append(want, line{l.id, l.height, true})
	}
	want = append(want, line{t2.ID, fork + 1, false})
	if !slices.Equal(got, want) {
		t.Errorf("printed\n%v\nwant\n%v", got, want)
	}
	checkWallet(t, out, a, w.owned(t), tipB, false)
	i := slices.IndexFunc(out.utxos, func(u btcUTXOJSON) bool { return u.TxID == pay0.ID.String() })
	if i < 0 || out.utxos[i].SpentBy != s1.TxHash().String() || out.balance.Outgoing != 1e8 || out.balance.Incoming != 0 {
		t.Errorf("coins %+v, balance %+v: want receiving 0's coin spent by s1 %s (outgoing), nothing incoming", out.utxos, *out.balance, s1.TxHash())
	}
	for _, want := range []string{fmt.Sprintf("block %d ", fork+2), fmt.Sprintf("block %d ", fork+1), "left the chain", "6 wallet transactions (2 removed by reorganisations, printed again)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
}
