package lightclient

import (
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// setChain moves every peer to c.
func setChain(c *fakeChain, peers ...*fakePeer) {
	for _, p := range peers {
		p.setChain(c)
	}
}

// TestFollowReorg follows the history from two peers: a new block with
// a payment connects; then both switch to a longer branch from height 5
// whose block 6 spends the wallet's coin differently. The stream
// disconnects 8, 7, 6 (descending, with the transactions they held) before
// it connects 6 to 9 (ascending); the ledger drops the replaced spend and
// keeps the payment of the lost block 8 as unconfirmed.
func TestFollowReorg(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Follow = true
	c := start(t, cfg)
	if got := describe(collect(t, c, 7)); got != "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7" {
		t.Fatalf("first scan: %s", got)
	}

	a := h.chain.fork(7)
	cb := wire.OutPoint{Hash: a.blocks[2].Transactions[0].TxHash()}
	a.mine(t, 0, fakeTx{from: []wire.OutPoint{cb}, to: []payment{{h.script, 5e7}}})
	setChain(a, p1, p2)
	if got := describe(collect(t, c, 8)); got != "+8[1] =8" {
		t.Fatalf("new block: %s", got)
	}

	b := h.chain.fork(5)
	_, other := walletAddr(t, 8)
	b.mine(t, 1, fakeTx{from: []wire.OutPoint{h.pay}, to: []payment{{other, 8e7}}})
	for range 3 {
		b.mine(t, 1)
	}
	setChain(b, p1, p2)
	got := withoutSynced(collect(t, c, 9))
	if want := "-8[1] -7 -6[1] +6[1] +7 +8 +9 =9"; describe(got) != want {
		t.Fatalf("reorg: %s, want %s", describe(got), want)
	}
	for _, ev := range got {
		if ev.Kind == Connected && ev.Hash != b.hash(ev.Height) || ev.Kind == Disconnected && ev.Height >= 6 && ev.Hash != a.hash(ev.Height) {
			t.Errorf("%v %d: hash %s is not the branch's", ev.Kind, ev.Height, ev.Hash)
		}
	}
	bal := c.Balance(1)
	txs := c.Transactions()
	if len(txs) != 3 || bal.Incoming != 5e7 || bal.Confirmed != 0 || len(c.Unspent()) != 1 {
		t.Errorf("ledger: %d transactions, balance %+v, %d coins; want the payment, the new spend and the lost payment (incoming 5e7)", len(txs), bal, len(c.Unspent()))
	}
	if st := c.Stats(); st.Reorgs != 1 {
		t.Errorf("%d reorgs counted, want 1", st.Reorgs)
	}
}

// TestConfirmations delays reports by 3 blocks: the first scan stops
// three short of the tip, a new block releases one, and a reorganisation
// of the two blocks below the tip, which were never reported, is never
// seen; the branch's blocks come as they get 3 blocks on top.
func TestConfirmations(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Follow, cfg.Confirmations = true, 3
	c := start(t, cfg)
	if got := describe(collect(t, c, 4)); got != "+0 +1 +2 +3 +4[1] =4" {
		t.Fatalf("first scan: %s", got)
	}
	a := h.chain.fork(7)
	a.mine(t, 0)
	setChain(a, p1, p2)
	if got := describe(collect(t, c, 5)); got != "+5 =5" {
		t.Fatalf("new block: %s", got)
	}
	b := a.fork(6)
	for range 4 {
		b.mine(t, 2)
	}
	setChain(b, p1, p2)
	got := withoutSynced(collect(t, c, 7))
	if describe(got) != "+6[1] +7 =7" || got[1].Hash != b.hash(7) {
		t.Fatalf("reorg of two unreported blocks: %s (block 7 %s, the branch's %s)", describe(got), got[1].Hash, b.hash(7))
	}
	if tip := c.Tip(); tip != (wallet.Block{Height: 7, Hash: b.hash(7)}) {
		t.Errorf("Tip() = %+v, want 7 on the branch", tip)
	}
}

// TestDeepReorg follows a chain 2,100 blocks above a fork, then both peers
// switch to a branch of 2,200: longer than a headers message, so it is
// accumulated across messages before it wins. Every block of the lost
// branch disconnects, from the top down, before the new one connects.
func TestDeepReorg(t *testing.T) {
	if testing.Short() {
		t.Skip("mines 4,300 blocks")
	}
	h := newHistory(t)
	a := h.chain.fork(7)
	for range 2100 {
		a.mine(t, 0)
	}
	p1, p2 := startFakePeer(t, a), startFakePeer(t, a)
	cfg := h.config(p1, p2)
	cfg.Follow, cfg.Events = true, 8
	c := start(t, cfg)
	collect(t, c, a.tip())
	b := h.chain.fork(7)
	for range 2200 {
		b.mine(t, 3)
	}
	setChain(b, p1, p2)
	got := collect(t, c, b.tip())
	var down, up []int32
	for _, ev := range got {
		switch ev.Kind {
		case Disconnected:
			down = append(down, ev.Height)
			if len(up) > 0 {
				t.Fatalf("block %d disconnected after the new branch began connecting", ev.Height)
			}
		case Connected:
			up = append(up, ev.Height)
		}
	}
	if len(down) != 2100 || down[0] != a.tip() || down[len(down)-1] != 8 || len(up) != 2200 || up[0] != 8 || up[len(up)-1] != b.tip() {
		t.Fatalf("disconnected %d (%v…), connected %d; want 2110..8 then 8..2207", len(down), down[:min(3, len(down))], len(up))
	}
	for i := 1; i < len(up); i++ {
		if up[i] != up[i-1]+1 || down[i%len(down)] >= down[(i-1)%len(down)] && i < len(down) {
			t.Fatalf("out of order at %d", i)
		}
	}
}
