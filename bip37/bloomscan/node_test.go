package bloomscan

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// scan runs a scan of sc's wallet against addr and returns what it found.
func scan(t *testing.T, sc *spvtest.Scenario, addr string, timeout time.Duration, cfg Config) ([]spv.Tx, spv.Stats, error) {
	t.Helper()
	return scanWith(t, sc, addr, timeout, cfg, nil)
}

// scanWith is scan with a fresh filter forced after the blocks
// refreshAfter names, if it is not nil.
func scanWith(t *testing.T, sc *spvtest.Scenario, addr string, timeout time.Duration, cfg Config, refreshAfter func(int32) bool) ([]spv.Tx, spv.Stats, error) {
	t.Helper()
	s := sc.NewScan(t, addr, wire.SFNodeBloom, timeout, cfg.Watch)
	cfg.Session, cfg.Chain, cfg.Watch, cfg.Emit = s.Session, s.Chain, s.Watch, s.Emit
	r := newScanner(cfg)
	r.refreshAfter = refreshAfter
	st, err := r.scan(t.Context())
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
			if st.Blocks != int(sc.Tip)+1 || st.MerkleBlocks != st.Blocks || st.WalletTxs != len(found) ||
				st.TxsReceived != st.WalletTxs+st.FalsePositives || st.Unfiltered > st.FalsePositives {
				t.Errorf("stats %+v: want %d merkle blocks, every transaction received the wallet's or a false positive", st, sc.Tip+1)
			}
			// Core matches as our copy of the filter does. btcd also tests
			// the empty push of segwit outputs (docs/bip37.md, divergence 4)
			// and inserts their outpoints, so it may send a few more.
			if n.Name == "litecoind" && st.Unfiltered != 0 {
				t.Errorf("litecoind sent %d transactions the filter does not match", st.Unfiltered)
			}
			t.Logf("%s: %d wallet transactions, %d received (%d false positives), filter %d B at %.2f fill, %d B received, %d B sent, %d round trips, %v",
				n.Name, len(found), st.TxsReceived, st.FalsePositives, st.FilterSize, st.FilterFill,
				st.Traffic.BytesReceived, st.Traffic.BytesSent, st.Traffic.RoundTrips, st.Duration)
		})
	}
}

// TestRanges scans part of the chain with the coins received before it,
// at several false-positive rates.
func TestRanges(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	from, to := sc.Received+1, sc.Tip-1
	for _, fp := range []float64{1e-6, 0.01, 0.2} {
		found, st, err := scan(t, sc, sc.Node.P2PAddr, 0, Config{From: from, To: to, FPRate: fp, Tweak: 7, Watch: sc.Watch(t, sc.Coins...)})
		if err != nil {
			t.Fatal(err)
		}
		sc.Check(t, found, from, to)
		if st.From != from || st.To != to || st.Blocks != int(to-from+1) {
			t.Errorf("fp %v: stats: range %d..%d, %d blocks; want %d..%d, %d", fp, st.From, st.To, st.Blocks, from, to, to-from+1)
		}
		t.Logf("fp %v: filter %d B, %d transactions received, %d false positives", fp, st.FilterSize, st.TxsReceived, st.FalsePositives)
	}
}
