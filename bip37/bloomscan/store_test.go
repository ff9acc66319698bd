package bloomscan

import (
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestScanFromAnchor scans a wallet from its birthday with a chain kept
// in a store and started from an anchor just below the birthday, twice:
// the second run downloads one empty headers message and finds the same.
func TestScanFromAnchor(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	birthday := sc.Received
	anchor := &spv.Anchor{Height: birthday - 1, Hash: sc.BlockHash(t, birthday-1), Locator: *sc.Network.Params.GenesisHash}
	dir := t.TempDir()
	for run := range 2 {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		chain, err := spv.OpenChain(spv.ChainConfig{Network: sc.Network, Store: st, Anchor: anchor, Birthday: birthday})
		if err != nil {
			t.Fatal(err)
		}
		s := sc.NewScan(t, sc.Node.P2PAddr, wire.SFNodeBloom, 0, nil)
		stats, err := Run(t.Context(), Config{Session: s.Session, Chain: chain, Watch: s.Watch, From: birthday, To: -1, Tweak: 3, Emit: s.Emit})
		chain.Close()
		if err != nil {
			t.Fatal(err)
		}
		sc.Check(t, s.Found, birthday, sc.Tip)
		if chain.Base() != birthday-11 || stats.Blocks != int(sc.Tip-birthday+1) {
			t.Errorf("run %d: chain from %d, %d blocks; want %d, %d", run, chain.Base(), stats.Blocks, birthday-11, sc.Tip-birthday+1)
		}
		if h := stats.Traffic.Received["headers"]; run == 1 && h.Bytes != 25 {
			t.Errorf("second run received %d bytes of headers, want 25", h.Bytes)
		}
	}
}
