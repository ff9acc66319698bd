package spvtest

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Node is a node the scans are tested against.
type Node struct {
	Name  string
	Start Start
}

// Nodes returns the nodes every scan is tested against: btcd, and
// litecoind, a Bitcoin Core code base.
func Nodes() []Node {
	return []Node{{"btcd", livenode.StartBtcd}, {"litecoind", livenode.StartLitecoind}}
}

// Scan is what the Config of a scan package (cfscan, bloomscan) takes
// besides its options, for a test scan of a scenario: a session, a header
// chain holding genesis alone for the scan to sync, and the watch. Its
// [Scan.Emit] collects what the scan reports in Found.
type Scan struct {
	Session *spv.Session
	Chain   *spv.Chain
	Watch   *spv.Watch
	Found   []spv.Tx
}

// NewScan dials the node at addr (see [Dial]) for a scan of sc's wallet
// with watch, or with [Scenario.Watch] if watch is nil.
func (sc *Scenario) NewScan(t testing.TB, addr string, services wire.ServiceFlag, timeout time.Duration, watch *spv.Watch) *Scan {
	t.Helper()
	s := &Scan{Session: Dial(t, addr, sc.Network, services, timeout), Watch: watch}
	chain, err := spv.NewChain(sc.Network)
	if err != nil {
		t.Fatal(err)
	}
	s.Chain = chain
	if s.Watch == nil {
		s.Watch = sc.Watch(t)
	}
	return s
}

// Emit appends tx to Found.
func (s *Scan) Emit(tx spv.Tx) error {
	s.Found = append(s.Found, tx)
	return nil
}

// BlockHash returns the hash of the scenario's block at height.
func (sc *Scenario) BlockHash(t testing.TB, height int32) chainhash.Hash {
	t.Helper()
	hash, err := sc.Node.BlockHash(t.Context(), height)
	if err != nil {
		t.Fatal(err)
	}
	return hash
}
