package cfscan

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// scan runs a scan of sc's wallet against addr and returns what it found.
func scan(t *testing.T, sc *spvtest.Scenario, addr string, timeout time.Duration, cfg Config) ([]spv.Tx, spv.Stats, error) {
	t.Helper()
	s := sc.NewScan(t, addr, wire.SFNodeCF, timeout, cfg.Watch)
	cfg.Session, cfg.Chain, cfg.Watch, cfg.Emit = s.Session, s.Chain, s.Watch, s.Emit
	st, err := Run(t.Context(), cfg)
	return s.Found, st, err
}

// TestNodes scans the scenario's whole chain on btcd and on litecoind.
func TestNodes(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		t.Run(n.Name, func(t *testing.T) {
			sc := spvtest.NewScenario(t, n.Start, spvtest.Options{Filler: 6, FillerOutputs: 3})
			found, st, err := scan(t, sc, sc.Node.P2PAddr, 0, Config{To: -1})
			if err != nil {
				t.Fatal(err)
			}
			sc.Check(t, found, 0, sc.Tip)
			if st.Blocks != int(sc.Tip)+1 || st.Filters != st.Blocks || st.WalletTxs != len(found) ||
				st.BlocksFetched != st.FalsePositives+4 {
				t.Errorf("stats %+v: want %d blocks and filters, 4 blocks with wallet transactions", st, sc.Tip+1)
			}
			t.Logf("%s: %d wallet transactions, %d blocks fetched (%d false positives), %d B received, %d B sent, %d round trips, %v",
				n.Name, len(found), st.BlocksFetched, st.FalsePositives, st.Traffic.BytesReceived, st.Traffic.BytesSent, st.Traffic.RoundTrips, st.Duration)
		})
	}
}

// TestRanges scans part of the chain, with the coins received before it,
// and with checkpoints below, inside and above the range.
func TestRanges(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	from, to := sc.Received+1, sc.Tip-1
	tests := []struct {
		name string
		cp   *gcs.Checkpoint
	}{
		{"no checkpoint", nil},
		{"checkpoint at genesis", checkpoint(t, sc, 0)},
		{"checkpoint below the range", checkpoint(t, sc, from-3)},
		{"checkpoint just below the range", checkpoint(t, sc, from-1)},
		{"checkpoint inside the range", checkpoint(t, sc, from+2)},
		{"checkpoint above the range", checkpoint(t, sc, sc.Tip)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, st, err := scan(t, sc, sc.Node.P2PAddr, 0, Config{From: from, To: to, Checkpoint: tt.cp, Watch: sc.Watch(t, sc.Coins...)})
			if err != nil {
				t.Fatal(err)
			}
			sc.Check(t, found, from, to)
			if st.From != from || st.To != to || st.Blocks != int(to-from+1) {
				t.Errorf("stats: range %d..%d, %d blocks; want %d..%d, %d", st.From, st.To, st.Blocks, from, to, to-from+1)
			}
		})
	}
}

// checkpoint returns the node's filter header at height h as a trusted
// checkpoint.
func checkpoint(t *testing.T, sc *spvtest.Scenario, h int32) *gcs.Checkpoint {
	t.Helper()
	_, header, err := sc.Node.BasicFilter(t.Context(), sc.BlockHash(t, h))
	if err != nil {
		t.Fatal(err)
	}
	return &gcs.Checkpoint{Height: uint32(h), Header: header}
}
