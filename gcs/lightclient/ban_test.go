package lightclient

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/gcs"
)

// filterOf builds a basic filter of the block at height h of c holding
// only items: a lie about the block.
func filterOf(t testing.TB, c *fakeChain, h int32, items ...[]byte) []byte {
	t.Helper()
	f, err := gcs.Build(gcs.Params{P: gcs.BasicP, M: gcs.BasicM}, gcs.BasicKey(c.hash(h)), items)
	if err != nil {
		t.Fatal(err)
	}
	return f.Bytes()
}

// withoutSpent builds the basic filter of block h from its outputs alone:
// it lacks the scripts the block's inputs spend, which the block does not
// show.
func withoutSpent(t testing.TB, c *fakeChain, h int32) []byte {
	t.Helper()
	b := c.blocks[h]
	var outs [][]byte
	for _, tx := range b.Transactions {
		for _, o := range tx.TxOut {
			outs = append(outs, o.PkScript)
		}
	}
	return filterOf(t, c, h, outs...)
}

// TestBans plays scripted peers that lie beside honest ones. A lie the
// block disproves gets its peer banned, named with the reason, and the
// scan ends with the true history; a lie it cannot disprove gets both
// sides disconnected, none banned, and the scan goes on with other peers;
// a peer that stalls is dropped, not banned, and one that leaves
// getcfheaders unanswered (btcd while its tip is old) is kept, unused.
func TestBans(t *testing.T) {
	t.Parallel() // fake peers and a store of its own
	tests := []struct {
		name   string
		peers  int // honest peers besides the odd one, which comes second
		target int
		odd    func(h *history, p *fakePeer)
		banned string // the reason's text; empty: no ban
		gone   bool   // the odd peer is disconnected
	}{
		{"stalling peer", 2, 3, func(h *history, p *fakePeer) { p.stall() }, "", true},
		{"consistent lie: filter without the wallet's output", 2, 3, func(h *history, p *fakePeer) {
			p.lie(h.chain.hash(4), filterOf(t, h.chain, 4, h.chain.blocks[4].Transactions[0].TxOut[0].PkScript))
		}, "the peer's filter lacks the output script of", true},
		{"consistent lie: filter with junk items", 2, 3, func(h *history, p *fakePeer) {
			items := [][]byte{h.chain.blocks[5].Transactions[0].TxOut[0].PkScript}
			for i := range 5 {
				items = append(items, []byte{0x6a, byte(i)})
			}
			p.lie(h.chain.hash(5), filterOf(t, h.chain, 5, items...))
		}, "but the block has 1 distinct output scripts and 0 inputs", true},
		{"filter that is not the one its cfheaders commit to", 2, 2, func(h *history, p *fakePeer) {
			p.badFilter(h.chain.hash(6), withoutSpent(t, h.chain, 6))
		}, "but the filter-header chain has", true},
		{"undecidable: the wallet's spend left out", 3, 2, func(h *history, p *fakePeer) {
			p.lie(h.chain.hash(6), withoutSpent(t, h.chain, 6))
		}, "", true},
		{"silent peer", 2, 3, func(h *history, p *fakePeer) { p.quiet() }, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHistory(t)
			odd := startFakePeer(t, h.chain)
			tt.odd(h, odd)
			peers := []*fakePeer{startFakePeer(t, h.chain), odd}
			for range tt.peers - 1 {
				peers = append(peers, startFakePeer(t, h.chain))
			}
			cfg := h.config(peers...)
			cfg.TargetPeers, cfg.Timeout = tt.target, 300*time.Millisecond
			cfg.Follow = true // to look at its peers once it has scanned
			if tt.name == "filter that is not the one its cfheaders commit to" {
				cfg.Peers[0], cfg.Peers[1] = cfg.Peers[1], cfg.Peers[0] // the liar serves the filters
			}
			c := start(t, cfg)
			got := collect(t, c, 7)
			if want := "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7"; describe(got) != want {
				t.Errorf("events %s, want %s", describe(got), want)
			}
			bans := c.Bans()
			switch {
			case tt.banned == "" && len(bans) > 0:
				t.Errorf("bans %+v, want none", bans)
			case tt.banned != "" && (len(bans) != 1 || bans[0].Peer != odd.addr || !strings.Contains(bans[0].Reason, tt.banned) || bans[0].Key != odd.addr):
				t.Errorf("bans %+v, want %s for %q", bans, odd.addr, tt.banned)
			}
			if connected := slices.ContainsFunc(c.Peers(), func(p PeerInfo) bool { return p.Addr == odd.addr }); connected == tt.gone {
				t.Errorf("odd peer connected: %v, want %v", connected, !tt.gone)
			}
			for _, b := range bans {
				t.Logf("banned %s: %s", b.Peer, b.Reason)
			}
		})
	}
}

// TestUndecidedNoPeersLeft: when the only two peers conflict and the
// block settles nothing, the client stops with an error naming the
// conflict rather than trust either.
func TestUndecidedNoPeersLeft(t *testing.T) {
	h := newHistory(t)
	honest, liar := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	liar.lie(h.chain.hash(6), withoutSpent(t, h.chain, 6))
	c := start(t, h.config(honest, liar))
	got := collect(t, c, -1)
	err := c.Err()
	if !errors.Is(err, errNoPeers) || len(c.Bans()) != 0 {
		t.Fatalf("Err() = %v, bans %+v; want not enough peers, no ban", err, c.Bans())
	}
	if slices.ContainsFunc(got, func(ev Event) bool { return ev.Height >= 6 && ev.Kind == Connected }) {
		t.Errorf("events %s report block 6 or later", describe(got))
	}
	t.Log(err)
}

// TestReorgWhileAnswering: both peers move to a longer branch from block 5
// right after they answered getcfheaders, without announcing it, so the
// filters asked for next are of blocks they no longer have (they answer
// none, as btcd does for blocks off its best chain). That is not a lie:
// asked for headers again, each shows the branch, and is dropped, not
// banned; the client takes the branch and reports it.
func TestReorgWhileAnswering(t *testing.T) {
	t.Parallel() // fake peers of its own; waits on the client's retry timer
	h := newHistory(t)
	b := h.chain.fork(5)
	for range 3 {
		b.mine(t, 1)
	}
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	p1.switchTo, p2.switchTo = b, b
	cfg := h.config(p1, p2)
	cfg.Follow = true // to the branch's tip, above the one it started with
	c := start(t, cfg)
	evs := withoutSynced(collect(t, c, b.tip()))
	if got := describe(evs); got != "+0 +1 +2 +3 +4[1] +5 +6 +7 +8 =8" || evs[7].Hash != b.hash(7) || len(c.Bans()) != 0 {
		t.Errorf("events %s, bans %+v; want the branch reported, no ban", got, c.Bans())
	}
	for _, p := range c.PeersUsed() {
		t.Logf("%s dropped: %s", p.Addr, p.Dropped)
	}
}
