package spvtest

import (
	"context"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// linkWait bounds the waits for two nodes to connect, sync or part.
const linkWait = 30 * time.Second

// Link connects b to a (see [Connect]) and waits until b's best block is
// a's and both have indexed it. Both are nodes of one kind on 127.0.0.1.
func Link(t testing.TB, a, b *livenode.Node) {
	t.Helper()
	ctx := t.Context()
	Connect(t, a, b)
	poll(t, "the linked nodes to agree on the best block", func() bool {
		x, err1 := a.BestBlockHash(ctx)
		y, err2 := b.BestBlockHash(ctx)
		return err1 == nil && err2 == nil && x == y
	})
	// The blocks b was relayed are not served as filters until indexed.
	for _, n := range []*livenode.Node{a, b} {
		if err := n.WaitIndexes(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// Connect connects b to a (addnode add) and waits until the connection
// is up. btcd does not sync from a peer that connects after it has a
// tip: when b has more work, mine a block on b for a to take its branch.
func Connect(t testing.TB, a, b *livenode.Node) {
	t.Helper()
	ctx := t.Context()
	if err := b.RPC.Call(ctx, nil, "addnode", a.P2PAddr, "add"); err != nil {
		t.Fatal(err)
	}
	poll(t, "the nodes to connect", func() bool { return connected(ctx, b, a.P2PAddr) })
}

// Unlink disconnects b from a, which Link connected, and waits until b
// has no connection to a: from then on each mines a branch of its own.
func Unlink(t testing.TB, a, b *livenode.Node) {
	t.Helper()
	ctx := t.Context()
	if err := b.RPC.Call(ctx, nil, "addnode", a.P2PAddr, "remove"); err != nil {
		t.Fatal(err)
	}
	if b.Name != "btcd" { // Bitcoin Core keeps the connection of a removed addnode
		b.RPC.Call(ctx, nil, "disconnectnode", a.P2PAddr)
	}
	poll(t, "the nodes to part", func() bool { return !connected(ctx, b, a.P2PAddr) })
}

// connected reports whether n has a connection to addr.
func connected(ctx context.Context, n *livenode.Node, addr string) bool {
	var peers []struct {
		Addr string `json:"addr"`
	}
	if err := n.RPC.Call(ctx, &peers, "getpeerinfo"); err != nil {
		return true
	}
	return slices.ContainsFunc(peers, func(p struct {
		Addr string `json:"addr"`
	}) bool {
		return p.Addr == addr
	})
}

// poll waits up to linkWait for ok, failing the test after.
func poll(t testing.TB, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(linkWait); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("spvtest: timed out waiting for %s", what)
		}
	}
}

// CopyBlocks submits from's best-chain blocks from height first on to
// each of the nodes (submitblock), which relay them as any new block: a
// branch mined apart reaches them without a sync. btcd's sync from a
// peer that reconnects with more work stalls at times (it waits on a sync
// peer with nothing to send), which would make reorganisation tests
// flaky.
func CopyBlocks(t testing.TB, from *livenode.Node, first int32, to ...*livenode.Node) {
	t.Helper()
	ctx := t.Context()
	tip, err := from.BlockCount(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for h := first; h <= tip; h++ {
		hash, err := from.BlockHash(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := from.RawBlock(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range to {
			var rejected *string
			if err := n.RPC.Call(ctx, &rejected, "submitblock", hex.EncodeToString(raw)); err != nil {
				t.Fatal(err)
			}
			// Relayed from another already (btcd: "already have block",
			// Core: "duplicate"), or kept on a side branch for now (Core:
			// "inconclusive").
			if rejected != nil && !strings.Contains(*rejected, "already have block") && *rejected != "duplicate" && *rejected != "inconclusive" {
				t.Fatalf("spvtest: block %d %s: %s", h, hash, *rejected)
			}
		}
	}
}
