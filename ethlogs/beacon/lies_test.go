package beacon_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
)

// TestLies serves each lie of beacontest and checks that Anchor rejects
// it with the check meant to catch it, in a message fit for a terminal.
// The chain puts a fork boundary between the finality update's attested
// header and its signature, so that signing in the wrong fork is a lie
// too.
func TestLies(t *testing.T) {
	c := sharedChain(t)
	want := map[beacontest.Lie]beacon.Check{
		beacontest.OtherCheckpoint:               beacon.CheckCheckpoint,
		beacontest.UnprovenPeriod:                beacon.CheckUpdates,
		beacontest.UpdatesOutOfOrder:             beacon.CheckUpdates,
		beacontest.WrongCommitteeBranch:          beacon.CheckCommittee,
		beacontest.ForgedCommittee:               beacon.CheckCommittee,
		beacontest.BadSignature:                  beacon.CheckSignature,
		beacontest.LowParticipation:              beacon.CheckParticipation,
		beacontest.WrongFinalityBranch:           beacon.CheckFinality,
		beacontest.WrongExecutionBranch:          beacon.CheckExecution,
		beacontest.ForgedBlockHash:               beacon.CheckExecution,
		beacontest.SignatureSlotNotAfterAttested: beacon.CheckSlots,
		beacontest.FutureSignature:               beacon.CheckSlots,
		beacontest.Stale:                         beacon.CheckFreshness,
		beacontest.RolledBack:                    beacon.CheckRollback,
		beacontest.AttestedForkSignature:         beacon.CheckSignature,
		beacontest.Oversized:                     beacon.CheckSize,
		beacontest.Garbage:                       beacon.CheckDecode,
		beacontest.ServerError:                   beacon.CheckTransport,
	}
	honest := serve(t, c, beacontest.Honest, 0)
	for _, lie := range beacontest.Lies() {
		t.Run(lie.String(), func(t *testing.T) {
			check, ok := want[lie]
			if !ok {
				t.Fatalf("no expected check for lie %s", lie)
			}
			cfg := beacon.Config{Chain: c.Config(), Checkpoint: c.Checkpoint(), StatePath: filepath.Join(t.TempDir(), "state.json")}
			if lie == beacontest.RolledBack {
				// A rollback is relative to what an earlier run accepted.
				cfg.URL = honest.URL
				if _, err := beacon.Anchor(context.Background(), cfg); err != nil {
					t.Fatal(err)
				}
			}
			cfg.URL = serve(t, c, lie, 0).URL
			f, err := beacon.Anchor(context.Background(), cfg)
			var e *beacon.Error
			if !errors.As(err, &e) || e.Check != check {
				t.Fatalf("Anchor with lie %s = %+v, %v; want an error of check %q", lie, f, err, check)
			}
			t.Logf("%s", err)
			msg := err.Error()
			if strings.ContainsFunc(msg, unicode.IsControl) || len(msg) > 1000 {
				t.Errorf("error message has control characters or is %d bytes long: %q", len(msg), msg)
			}
		})
	}
}
