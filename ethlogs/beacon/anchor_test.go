package beacon_test

import (
	"context"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
)

func TestAnchorHonest(t *testing.T) {
	start := time.Now()
	fin := testHeader(1000)
	c := newChain(t, beacontest.Options{Finalized: fin, Periods: 3})
	t.Logf("chain built in %v", time.Since(start))
	s := serve(t, c, beacontest.Honest, 0)
	start = time.Now()
	f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("anchor in %v: %+v", time.Since(start), f)
	slot, root := c.Finalized()
	if f.Slot != slot || f.Root != root || f.BlockHash != fin.Hash() {
		t.Fatalf("Anchor = slot %d root %s block %s, want %d %s %s", f.Slot, f.Root, f.BlockHash, slot, root, fin.Hash())
	}
	if err := f.VerifyHeader(fin); err != nil {
		t.Fatal(err)
	}
}
