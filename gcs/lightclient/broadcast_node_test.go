package lightclient

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestBroadcastNodes sends a spend of a descriptor wallet's coin through a
// following client's two btcd peers: both ask for it and accept it, the
// ledger holds it as outgoing, and once a node mines it the client reports
// it in its block and the ledger confirms it.
func TestBroadcastNodes(t *testing.T) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	funder := livenode.NewWallet("lightclient broadcast funder", regtest)
	miner := funder.NewAddress(livenode.P2WPKH).Address
	a, b := livenode.StartBtcd(t, miner), livenode.StartBtcd(t, miner)
	if _, err := a.Generate(ctx, 101); err != nil {
		t.Fatal(err)
	}
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	acct := spvtest.NewAccount(t, regtest)
	_, script := acct.Child(t, 0, 0)
	paid, err := funder.Send(ctx, a, funder.Spendable()[:1], livenode.Payment{Script: script, Value: 2e8})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, 1); err != nil {
		t.Fatal(err)
	}
	spvtest.Link(t, a, b)
	cl := start(t, Config{Network: spv.Regtest, Peers: []string{a.P2PAddr, b.P2PAddr}, Descriptors: []*descriptor.Descriptor{acct.Desc},
		Birthday: 100, Follow: true, Timeout: nodeTimeout})
	collect(t, cl, 102)

	_, change := acct.Child(t, 1, 0)
	spend := acct.Spend(t, wire.OutPoint{Hash: paid.ID}, 2e8, 0, 0,
		livenode.Payment{Script: funder.NewAddress(livenode.P2TR).Script, Value: 5e7}, livenode.Payment{Script: change, Value: 15e7 - 1000})
	relays, err := cl.Broadcast(ctx, spend)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range relays {
		t.Logf("%s: %v settled=%v %v", r.Peer, r.Outcome, r.Settled, r.Err)
		if r.Outcome != spv.Requested || !r.Settled || r.Err != nil {
			t.Errorf("relay to %s: %+v, want requested and settled", r.Peer, r)
		}
	}
	if bal := cl.Balance(1); bal.Outgoing != 2e8 || bal.Incoming != 15e7-1000 {
		t.Errorf("balance after the broadcast %+v, want 2e8 outgoing, the change incoming", bal)
	}
	waitMempool(t, a, spend.TxHash())
	if _, err := a.Generate(ctx, 1); err != nil {
		t.Fatal(err)
	}
	evs := withoutSynced(collect(t, cl, 103))
	if describe(evs) != "+103[1] =103" || evs[0].Txs[0].ID != spend.TxHash() {
		t.Errorf("events after mining %s, want the spend at 103", describe(evs))
	}
	if bal := cl.Balance(1); bal.Confirmed != 15e7-1000 || bal.Outgoing+bal.Incoming != 0 {
		t.Errorf("balance once mined %+v, want the change confirmed", bal)
	}

	// Send, without a client: a payment of the funder's to both nodes.
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	other, err := funder.Build(funder.Spendable()[:1], livenode.Payment{Script: script, Value: 1e8})
	if err != nil {
		t.Fatal(err)
	}
	relays, err = Send(ctx, Config{Network: spv.Regtest, Peers: []string{a.P2PAddr, b.P2PAddr}, Timeout: nodeTimeout}, other.Msg)
	if err != nil || len(relays) != 2 {
		t.Fatalf("Send() = %+v, %v; want two relays", relays, err)
	}
	for _, r := range relays {
		if r.Err != nil || r.Outcome == spv.Rejected {
			t.Errorf("Send to %s: %+v", r.Peer, r)
		}
	}
	waitMempool(t, b, other.ID)
}

// waitMempool waits until n's mempool holds id.
func waitMempool(t testing.TB, n *livenode.Node, id interface{ String() string }) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var ids []string
		if err := n.RPC.Call(t.Context(), &ids, "getrawmempool"); err != nil {
			t.Fatal(err)
		}
		for _, s := range ids {
			if s == id.String() {
				return
			}
		}
		if time.Now().After(end) {
			t.Fatalf("%s never reached the mempool", id)
		}
	}
}
