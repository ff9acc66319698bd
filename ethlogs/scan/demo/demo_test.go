package demo

import (
	"math/big"
	"reflect"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// TestDeterministic builds the chain twice: every block hash must repeat,
// so that indexes built on one machine hold on another.
func TestDeterministic(t *testing.T) {
	_, a, ca, err := generate(40, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, b, cb, err := generate(40, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ca != cb {
		t.Errorf("contracts %+v, then %+v", ca, cb)
	}
	for i := range a {
		if a[i].Hash() != b[i].Hash() {
			t.Fatalf("block %d: %s, then %s", a[i].NumberU64(), a[i].Hash(), b[i].Hash())
		}
	}
	logs := 0
	for _, blk := range a {
		logs += len(blk.Transactions())
	}
	if logs < 40 {
		t.Errorf("%d transactions in 40 blocks: the event mix is too thin", logs)
	}
}

// TestExtendReorg grows the served chain and reorganises it: the node's
// own eth_subscribe("logs") must send the replaced blocks' logs as
// removed, and the head must be the branch's.
func TestExtendReorg(t *testing.T) {
	c, err := StartWith(Options{Blocks: 40, WS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	client, err := ethclient.Dial(c.WS)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	logs := make(chan types.Log, 1000)
	sub, err := client.SubscribeFilterLogs(t.Context(), ethereum.FilterQuery{}, logs)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	old := headerAt(t, client, 38)
	if err := c.Extend(5); err != nil || c.Head != 45 {
		t.Fatalf("Extend(5) = %v, head %d; want head 45", err, c.Head)
	}
	if err := c.Reorg(8, 10); err != nil || c.Head != 47 {
		t.Fatalf("Reorg(8, 10) = %v, head %d; want head 47", err, c.Head)
	}
	if got := headerAt(t, client, 37); got.ParentHash != headerAt(t, client, 36).Hash() {
		t.Errorf("block 37 does not link to block 36")
	}
	if got := headerAt(t, client, 38); got.Hash() == old.Hash() {
		t.Errorf("block 38 is still %s after the reorganisation", got.Hash())
	}
	removed := 0
	deadline := time.After(5 * time.Second)
	for removed == 0 {
		select {
		case l := <-logs:
			if l.Removed {
				removed++
				if l.BlockNumber < 38 {
					t.Errorf("a log of block %d removed; the branch starts at 38", l.BlockNumber)
				}
			}
		case <-deadline:
			t.Fatal("no removed log within 5 s")
		}
	}
}

func headerAt(t *testing.T, c *ethclient.Client, n int64) *types.Header {
	t.Helper()
	h, err := c.HeaderByNumber(t.Context(), big.NewInt(n))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestLogIndex serves the same chain with go-ethereum's log index and
// without: StartWith must return with the index complete, and eth_getLogs
// must give the same logs as index_getLogs.
func TestLogIndex(t *testing.T) {
	off, err := Start(40) // the chain TestExtendReorg builds
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	on, err := StartWith(Options{Blocks: 40, LogIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	defer on.Close()
	stop, err := on.IndexLogs()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	q := map[string]any{"fromBlock": "0x0", "toBlock": hexutil.Uint64(off.Head), "address": off.Contracts.Token}
	var got [3][]types.Log
	for i, call := range []struct{ url, method string }{{off.URL, "eth_getLogs"}, {on.URL, "eth_getLogs"}, {on.URL, "index_getLogs"}} {
		client, err := rpc.Dial(call.url)
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		if err := client.Call(&got[i], call.method, q); err != nil {
			t.Fatal(err)
		}
	}
	if len(got[0]) == 0 || len(got[0]) != len(got[1]) || len(got[0]) != len(got[2]) {
		t.Fatalf("eth_getLogs: %d and %d logs, index_getLogs %d", len(got[0]), len(got[1]), len(got[2]))
	}
	if !reflect.DeepEqual(got[1], got[2]) {
		t.Fatalf("eth_getLogs and index_getLogs differ")
	}
	for i := range got[0] {
		a, b := got[0][i], got[1][i]
		if a.BlockHash != b.BlockHash || a.Index != b.Index || a.TxHash != b.TxHash {
			t.Fatalf("log %d: block %s index %d without the index, block %s index %d with it", i, a.BlockHash, a.Index, b.BlockHash, b.Index)
		}
	}
	t.Logf("%d logs of the token in %d blocks, the same three ways", len(got[0]), off.Head)
}
