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
