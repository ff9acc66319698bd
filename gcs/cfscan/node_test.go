package cfscan

import (
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/spvtest"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// scan runs a scan of sc's wallet against addr and returns what it found.
func scan(t *testing.T, sc *spvtest.Scenario, addr string, cfg Config) ([]spv.Tx, spv.Stats, error) {
	t.Helper()
	var found []spv.Tx
	cfg.Session = spvtest.Dial(t, addr, sc.Network, wire.SFNodeCF, 0)
	chain, err := spv.NewChain(sc.Network)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Chain = chain
	if cfg.Watch == nil {
		cfg.Watch = sc.Watch(t)
	}
	cfg.Emit = func(tx spv.Tx) error { found = append(found, tx); return nil }
	st, err := Run(t.Context(), cfg)
	return found, st, err
}

func TestNodes(t *testing.T) {
	nodes := []struct {
		name  string
		start spvtest.Start
	}{
		{"btcd", livenode.StartBtcd},
		{"litecoind", livenode.StartLitecoind},
	}
	for _, n := range nodes {
		t.Run(n.name, func(t *testing.T) {
			sc := spvtest.NewScenario(t, n.start, spvtest.Options{Filler: 6, FillerOutputs: 3})
			found, st, err := scan(t, sc, sc.Node.P2PAddr, Config{To: -1})
			if err != nil {
				t.Fatal(err)
			}
			sc.Check(t, found, 0, sc.Tip)
			t.Logf("%s: %+v", n.name, st)
		})
	}
}
