package lightclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// runOnce starts a client, reads its stream to the end and stops it.
func runOnce(t *testing.T, cfg Config) (*Client, []Event) {
	t.Helper()
	c := start(t, cfg)
	evs := collect(t, c, -1)
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	return c, evs
}

// ledger describes a client's ledger: transactions with their heights,
// then coins.
func ledger(c *Client) string {
	var parts []string
	for _, tx := range c.Transactions() {
		parts = append(parts, fmt.Sprintf("%s@%d", tx.ID.String()[:8], tx.Height))
	}
	for _, coin := range c.Unspent() {
		parts = append(parts, fmt.Sprintf("coin %s:%d %d", coin.OutPoint.Hash.String()[:8], coin.OutPoint.Index, coin.Value))
	}
	return strings.Join(parts, " ")
}

// TestRestart scans the history into a store and runs the client again on
// it: the second run takes the wallet up where the first ended, reports
// nothing but Synced, holds the same ledger, and downloads no filter or
// block; once the chain grows by a block that pays the wallet, a third
// run reports that block alone.
func TestRestart(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store = t.TempDir()
	first, evs := runOnce(t, cfg)
	if got := describe(evs); got != "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7" {
		t.Fatalf("first run: %s", got)
	}
	if _, ok := first.Resumed(); ok {
		t.Errorf("Resumed() on a new store = true")
	}

	second, evs := runOnce(t, cfg)
	if got := describe(evs); got != "=7" {
		t.Errorf("second run: %s, want =7", got)
	}
	if r, ok := second.Resumed(); !ok || r != (wallet.Block{Height: 7, Hash: h.chain.hash(7)}) {
		t.Errorf("Resumed() = %+v, %v; want block 7", r, ok)
	}
	if got, want := ledger(second), ledger(first); got != want || second.Tip() != first.Tip() {
		t.Errorf("second run's ledger %q at %+v, the first's %q at %+v", got, second.Tip(), want, first.Tip())
	}
	if st := second.Stats(); st.Filters != 0 || st.BlocksFetched != 0 || st.Traffic.Received["cfheaders"].Messages != 0 {
		t.Errorf("second run: %d filters, %d blocks, %d cfheaders; want none", st.Filters, st.BlocksFetched, st.Traffic.Received["cfheaders"].Messages)
	}

	a := h.chain.fork(7)
	cb := wire.OutPoint{Hash: a.blocks[2].Transactions[0].TxHash()}
	a.mine(t, 0, fakeTx{from: []wire.OutPoint{cb}, to: []payment{{h.script, 5e7}}})
	setChain(a, p1, p2)
	third, evs := runOnce(t, cfg)
	if got := describe(evs); got != "+8[1] =8" {
		t.Errorf("third run: %s, want +8[1] =8", got)
	}
	if r, _ := third.Resumed(); r.Height != 7 {
		t.Errorf("third run: Resumed() = %d after it reported block 8, want 7", r.Height)
	}
	if bal := third.Balance(1); bal.Confirmed != 5e7 || len(third.Transactions()) != 3 {
		t.Errorf("third run: balance %+v, %d transactions; want 5e7 confirmed, 3", bal, len(third.Transactions()))
	}
}

