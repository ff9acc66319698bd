package scan_test

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// demoBeacon builds a beacon chain whose newest finalized block carries
// execution block fin of the demo chain (and its attested head, the demo's
// head).
func demoBeacon(t *testing.T, c *demo.Chain, fin *types.Header) *beacontest.Chain {
	t.Helper()
	var head types.Header
	if err := scan.NewClient(c.URL).Call(t.Context(), &head, "eth_getBlockByNumber", hexNumber(c.Head), false); err != nil {
		t.Fatal(err)
	}
	bc, err := beacontest.NewChain(beacontest.Options{Finalized: fin, Head: &head})
	if err != nil {
		t.Fatal(err)
	}
	return bc
}

func serveBeacon(t *testing.T, bc *beacontest.Chain, lie beacontest.Lie) *beacontest.Server {
	t.Helper()
	s, err := bc.Serve(lie, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestScanBeaconAnchor anchors the demo chain on a beacon light client:
// the anchor is the demo's finalized block, proven by a BLS sync
// committee; the state file lands in the chain's index directory, so the
// next run needs no checkpoint. A lying beacon API and a beacon chain that
// finalized a block the node does not have are errors, with nothing
// emitted and no fallback to the node's word.
func TestScanBeaconAnchor(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	var fin types.Header
	if err := scan.NewClient(c.URL).Call(t.Context(), &fin, "eth_getBlockByNumber", hexNumber(c.Finalized), false); err != nil {
		t.Fatal(err)
	}
	bc := demoBeacon(t, c, &fin)
	honest := serveBeacon(t, bc, beacontest.Honest)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	dir := t.TempDir()
	run := func(cfg beacon.Config, index string) ([]string, scan.Stats, error) {
		return collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: index, Anchor: scan.Anchor{Beacon: &cfg}})
	}

	got, st, err := run(beacon.Config{URL: honest.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()}, dir)
	slot, root := bc.Finalized()
	if err != nil || st.AnchorSource != scan.BeaconChain || st.AnchorNumber != c.Finalized || st.AnchorHash != fin.Hash() || st.AnchorFromNode ||
		st.Beacon == nil || st.Beacon.Slot != slot || st.Beacon.Root != root || st.To != c.Head || st.Unfinalized != c.Head-c.Finalized {
		t.Fatalf("beacon anchor: %v; anchor %d %s (source %d), beacon %+v, blocks to %d, %d unfinalized; want the demo's finalized block %d %s at slot %d",
			err, st.AnchorNumber, st.AnchorHash, st.AnchorSource, st.Beacon, st.To, st.Unfinalized, c.Finalized, fin.Hash(), slot)
	}
	if !slices.Equal(got, getLogs(t, c.URL, withRange(q, 0, c.Head))) {
		t.Errorf("beacon anchor: %d logs, not eth_getLogs' answer", len(got))
	}
	anchorVerifiesHeaders(t, c, bc, honest, &fin)
	state := filepath.Join(dir, st.Genesis.Hex()[:18], scan.BeaconStateFile)
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("no state file next to the index: %v", err)
	}
	// The next run starts from the state file's checkpoint; "finalized"
	// in the range is the beacon's finalized block.
	_, st, err = collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: dir, ToBlock: &scan.Block{Tag: scan.Finalized},
		Anchor: scan.Anchor{Beacon: &beacon.Config{URL: honest.URL, Chain: bc.Config()}}})
	if err != nil || st.AnchorNumber != c.Finalized || st.To != c.Finalized || st.Unfinalized != 0 {
		t.Errorf("second run without a checkpoint, to finalized: %v, anchor %d, to %d", err, st.AnchorNumber, st.To)
	}

	lies := []beacontest.Lie{beacontest.BadSignature, beacontest.RolledBack, beacontest.ForgedBlockHash}
	if testing.Short() {
		lies = lies[:1] // every lie is tested in package beacon, and from the CLI
	}
	for _, lie := range lies {
		s := serveBeacon(t, bc, lie)
		got, _, err := run(beacon.Config{URL: s.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()}, dir)
		var be *beacon.Error
		if !errors.As(err, &be) || len(got) > 0 {
			t.Errorf("beacon API lying (%s): %v, %d logs; want a *beacon.Error and nothing", lie, err, len(got))
		} else {
			t.Logf("%s: %v", lie, err)
		}
	}

	// A beacon chain that finalized a block this node does not have: the
	// node is on another chain, or behind.
	other := types.CopyHeader(&fin)
	other.Number = new(big.Int).SetUint64(c.Finalized + 5)
	elsewhere := serveBeacon(t, demoBeacon(t, c, other), beacontest.Honest)
	if got, _, err := run(beacon.Config{URL: elsewhere.URL, Checkpoint: bc.Checkpoint()}, t.TempDir()); err == nil || len(got) > 0 {
		t.Errorf("no chain configuration, chain id 1337: %v; want an error", err)
	}
	_, _, err = run(beacon.Config{URL: elsewhere.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "does not serve it") || !strings.Contains(err.Error(), other.Hash().Hex()) {
		t.Errorf("a finalized block the node lacks: %v; want an error naming %s", err, other.Hash())
	}
}

// anchorVerifiesHeaders calls beacon.Anchor itself on the demo chain's
// beacon chain: the anchor is fin, the header the node serves for fin's
// hash verifies against it, and the node's head does not.
func anchorVerifiesHeaders(t *testing.T, c *demo.Chain, bc *beacontest.Chain, s *beacontest.Server, fin *types.Header) {
	t.Helper()
	f, err := beacon.Anchor(t.Context(), beacon.Config{URL: s.URL, Chain: bc.Config(), Checkpoint: bc.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	if f.BlockHash != fin.Hash() || f.Payload.Number != c.Finalized {
		t.Fatalf("Anchor = block %d %s, want %d %s", f.Payload.Number, f.BlockHash, c.Finalized, fin.Hash())
	}
	client := scan.NewClient(c.URL)
	defer client.Close()
	var byHash, head types.Header
	if err := client.Call(t.Context(), &byHash, "eth_getBlockByHash", f.BlockHash, false); err != nil {
		t.Fatal(err)
	}
	if err := f.VerifyHeader(&byHash); err != nil {
		t.Errorf("VerifyHeader(the node's block %s) = %v", f.BlockHash, err)
	}
	if err := client.Call(t.Context(), &head, "eth_getBlockByNumber", hexNumber(c.Head), false); err != nil {
		t.Fatal(err)
	}
	if err := f.VerifyHeader(&head); err == nil {
		t.Errorf("VerifyHeader(head %d) = nil, want an error: the head is not the anchor", c.Head)
	}
}

// TestScanBeaconChainByID: without a configuration, the chain is chosen by
// the node's chain id, and the demo's (1337) has none.
func TestScanBeaconChainByID(t *testing.T) {
	c := startDemo(t)
	_, _, err := collect(context.Background(), scan.Config{Client: scan.NewClient(c.URL), IndexDir: t.TempDir(),
		Anchor: scan.Anchor{Beacon: &beacon.Config{URL: "http://127.0.0.1:1"}}})
	if err == nil || !strings.Contains(err.Error(), "execution chain id 1337") {
		t.Errorf("beacon anchor without a chain on chain 1337: %v; want an error naming the chain id", err)
	}
}
