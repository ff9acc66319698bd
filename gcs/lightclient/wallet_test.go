package lightclient

import (
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestGapLimit scans a descriptor wallet with gap 3 whose payments reach
// beyond the first watched indexes within one scan step: receiving 2 at
// height 2 widens the watch to 5, receiving 5 at height 4 to 8, receiving
// 8 at height 5 to 11. Each payment is reported with its block, in
// order, none as a rescan, and the next address to hand out is 9.
func TestGapLimit(t *testing.T) {
	acct := spvtest.NewAccount(t, spv.Regtest.Params)
	c := newFakeChain(t)
	c.mine(t, 0) // 1
	pay := func(index uint32) {
		_, script := acct.Child(t, 0, index)
		h := c.tip()
		cb := wire.OutPoint{Hash: c.blocks[h].Transactions[0].TxHash()}
		c.mine(t, 0, fakeTx{from: []wire.OutPoint{cb}, to: []payment{{script, 1e8}}})
	}
	pay(2) // 2
	c.mine(t, 0)
	pay(5) // 4
	pay(8) // 5
	c.mine(t, 0)
	p1, p2 := startFakePeer(t, c), startFakePeer(t, c)
	cl := start(t, Config{Network: spv.Regtest, Peers: []string{p1.addr, p2.addr}, Descriptors: []*descriptor.Descriptor{acct.Desc}, Gap: 3})
	if got := describe(collect(t, cl, -1)); got != "+0 +1 +2[1] +3 +4[1] +5[1] +6 =6" {
		t.Errorf("events %s", got)
	}
	if d, err := cl.NextAddress(0); err != nil || d.Index != 9 {
		t.Errorf("NextAddress(0) = %d, %v; want 9", d.Index, err)
	}
	if bal := cl.Balance(1); bal.Confirmed != 3e8 {
		t.Errorf("balance %+v, want 3e8 confirmed", bal)
	}
}

// TestGapLimitMerge: what a gap-limit rescan finds in blocks not yet
// reported joins them in block order, and a transaction found before
// with fewer of the wallet's outputs gets the rest. With gap 3, block 3
// pays receiving 2 (watching 0 to 5); block 4 holds T1, paying receiving
// 5, then T2, paying receiving 1: the scan finds T2, the rescan T1
// (watching to 8), and block 4 is reported as T1, T2. Block 5's T3 spends
// the coin of block 3 to receiving 7 and elsewhere: the scan finds it by
// its input, the rescan for 6 to 8 finds its output, and it is reported
// once, with both.
func TestGapLimitMerge(t *testing.T) {
	acct := spvtest.NewAccount(t, spv.Regtest.Params)
	child := func(index uint32) []byte {
		_, script := acct.Child(t, 0, index)
		return script
	}
	_, other := walletAddr(t, 9)
	c := newFakeChain(t)
	c.mine(t, 0) // 1
	c.mine(t, 0) // 2
	cb := func(h int32) wire.OutPoint { return wire.OutPoint{Hash: c.blocks[h].Transactions[0].TxHash()} }
	b3 := c.mine(t, 0, fakeTx{from: []wire.OutPoint{cb(1)}, to: []payment{{child(2), 1e8}}})
	b4 := c.mine(t, 0, fakeTx{from: []wire.OutPoint{cb(2)}, to: []payment{{child(5), 2e8}}},
		fakeTx{from: []wire.OutPoint{cb(3)}, to: []payment{{other, 1e8}, {child(1), 3e8}}})
	coin := wire.OutPoint{Hash: b3.Transactions[1].TxHash()}
	b5 := c.mine(t, 0, fakeTx{from: []wire.OutPoint{coin}, to: []payment{{other, 4e7}, {child(7), 5e7}}})
	p1, p2 := startFakePeer(t, c), startFakePeer(t, c)
	cl := start(t, Config{Network: spv.Regtest, Peers: []string{p1.addr, p2.addr}, Descriptors: []*descriptor.Descriptor{acct.Desc}, Gap: 3})
	evs := collect(t, cl, -1)
	if got := describe(evs); got != "+0 +1 +2 +3[1] +4[2] +5[1] =5" {
		t.Fatalf("events %s (%v)", got, cl.Err())
	}
	if txs := evs[4].Txs; txs[0].ID != b4.Transactions[1].TxHash() || txs[0].Position != 1 || txs[1].ID != b4.Transactions[2].TxHash() {
		t.Errorf("block 4 reported %v, %v; want T1 %v then T2 %v", txs[0].ID, txs[1].ID, b4.Transactions[1].TxHash(), b4.Transactions[2].TxHash())
	}
	t3 := evs[5].Txs[0]
	if t3.ID != b5.Transactions[1].TxHash() || len(t3.Inputs) != 1 || t3.Inputs[0].Spends != coin ||
		len(t3.Outputs) != 1 || t3.Outputs[0].Index != 1 || t3.Outputs[0].Value != 5e7 {
		t.Errorf("T3 reported with inputs %+v, outputs %+v; want the coin spent, output 1 to receiving 7", t3.Inputs, t3.Outputs)
	}
	if bal := cl.Balance(1); bal.Confirmed != 2e8+3e8+5e7 {
		t.Errorf("balance %+v, want receiving 5, 1 and 7", bal)
	}
}

// TestAddAndRescan follows the history without its wallet address, adds
// it, and gets the payment and spend it missed as rescan events for
// blocks already reported; Rescan finds nothing more.
func TestAddAndRescan(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Addresses, cfg.Follow = nil, true
	c := start(t, cfg)
	if got := describe(collect(t, c, 7)); got != "+0 +1 +2 +3 +4 +5 +6 +7 =7" {
		t.Fatalf("first scan: %s", got)
	}
	if err := c.AddAddresses(2, h.addr); err != nil {
		t.Fatal(err)
	}
	if got := describe(collect(t, c, 7)); got != "r4[1] r6[1] =7" {
		t.Fatalf("after AddAddresses: %s", got)
	}
	if err := c.Rescan(0); err != nil {
		t.Fatal(err)
	}
	a := h.chain.fork(7)
	a.mine(t, 0)
	setChain(a, p1, p2)
	if got := describe(collect(t, c, 8)); got != "+8 =8" {
		t.Fatalf("after Rescan and a new block: %s", got)
	}
	if st := c.Stats(); st.Rescans != 2 || len(c.Transactions()) != 2 {
		t.Errorf("%d rescans, %d transactions; want 2, 2", st.Rescans, len(c.Transactions()))
	}
}
