package beacon_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/ethclient"
)

// TestAnchorDemoChain anchors the embedded demo chain: a beacon chain
// whose finalized block carries the demo's block 268 (its head is 300),
// as the CLI's offline demo would run it. The anchor is a real block of
// the demo node, fetched by hash and checked against every payload field.
func TestAnchorDemoChain(t *testing.T) {
	node, err := demo.Start(demo.DefaultBlocks)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	el, err := ethclient.Dial(node.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer el.Close()
	ctx := context.Background()
	finalized, err := el.HeaderByNumber(ctx, big.NewInt(int64(node.Head-32)))
	if err != nil {
		t.Fatal(err)
	}
	head, err := el.HeaderByNumber(ctx, new(big.Int).SetUint64(node.Head))
	if err != nil {
		t.Fatal(err)
	}
	c := newChain(t, beacontest.Options{Finalized: finalized, Head: head})
	s := serve(t, c, beacontest.Honest, 0)
	f, err := beacon.Anchor(ctx, beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	if f.BlockHash != finalized.Hash() || f.Payload.Number != node.Head-32 {
		t.Fatalf("Anchor = block %d %s, want %d %s", f.Payload.Number, f.BlockHash, node.Head-32, finalized.Hash())
	}
	byHash, err := el.HeaderByHash(ctx, f.BlockHash)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.VerifyHeader(byHash); err != nil {
		t.Fatal(err)
	}
	if err := f.VerifyHeader(head); err == nil {
		t.Fatal("VerifyHeader(head) = nil, want an error: the head is not the anchor")
	}
}
