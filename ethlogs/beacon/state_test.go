package beacon_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/ethereum/go-ethereum/common"
)

// TestStateFile checks that the state file survives between runs: it
// records the finalized header accepted and the checkpoint to start from
// next, refuses a server that goes back from it, and refuses to be read
// for another network or when corrupt.
func TestStateFile(t *testing.T) {
	c := sharedChain(t)
	honest := serve(t, c, beacontest.Honest, 0)
	rolledBack := serve(t, c, beacontest.RolledBack, 0)
	path := filepath.Join(t.TempDir(), "beacon", "state.json")
	ctx := context.Background()
	cfg := beacon.Config{URL: honest.URL, Chain: c.Config(), Checkpoint: c.Checkpoint(), StatePath: path}
	first, err := beacon.Anchor(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	saved := readStateFile(t, path)
	gvr := c.Config().GenesisValidatorsRoot
	// The finalized header starts an epoch: it is the next checkpoint.
	want := map[string]string{"genesis_validators_root": gvr.Hex(), "checkpoint": first.Root.Hex(),
		"finalized_slot": itoa(first.Slot), "finalized_root": first.Root.Hex()}
	for k, v := range want {
		if saved[k] != v {
			t.Errorf("state file %s = %q, want %q", k, saved[k], v)
		}
	}

	// A run without a checkpoint starts from the state's: no update needed.
	cfg.Checkpoint = common.Hash{}
	second, err := beacon.Anchor(ctx, cfg)
	if err != nil || second.Root != first.Root || second.Checkpoint != first.Root || second.Updates != 0 {
		t.Fatalf("second run = %+v, %v; want the same finalized header from checkpoint %s", second, err, first.Root)
	}

	// A server two epochs behind: from the original checkpoint only the
	// state file knows better; from the state's, the checkpoint does.
	cfg.URL = rolledBack.URL
	for _, checkpoint := range []common.Hash{c.Checkpoint(), {}} {
		cfg.Checkpoint = checkpoint
		_, err := beacon.Anchor(ctx, cfg)
		wantCheck(t, err, beacon.CheckRollback)
	}
	if got := readStateFile(t, path); got["finalized_root"] != first.Root.Hex() {
		t.Errorf("a refused run changed the state file: %v", got)
	}
	// Without the state file, the same server is believed.
	cfg.Checkpoint, cfg.StatePath = c.Checkpoint(), ""
	if f, err := beacon.Anchor(ctx, cfg); err != nil || f.Slot >= first.Slot {
		t.Fatalf("Anchor without a state file = %+v, %v; want an older finalized header accepted", f, err)
	}

	cfg.URL, cfg.StatePath = honest.URL, path
	for name, content := range map[string]string{
		"another network": strings.Replace(mustRead(t, path), gvr.Hex(), common.Hash{1}.Hex(), 1),
		"corrupt":         "{\"checkpoint\": \"0x12",
		"unknown field":   "{\"finalized\": 1}",
		"too large":       strings.Repeat(" ", 5000) + "{}",
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := beacon.Anchor(ctx, cfg)
		if e := wantCheck(t, err, beacon.CheckState); e.Endpoint != path {
			t.Errorf("%s: error %v does not name the state file", name, e)
		}
	}
	// A state file that cannot be written fails the run.
	cfg.StatePath = filepath.Join(path, "under-a-file")
	os.WriteFile(path, []byte("{}"), 0o644)
	_, err = beacon.Anchor(ctx, cfg)
	wantCheck(t, err, beacon.CheckState)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readStateFile(t *testing.T, path string) map[string]string {
	t.Helper()
	var m map[string]string
	if err := json.Unmarshal([]byte(mustRead(t, path)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func itoa(n uint64) string { b, _ := json.Marshal(n); return string(b) }
