package beacon_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/ethereum/go-ethereum/beacon/light"
	"github.com/ethereum/go-ethereum/beacon/light/api"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/beacon/types"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethdb/memorydb"
)

// gethAnchor runs go-ethereum's own light client the way its blsync
// does, in one shot: bootstrap, committee updates up to the finality
// update's signature period, then the finality update through a
// HeadTracker at the same 342-signer threshold. It returns the finalized
// header and execution block it accepts.
func gethAnchor(url string, cfg *params.ChainConfig, checkpoint common.Hash) (types.Header, common.Hash, error) {
	a := api.NewBeaconLightApi(url, nil, cfg)
	bootstrap, err := a.GetCheckpointData(checkpoint)
	if err != nil {
		return types.Header{}, common.Hash{}, fmt.Errorf("bootstrap: %w", err)
	}
	chain := light.NewCommitteeChain(memorydb.New(), cfg, params.SyncCommitteeSupermajority, true)
	if err := chain.CheckpointInit(*bootstrap); err != nil {
		return types.Header{}, common.Hash{}, fmt.Errorf("checkpoint: %w", err)
	}
	fu, err := a.GetFinalityUpdate()
	if err != nil {
		return types.Header{}, common.Hash{}, fmt.Errorf("finality update: %w", err)
	}
	next, _ := chain.NextSyncPeriod()
	if target := types.SyncPeriod(fu.SignatureSlot); target > next {
		updates, committees, err := a.GetBestUpdatesAndCommittees(next, target-next)
		if err != nil {
			return types.Header{}, common.Hash{}, fmt.Errorf("updates: %w", err)
		}
		for i := range updates {
			if err := chain.InsertUpdate(updates[i], committees[i]); err != nil {
				return types.Header{}, common.Hash{}, fmt.Errorf("update %d: %w", i, err)
			}
		}
	}
	if _, err := light.NewHeadTracker(chain, params.SyncCommitteeSupermajority, nil).ValidateFinality(fu); err != nil {
		return types.Header{}, common.Hash{}, fmt.Errorf("finality: %w", err)
	}
	return fu.Finalized.Header, fu.Finalized.BlockHash(), nil
}

// TestGethAgrees checks the synthetic chain and Anchor against
// go-ethereum's light client: on an honest chain across three periods
// and both sets of generalized indices (one period with -short), both
// accept the same finalized header and execution block.
func TestGethAgrees(t *testing.T) {
	fin := testHeader(77)
	opts := beacontest.Options{Finalized: fin, Periods: 3, DenebPeriods: 1}
	if testing.Short() {
		opts.Periods, opts.DenebPeriods = 1, 0
	}
	c := newChain(t, opts)
	s := serve(t, c, beacontest.Honest, 0)
	h, block, err := gethAnchor(s.URL, c.Config(), c.Checkpoint())
	if err != nil {
		t.Fatalf("go-ethereum: %v", err)
	}
	f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	if f.Slot != h.Slot || f.Root != h.Hash() || f.BlockHash != block || block != fin.Hash() {
		t.Fatalf("Anchor = %d %s %s, go-ethereum = %d %s %s, want block %s", f.Slot, f.Root, f.BlockHash, h.Slot, h.Hash(), block, fin.Hash())
	}
}