// TestReorgWhileStopped scans the history into a store; while the client
// is stopped the peers move to a longer branch from block 5 whose block 6
// spends the wallet's coin otherwise (a double spend of the spend the
// first run reported). The restart reports the lost blocks as
// Disconnected, from the top down, with the transactions the first run
// reported in them, then the branch: the same stream a client that
// followed the reorganisation gives, and the same ledger.
func TestReorgWhileStopped(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store = t.TempDir()
	_, evs := runOnce(t, cfg)
	if got := describe(evs); got != "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7" {
		t.Fatalf("first run: %s", got)
	}
	spend := evs[6].Txs[0].ID

	b := h.chain.fork(5)
	_, other := walletAddr(t, 8)
	b.mine(t, 1, fakeTx{from: []wire.OutPoint{h.pay}, to: []payment{{other, 8e7}}})
	for range 3 {
		b.mine(t, 1)
	}
	setChain(b, p1, p2)
	c, evs := runOnce(t, cfg)
	if want := "-7 -6[1] +6[1] +7 +8 +9 =9"; describe(evs) != want {
		t.Fatalf("restart after a reorganisation: %s, want %s", describe(evs), want)
	}
	if evs[1].Txs[0].ID != spend || evs[1].Hash != h.chain.hash(6) || evs[2].Hash != b.hash(6) || evs[2].Txs[0].ID == spend {
		t.Errorf("disconnected %v in %s, connected %v in %s; want the first run's spend out, the branch's in", evs[1].Txs[0].ID, evs[1].Hash, evs[2].Txs[0].ID, evs[2].Hash)
	}
	if st := c.Stats(); st.Reorgs != 1 {
		t.Errorf("%d reorgs, want 1", st.Reorgs)
	}

	// The same as a client that followed it, and one that scanned the
	// branch alone.
	fresh := h.config(p1, p2)
	fresh.Store = t.TempDir()
	scanned, _ := runOnce(t, fresh)
	if got, want := ledger(c), ledger(scanned); got != want {
		t.Errorf("ledger after the restart %q, after a scan of the branch %q", got, want)
	}
}

// TestBansKept bans a liar, then starts the client again on the store with
// the same peers: the ban is in force from the start (with its reason and
// when it was made), the liar is not dialed, and the scan ends with the
// honest peers.
func TestBansKept(t *testing.T) {
	h := newHistory(t)
	p1, liar, p3 := startFakePeer(t, h.chain), startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	liar.lie(h.chain.hash(4), filterOf(t, h.chain, 4, h.chain.blocks[4].Transactions[0].TxOut[0].PkScript))
	cfg := h.config(p1, liar, p3)
	cfg.Store, cfg.TargetPeers = t.TempDir(), 3
	first, _ := runOnce(t, cfg)
	bans := first.Bans()
	if len(bans) != 1 || bans[0].Peer != liar.addr {
		t.Fatalf("first run's bans %+v, want the liar", bans)
	}
	second, evs := runOnce(t, cfg)
	if got := describe(evs); got != "=7" {
		t.Errorf("second run: %s", got)
	}
	kept := second.Bans()
	if len(kept) != 1 || kept[0].Peer != liar.addr || kept[0].Reason != bans[0].Reason || !kept[0].Since.Equal(bans[0].Since.Truncate(1e9)) ||
		!kept[0].Until.Equal(bans[0].Until.Truncate(1e9)) {
		t.Errorf("second run's bans %+v, want the first's %+v", kept, bans)
	}
	if slices.ContainsFunc(second.PeersUsed(), func(p PeerInfo) bool { return p.Addr == liar.addr }) {
		t.Errorf("the banned peer was dialed again")
	}
}

// TestKnownAddresses seeds a client from DNS, then runs it again on the
// store with seeds that answer nothing: it connects to the addresses the
// first run learnt.
func TestKnownAddresses(t *testing.T) {
	h := newHistory(t)
	first := startFakePeer(t, h.chain)
	_, port, _ := net.SplitHostPort(first.addr)
	listenFakePeer(t, h.chain, "127.0.0.2:"+port)
	params := *spv.Regtest.Params
	params.DefaultPort = port
	params.DNSSeeds = []chaincfg.DNSSeed{{Host: "seed.test"}}
	cfg := h.config()
	cfg.Network, cfg.Store, cfg.TargetPeers = &spv.Network{Params: &params}, t.TempDir(), 2
	cfg.Lookup = func(context.Context, string) ([]net.IP, error) {
		return []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("127.0.0.2")}, nil
	}
	runOnce(t, cfg)
	asked := 0
	cfg.Lookup = func(_ context.Context, host string) ([]net.IP, error) {
		asked++
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	c, evs := runOnce(t, cfg)
	if got := describe(evs); got != "=7" || len(c.PeersUsed()) != 2 || asked != 0 {
		t.Errorf("second run: %s with %d peers, %d DNS queries; want =7 with the two learnt, no query", got, len(c.PeersUsed()), asked)
	}
}

