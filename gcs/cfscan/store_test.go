package cfscan

import (
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// storeScan runs a scan of sc's wallet from From to the tip against addr
// with the chain kept in dir, started from anchor if the store is new.
func storeScan(t *testing.T, sc *spvtest.Scenario, addr, dir string, anchor *spv.Anchor, from int32, cp *gcs.Checkpoint) ([]spv.Tx, spv.Stats, error) {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := spv.OpenChain(spv.ChainConfig{Network: sc.Network, Store: st, Anchor: anchor, Birthday: from})
	if err != nil {
		t.Fatal(err)
	}
	defer chain.Close()
	s := sc.NewScan(t, addr, wire.SFNodeCF, 0, nil)
	cfg := Config{Session: s.Session, Chain: chain, Watch: s.Watch, From: from, To: -1, Checkpoint: cp, Emit: s.Emit}
	stats, err := Run(t.Context(), cfg)
	return s.Found, stats, err
}

// TestScanFromAnchor scans a wallet from its birthday with a chain started
// from an anchor just below it, authenticated by a filter-header
// checkpoint at the tip; a second scan finds the same from the store
// without fetching a filter header; stored filter headers that a lying
// peer served are dropped once a checkpoint contradicts them.
func TestScanFromAnchor(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: []string{"--nobanning"}})
	birthday := sc.Received // the wallet's first payment
	a := birthday - 1
	anchor := &spv.Anchor{Height: a, Hash: sc.BlockHash(t, a), Locator: *sc.Network.Params.GenesisHash}
	cp := checkpoint(t, sc, sc.Tip)
	dir := t.TempDir()

	found, st, err := storeScan(t, sc, sc.Node.P2PAddr, dir, anchor, birthday, cp)
	if err != nil {
		t.Fatal(err)
	}
	sc.Check(t, found, birthday, sc.Tip)
	if st.FilterHeaders != int(sc.Tip-birthday+1) || st.Blocks != int(sc.Tip-birthday+1) {
		t.Errorf("first scan: %d filter headers, %d blocks; want %d each", st.FilterHeaders, st.Blocks, sc.Tip-birthday+1)
	}
	found, st, err = storeScan(t, sc, sc.Node.P2PAddr, dir, nil, birthday, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc.Check(t, found, birthday, sc.Tip)
	if st.FilterHeaders != 0 || st.Traffic.Received["headers"].Bytes != 25 {
		t.Errorf("second scan: %d filter headers fetched, %d bytes of headers; want none, 25", st.FilterHeaders, st.Traffic.Received["headers"].Bytes)
	}

	// A peer that lies about a filter hash, with nothing to check it
	// against: the scan fails at that filter, but its filter headers stay.
	lies := t.TempDir()
	liar := spvtest.NewProxy(t, sc.Node.P2PAddr, sc.Network, spvtest.On(func(m *wire.MsgCFHeaders) []wire.Message {
		m.FilterHashes[len(m.FilterHashes)-1] = &chainhash.Hash{1}
		return spvtest.Keep(m)
	}))
	if _, _, err := storeScan(t, sc, liar.Addr, lies, anchor, birthday, nil); err == nil {
		t.Fatalf("scan through a liar = nil error")
	}
	found, st, err = storeScan(t, sc, sc.Node.P2PAddr, lies, nil, birthday, cp)
	if err != nil {
		t.Fatal(err)
	}
	sc.Check(t, found, birthday, sc.Tip)
	if st.FilterHeadersDropped == 0 || st.FilterHeaders != int(sc.Tip-birthday+1) {
		t.Errorf("scan after the liar: %d stored filter headers dropped, %d fetched; want some, %d", st.FilterHeadersDropped, st.FilterHeaders, sc.Tip-birthday+1)
	}
}