// TestGethGaps serves the lies go-ethereum's light client accepts and
// Anchor refuses: the reasons for the checks this package adds. On a
// chain with a fork boundary between the finality update's attested
// header and its signature, go-ethereum also refuses the honest
// signature.
func TestGethGaps(t *testing.T) {
	if testing.Short() {
		t.Skip("go-ethereum's light client twice per lie; TestLies covers the lies")
	}
	plain := newChain(t, beacontest.Options{Periods: 2})
	boundary := sharedChain(t)
	for _, tc := range []struct {
		chain       *beacontest.Chain
		lie         beacontest.Lie
		gethAccepts bool
		check       beacon.Check // Anchor's; "" accepts
	}{
		{plain, beacontest.Stale, true, beacon.CheckFreshness},
		{plain, beacontest.SignatureSlotNotAfterAttested, true, beacon.CheckSlots},
		{plain, beacontest.FutureSignature, true, beacon.CheckSlots},
		{plain, beacontest.RolledBack, true, beacon.CheckRollback},
		{boundary, beacontest.Honest, false, ""},
		{boundary, beacontest.AttestedForkSignature, true, beacon.CheckSignature},
	} {
		name := tc.lie.String()
		if tc.chain == boundary {
			name += "-at-fork-boundary"
		}
		t.Run(name, func(t *testing.T) {
			c := tc.chain
			cfg := beacon.Config{Chain: c.Config(), Checkpoint: c.Checkpoint(), StatePath: filepath.Join(t.TempDir(), "state")}
			if tc.lie == beacontest.RolledBack {
				cfg.URL = serve(t, c, beacontest.Honest, 0).URL
				if _, err := beacon.Anchor(context.Background(), cfg); err != nil {
					t.Fatal(err)
				}
			}
			cfg.URL = serve(t, c, tc.lie, 0).URL
			_, _, gerr := gethAnchor(cfg.URL, c.Config(), c.Checkpoint())
			_, err := beacon.Anchor(context.Background(), cfg)
			t.Logf("go-ethereum: %v", gerr)
			t.Logf("Anchor: %v", err)
			if (gerr == nil) != tc.gethAccepts {
				t.Errorf("go-ethereum accepts: %t, want %t", gerr == nil, tc.gethAccepts)
			}
			var e *beacon.Error
			if tc.check == "" && err != nil || tc.check != "" && (!errors.As(err, &e) || e.Check != tc.check) {
				t.Errorf("Anchor = %v, want check %q", err, tc.check)
			}
		})
	}
}

// BenchmarkAnchor times a whole anchor over loopback with real BLS,
// bootstrap + 2 updates + finality, against go-ethereum's light client
// doing the same (its BeaconLightApi, CommitteeChain and HeadTracker):
// nearly all of both is deserializing and checking 512-key committees.
func BenchmarkAnchor(b *testing.B) {
	c := newChain(b, beacontest.Options{Periods: 3})
	s := serve(b, c, beacontest.Honest, 0)
	b.Run("chainsieve", func(b *testing.B) {
		var bytes int64
		for b.Loop() {
			beacon.ForgetCommitteeKeys() // cold, as a run of the CLI and every geth light client here
			f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
			if err != nil {
				b.Fatal(err)
			}
			bytes = f.Bytes
		}
		b.ReportMetric(float64(bytes), "bytes/op")
	})
	b.Run("geth", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := gethAnchor(s.URL, c.Config(), c.Checkpoint()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGloas anchors a chain that is Gloas from genesis, where a
// light-client header proves only the execution block hash, and checks it
// against go-ethereum, which decodes the Gloas shape too.
func TestGloas(t *testing.T) {
	fin := testHeader(4242)
	c := newChain(t, beacontest.Options{Finalized: fin, Gloas: true})
	s := serve(t, c, beacontest.Honest, 0)
	f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	if f.Fork != "gloas" || f.BlockHash != fin.Hash() || f.Payload != nil {
		t.Fatalf("Anchor = %+v, want a Gloas anchor on %s with no payload", f, fin.Hash())
	}
	if err := f.VerifyHeader(fin); err != nil {
		t.Fatal(err)
	}
	if _, block, err := gethAnchor(s.URL, c.Config(), c.Checkpoint()); err != nil || block != fin.Hash() {
		t.Fatalf("go-ethereum = %s, %v", block, err)
	}
	for lie, check := range map[beacontest.Lie]beacon.Check{
		beacontest.ForgedBlockHash:      beacon.CheckExecution,
		beacontest.WrongExecutionBranch: beacon.CheckExecution,
		beacontest.WrongFinalityBranch:  beacon.CheckFinality,
	} {
		s := serve(t, c, lie, 0)
		_, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
		wantCheck(t, err, check)
	}
}