// TestWalletGrows keeps a wallet under a name, then starts it again with
// an address more, whose payments lie in blocks the first run reported:
// the address is scanned for from the birthday and its payments come as
// Rescan events; the wallet the store keeps now watches both.
func TestWalletGrows(t *testing.T) {
	h := newHistory(t)
	_, other := walletAddr(t, 9) // paid at 4 beside the wallet
	otherAddr, _ := walletAddr(t, 9)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store, cfg.Wallet = t.TempDir(), "mine"
	runOnce(t, cfg)
	cfg.Addresses = append(cfg.Addresses, otherAddr)
	c, evs := runOnce(t, cfg)
	// At 4 it is paid beside the wallet, at 6 the wallet's spend pays it.
	if got := describe(evs); got != "r4[1] r6[1] =7" {
		t.Errorf("run with an address more: %s, want r4[1] r6[1] =7", got)
	}
	if !slices.ContainsFunc(c.Watched(), func(d wallet.Derived) bool { return bytes.Equal(d.Script, other) }) {
		t.Errorf("the new address is not watched")
	}
	cfg.Addresses = cfg.Addresses[:1] // the kept wallet keeps it
	c, _ = runOnce(t, cfg)
	if len(c.Watched()) != 2 {
		t.Errorf("a run without the address watches %d scripts, want the kept 2", len(c.Watched()))
	}
}

// TestKeptRefused: a kept state that does not decode, or does not fit
// Config, is an error at Start that names the file and the way out; a
// wallet of other scripts on the same store gets a state of its own.
func TestKeptRefused(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store = t.TempDir()
	first, _ := runOnce(t, cfg)
	name := first.walletFile
	path := filepath.Join(cfg.Store, name)
	for _, tt := range []struct {
		name string
		edit func(cfg *Config)
		want string
	}{
		{"a range ending below the kept state", func(cfg *Config) { cfg.To = 5 }, "scanned to block 7, past the end of the range 5"},
		{"another birthday, under the same name", func(cfg *Config) { cfg.Birthday, cfg.Wallet = 2, name[len(walletPrefix):] }, "born at block 0, not 2"},
		{"another gap limit, under the same name", func(cfg *Config) { cfg.Gap, cfg.Wallet = 7, name[len(walletPrefix):] }, "gap limit 20, not 7"},
	} {
		c := cfg
		tt.edit(&c)
		cl, err := New(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := cl.Start(t.Context()); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "remove "+path) {
			t.Errorf("%s: Start = %v, want %q and the way out", tt.name, err, tt.want)
			cl.Stop()
		}
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 1
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cl, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	err = cl.Start(t.Context())
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "remove "+path+" to scan the wallet again from its birthday") {
		t.Errorf("Start on a corrupt state = %v", err)
	}

	other := h.config(p1, p2)
	other.Store = cfg.Store
	other.Addresses[0], _ = walletAddr(t, 9)
	if c, evs := runOnce(t, other); c.walletFile == name || describe(evs) != "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7" {
		t.Errorf("another wallet on the store, kept in %s: %s", c.walletFile, describe(evs))
	}
}

// keptReported reads the wallet's file in dir and returns the last block
// its state reported (a restart reports from the next one on); birthday-1
// if there is none.
func keptReported(t *testing.T, dir, name string, birthday int32) int32 {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.ReadFile(name, maxWalletFile)
	if errors.Is(err, os.ErrNotExist) {
		return birthday - 1
	}
	if err != nil {
		t.Fatal(err)
	}
	k, err := decodeKept(b)
	if err != nil {
		t.Fatal(err)
	}
	if k.reported == 0 {
		return birthday - 1
	}
	return k.blocks[k.reported-1].height
}

