package spv_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// TestBroadcastBtcd relays transactions to two linked btcd regtest nodes
// over P2P: a valid segwit spend is requested and reaches both mempools,
// a double spend and an overspend are rejected with the reason btcd's RPC
// gives for the same transaction, an announcement the node has seen
// already draws no request, and a legacy spend travels without witness
// encoding to a session that claims no NODE_WITNESS.
func TestBroadcastBtcd(t *testing.T) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	w := livenode.NewWallet("spv broadcast", regtest)
	miner := w.NewAddress(livenode.P2WPKH)
	a := livenode.StartBtcd(t, miner.Address)
	b := livenode.StartBtcd(t, miner.Address)
	if _, err := a.Generate(ctx, 104); err != nil {
		t.Fatal(err)
	}
	link(t, b, a)
	if err := w.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	coins := w.Spendable()
	if len(coins) < 4 {
		t.Fatalf("%d mature coins, want 4", len(coins))
	}
	other := livenode.NewWallet("spv broadcast payee", regtest).NewAddress(livenode.P2TR)
	sa, sb := dialNode(t, a, wire.SFNodeWitness), dialNode(t, b, wire.SFNodeWitness)

	good, err := w.Build(coins[:1], other.Pay(1_0000_0000))
	if err != nil {
		t.Fatal(err)
	}
	rs := spv.Broadcast(ctx, good.Msg, 10*time.Second, sa, sb)
	requested := 0
	for _, r := range rs {
		t.Logf("valid spend %v: %s %v settled=%v err=%v", good.ID, r.Peer, r.Outcome, r.Settled, r.Err)
		switch {
		case r.Err != nil || r.Outcome == spv.Rejected:
			t.Errorf("valid spend: %s answered %+v", r.Peer, r)
		case r.Outcome == spv.Requested && r.Settled:
			requested++
		}
	}
	if requested == 0 {
		t.Errorf("no node requested the valid spend: %+v", rs)
	}
	for _, n := range []*livenode.Node{a, b} {
		waitMempool(t, n, good.ID)
	}

	// The same coin again: btcd rejects the conflict with its mempool.
	double, err := w.Build(coins[:1], other.Pay(2_0000_0000))
	if err != nil {
		t.Fatal(err)
	}
	checkRejected(t, sa, a, double.Msg, wire.RejectDuplicate)

	// Outputs above the inputs (signatures broken too, checked later).
	over, err := w.Build(coins[1:2], other.Pay(1_0000_0000))
	if err != nil {
		t.Fatal(err)
	}
	over.Msg.TxOut[0].Value = 1_000_000_0000_0000
	checkRejected(t, sa, a, over.Msg, wire.RejectInvalid)

	// Announced again: a has it, so it asks for nothing.
	if r := sa.Broadcast(ctx, good.Msg, 2*time.Second); r.Outcome != spv.Silent || r.Err != nil {
		t.Errorf("re-announcing a mempool transaction: %+v, want silent", r)
	}

	// A legacy spend to a session that claims no NODE_WITNESS: btcd asks
	// for MSG_TX and takes the transaction without witness encoding.
	legacy := w.NewAddress(livenode.P2PKH)
	if _, err := w.Send(ctx, a, coins[2:3], legacy.Pay(5_0000_0000)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Generate(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	old := w.Spendable(livenode.P2PKH)
	spend, err := w.Build(old[:1], other.Pay(1_0000_0000))
	if err != nil || spend.Msg.HasWitness() {
		t.Fatalf("legacy spend: %v (witness %v)", err, spend != nil && spend.Msg.HasWitness())
	}
	plain := dialNode(t, a, 0)
	if r := plain.Broadcast(ctx, spend.Msg, 10*time.Second); r.Outcome != spv.Requested || !r.Settled || r.Err != nil {
		t.Errorf("legacy spend: %+v, want requested and settled", r)
	}
	waitMempool(t, a, spend.ID)
	if r := plain.Broadcast(ctx, good.Msg, time.Second); r.Err == nil || !strings.Contains(r.Err.Error(), "NODE_WITNESS") {
		t.Errorf("segwit spend on a session without NODE_WITNESS: %+v, want a refusal", r)
	}
}

// checkRejected broadcasts tx to s and expects btcd's reject, with the
// reason btcd's sendrawtransaction gives for it.
func checkRejected(t *testing.T, s *spv.Session, n *livenode.Node, tx *wire.MsgTx, code wire.RejectCode) {
	t.Helper()
	r := s.Broadcast(t.Context(), tx, 10*time.Second)
	t.Logf("%v: %v %v %q", tx.TxHash(), r.Outcome, r.Code, r.Reason)
	_, rpcErr := n.SendRawTransaction(t.Context(), tx)
	if r.Outcome != spv.Rejected || r.Code != code || r.Reason == "" || r.Err != nil {
		t.Errorf("Broadcast(%v) = %+v, want rejected with %v", tx.TxHash(), r, code)
	}
	if rpcErr == nil || !strings.Contains(rpcErr.Error(), r.Reason) {
		t.Errorf("sendrawtransaction: %v; want the P2P reason %q", rpcErr, r.Reason)
	}
	if inPool(t, n, tx.TxHash()) {
		t.Errorf("rejected %v is in the mempool", tx.TxHash())
	}
}

func dialNode(t *testing.T, n *livenode.Node, advertise wire.ServiceFlag) *spv.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	s, err := spv.Dial(ctx, n.P2PAddr, spv.Config{Network: spv.Regtest, Advertise: advertise, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// link connects b to a and waits until b has a's chain.
func link(t *testing.T, b, a *livenode.Node) {
	t.Helper()
	ctx := t.Context()
	if err := b.RPC.Call(ctx, nil, "addnode", a.P2PAddr, "add"); err != nil {
		t.Fatal(err)
	}
	want, err := a.BestBlockHash(ctx)
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "b to sync a's chain", func() bool {
		got, err := b.BestBlockHash(ctx)
		return err == nil && got == want
	})
}

func inPool(t *testing.T, n *livenode.Node, id chainhash.Hash) bool {
	var ids []string
	if err := n.RPC.Call(t.Context(), &ids, "getrawmempool"); err != nil {
		t.Fatal(err)
	}
	return slices.Contains(ids, id.String())
}

func waitMempool(t *testing.T, n *livenode.Node, id chainhash.Hash) {
	t.Helper()
	poll(t, n.P2PAddr+" mempool to hold "+id.String(), func() bool { return inPool(t, n, id) })
}

// poll waits up to 30 s for ok.
func poll(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
