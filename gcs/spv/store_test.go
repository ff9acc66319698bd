package spv_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// openChain opens the chain in dir, failing the test on error.
func openChain(t testing.TB, cfg spv.ChainConfig, dir string) *spv.Chain {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = st
	if cfg.Network == nil {
		cfg.Network = spv.Regtest
	}
	c, err := spv.OpenChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// syncFrom syncs c from the peer at addr and returns the bytes of headers
// messages received.
func syncFrom(t testing.TB, c *spv.Chain, addr string) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	s, err := spv.Dial(ctx, addr, spv.Config{Network: c.Network(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := spv.SyncHeaders(ctx, s, c); err != nil {
		t.Fatal(err)
	}
	return s.Traffic().Received["headers"].Bytes
}

// TestChainResumes syncs a chain into a store, reopens it, and syncs
// again from a peer that has more: only the new headers cross the wire.
func TestChainResumes(t *testing.T) {
	hs := regtestHeaders(6000)
	dir := t.TempDir()
	c := openChain(t, spv.ChainConfig{}, dir)
	first := syncFrom(t, c, startHeaderPeer(t, spv.Regtest, hs[:4001]).addr)
	if c.Height() != 4000 || c.Tip() != hs[4000].BlockHash() {
		t.Fatalf("synced to %d %s, want 4000 %s", c.Height(), c.Tip(), hs[4000].BlockHash())
	}
	must(t, c.Close())

	c = openChain(t, spv.ChainConfig{}, dir)
	defer c.Close()
	if c.Height() != 4000 {
		t.Fatalf("reopened at %d, want 4000", c.Height())
	}
	second := syncFrom(t, c, startHeaderPeer(t, spv.Regtest, hs).addr)
	third := syncFrom(t, c, startHeaderPeer(t, spv.Regtest, hs).addr)
	if c.Height() != 6000 || c.Tip() != hs[6000].BlockHash() {
		t.Fatalf("resumed to %d, want 6000", c.Height())
	}
	// 81 bytes a header (80 and a zero transaction count), a 24-byte
	// message header and a count per message: 2,000 headers, then none.
	if want := uint64(24 + 3 + 2000*81 + 24 + 1); second != want || third != 24+1 {
		t.Errorf("headers bytes received: resumed sync %d, want %d; sync at the tip %d, want 25", second, want, third)
	}
	t.Logf("headers bytes: first sync %d, resumed sync %d, sync at the tip %d", first, second, third)
	if err := c.Store().Verify(); err != nil {
		t.Error(err)
	}
}

// TestChainFromAnchor starts a store from an anchor: the peer serves the
// headers from the locator, the chain keeps the ten below the anchor, and
// a peer whose headers do not lead to the anchor's hash is refused.
func TestChainFromAnchor(t *testing.T) {
	hs := regtestHeaders(3000)
	anchor := &spv.Anchor{Height: 2500, Hash: hs[2500].BlockHash(), LocatorHeight: 100, Locator: hs[100].BlockHash()}
	c := openChain(t, spv.ChainConfig{Anchor: anchor, Birthday: 2600}, t.TempDir())
	if h, hash := c.Anchor(); h != 2500 || hash != anchor.Hash || c.Height() != 2500 {
		t.Fatalf("pending anchor %d %s, height %d", h, hash, c.Height())
	}
	syncFrom(t, c, startHeaderPeer(t, spv.Regtest, hs).addr)
	if c.Base() != 2490 || c.Height() != 3000 || c.Tip() != hs[3000].BlockHash() {
		t.Fatalf("base %d, tip %d %s; want 2490, 3000 %s", c.Base(), c.Height(), c.Tip(), hs[3000].BlockHash())
	}
	if _, err := c.Header(2489); err == nil {
		t.Errorf("Header(2489), below the base = nil error")
	}
	if _, _, err := c.Range(2000, -1); err == nil {
		t.Errorf("Range(2000, tip) below the base = nil error")
	}
	c.Close()

	// A peer on a fork from the locator: its headers link, but to
	// another block at the anchor's height.
	fork := append([]wire.BlockHeader(nil), hs[:101]...)
	for _, h := range branchFrom(hs[100], 2900) {
		fork = append(fork, *h)
	}
	lying := openChain(t, spv.ChainConfig{Anchor: anchor, Birthday: 2600}, t.TempDir())
	defer lying.Close()
	s, err := spv.Dial(t.Context(), startHeaderPeer(t, spv.Regtest, fork).addr, spv.Config{Network: spv.Regtest})
	if err != nil {
		t.Fatal(err)
	}
	err = spv.SyncHeaders(t.Context(), s, lying)
	if !errors.Is(err, spv.ErrMisbehaving) || !strings.Contains(err.Error(), "not the published") {
		t.Errorf("SyncHeaders(a peer whose chain leads elsewhere) = %v, want ErrMisbehaving naming the anchor", err)
	}
	if !lying.Store().Empty() {
		t.Errorf("the refused anchor's headers were stored")
	}
}

func TestOpenChainRejects(t *testing.T) {
	hs := regtestHeaders(30)
	dir := t.TempDir()
	c := openChain(t, spv.ChainConfig{}, dir)
	c.Close()
	tests := []struct {
		name string
		cfg  spv.ChainConfig
		want string
	}{
		{"another network", spv.ChainConfig{Network: spv.Testnet4}, "holds the chain of"},
		{"anchor not in the store", spv.ChainConfig{Anchor: &spv.Anchor{Height: 20, Hash: hs[20].BlockHash()}, Birthday: 30}, "does not hold the anchor"},
	}
	for _, tt := range tests {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		tt.cfg.Store = st
		if tt.cfg.Network == nil {
			tt.cfg.Network = spv.Regtest
		}
		if _, err := spv.OpenChain(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: OpenChain = %v, want an error containing %q", tt.name, err, tt.want)
		}
		st.Close()
	}
	for _, a := range []spv.Anchor{
		{Height: 100, LocatorHeight: 95}, // locator inside the 10 headers the anchor needs
		{Height: 100, LocatorHeight: 10}, // above the birthday below
		{Height: -1, LocatorHeight: 0},
		{Height: 50, LocatorHeight: 0}, // at 0 but not the genesis hash
	} {
		if _, err := spv.OpenChain(spv.ChainConfig{Network: spv.Regtest, Anchor: &a, Birthday: 99}); err == nil {
			t.Errorf("OpenChain(anchor %+v, birthday 99) = nil error", a)
		}
	}
	if _, err := spv.OpenChain(spv.ChainConfig{Network: spv.Mainnet, Anchor: &spv.Anchor{Height: 3000, LocatorHeight: 2100}, Birthday: 4000}); err == nil {
		t.Errorf("OpenChain(mainnet anchor whose retarget period starts before its locator) = nil error")
	}
}

// TestChainWindow keeps 50 headers in memory: verification reads older
// ancestors from the store, a fork inside the window reorganises and
// survives a reopen, and one below it is refused.
func TestChainWindow(t *testing.T) {
	hs := regtestHeaders(300)
	dir := t.TempDir()
	c := openChain(t, spv.ChainConfig{Window: 50}, dir)
	syncFrom(t, c, startHeaderPeer(t, spv.Regtest, hs).addr)
	fork := branchFrom(hs[280], 25)
	if n, err := c.Connect(fork); n != 25 || err != nil {
		t.Fatalf("Connect(25-header fork at 280) = %d, %v, want 25, nil", n, err)
	}
	must(t, c.Commit())
	deep := branchFrom(hs[100], 300)
	if n, err := c.Connect(deep[:10]); n != 0 || !errors.Is(err, spv.ErrMisbehaving) || !strings.Contains(err.Error(), "last") {
		t.Errorf("Connect(fork at 100, below the window) = %d, %v, want an error naming the window", n, err)
	}
	c.Close()
	c = openChain(t, spv.ChainConfig{Window: 50}, dir)
	defer c.Close()
	if c.Height() != 305 || c.Tip() != fork[24].BlockHash() {
		t.Errorf("reopened at %d %s, want the fork's tip 305 %s", c.Height(), c.Tip(), fork[24].BlockHash())
	}
	if err := c.Store().Verify(); err != nil {
		t.Error(err)
	}
}

// branchFrom returns n regtest headers after prev, 7 seconds apart (so
// they differ from regtestHeaders').
func branchFrom(prev wire.BlockHeader, n int) []*wire.BlockHeader {
	hs := make([]*wire.BlockHeader, n)
	for i := range hs {
		h := regtestNext(&prev, prev.Timestamp.Add(7*time.Second))
		hs[i], prev = &h, h
	}
	return hs
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