// TestCrashWindow stops a client after its consumer took k events of a
// 2,100-block scan (three scan steps), for several k, and starts it again
// on the store: the state the store keeps covers only events the consumer
// handled (all but the k-th), and the restart reports everything after
// it, in the order and with the transactions of an uninterrupted run.
// The events reported twice, the crash window, are those after the last
// state kept: fewer than saveEvents and the queue.
func TestCrashWindow(t *testing.T) {
	t.Parallel() // fake peers and a store of its own
	h := newHistory(t)
	c := h.chain.fork(7)
	for c.tip() < 2100 {
		var txs []fakeTx
		if n := c.tip() + 1; n%600 == 0 {
			cb := wire.OutPoint{Hash: c.blocks[n-500].Transactions[0].TxHash()}
			txs = append(txs, fakeTx{from: []wire.OutPoint{cb}, to: []payment{{h.script, int64(n)}}})
		}
		c.mine(t, 0, txs...)
	}
	p1, p2 := startFakePeer(t, c), startFakePeer(t, c)
	cfg := h.config(p1, p2)
	_, full := runOnce(t, cfg)
	full = withoutSynced(full)[:len(full)-1]
	if len(full) != 2101 {
		t.Fatalf("%d blocks reported, want 2101", len(full))
	}
	for _, k := range []int{1000, 1001, 1300, 2102} {
		cfg.Store = t.TempDir()
		cl := start(t, cfg)
		var taken []Event
		for ev := range cl.Events() {
			taken = append(taken, ev)
			if len(taken) == k {
				break
			}
		}
		if err := cl.Stop(); err != nil {
			t.Fatal(err)
		}
		handled := withoutSynced(taken[:k-1])
		if len(handled) > 0 && handled[len(handled)-1].Kind == Synced {
			handled = handled[:len(handled)-1]
		}
		kept := keptReported(t, cfg.Store, cl.walletFile, 0)
		if last := int32(len(handled)) - 1; kept > last {
			t.Fatalf("k=%d: the store keeps the state to block %d, but the consumer handled blocks to %d only", k, kept, last)
		}
		_, again := runOnce(t, cfg)
		again = withoutSynced(again)[:len(again)-1]
		window := len(handled) - int(kept+1)
		if got, want := describe(append(slices.Clone(handled[:kept+1]), again...)), describe(full); got != want {
			t.Fatalf("k=%d: kept to %d; handled then restarted:\n%.300s\nwant\n%.300s", k, kept, got, want)
		}
		if window > saveEvents+DefaultEvents {
			t.Errorf("k=%d: %d events reported twice, more than %d and the queue", k, window, saveEvents)
		}
		t.Logf("k=%d: state kept to block %d, %d events reported again", k, kept, window)
	}
}

// TestStoreLocked: while a client runs on a store, a second one on it
// fails at Start, naming the holder, and leaves the first's files alone.
func TestStoreLocked(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store, cfg.Follow = t.TempDir(), true
	first := start(t, cfg)
	collect(t, first, 7)
	second, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := second.Start(t.Context()); !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
		t.Errorf("second client's Start = %v, want ErrLocked naming this process", err)
	}
	if err := first.Stop(); err != nil {
		t.Fatal(err)
	}
	cfg.Follow = false
	if _, evs := runOnce(t, cfg); describe(evs) != "=7" {
		t.Errorf("after the first stopped: %s, want =7", describe(evs))
	}
}

// TestKeepFails: a state the store cannot write stops the client with an
// error naming the file (here a directory stands where the temporary file
// goes).
func TestKeepFails(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	cfg := h.config(p1, p2)
	cfg.Store = t.TempDir()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(cfg.Store, c.walletFile+".tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	collect(t, c, -1)
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "keeping the wallet's state") || !strings.Contains(err.Error(), tmp) {
		t.Errorf("Err() = %v, want the failed write of %s", err, tmp)
	}
}
