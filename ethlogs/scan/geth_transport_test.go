package scan_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestGethTransports scans geth --dev over HTTP, WebSocket and its IPC
// socket and requires its own eth_getLogs answer from each; then, over
// WebSocket and IPC, subscribes to new heads and requires each head sent
// while a transaction is mined to hash to the hash geth gives the block.
// It needs geth (installed on first use) and skips under -short.
func TestGethTransports(t *testing.T) {
	g := livenode.StartGethStreams(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	emitter, _, err := g.DeployEmitter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := g.Transact(ctx, &emitter, []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	head, err := g.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q := ethlogs.Query{Addresses: []common.Address{common.Address(emitter)}}
	want := getLogs(t, g.RPC.URL(), withRange(q, 0, head))
	endpoints := map[string]string{"http": g.RPC.URL(), "ws": g.WS, "ipc": g.IPC}
	for name, url := range endpoints {
		client := scan.NewClient(url)
		got, st, err := collect(ctx, scan.Config{Client: client, Query: q, To: &head, IndexDir: t.TempDir()})
		client.Close()
		if err != nil || len(want) != 4 || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %d logs; eth_getLogs %d (want the deployment's and 3 pings)", name, err, len(got), len(want))
		}
		t.Logf("%s: %d logs in %d requests of %d calls", name, len(got), st.Requests, st.Calls)
	}
	for _, name := range []string{"ws", "ipc"} {
		checkNewHeads(ctx, t, g, name, endpoints[name], emitter)
	}
}

// checkNewHeads subscribes to new heads at url, has geth mine a block, and
// checks the head that arrives.
func checkNewHeads(ctx context.Context, t *testing.T, g *livenode.Geth, name, url string, emitter livenode.EthAddress) {
	t.Helper()
	client := scan.NewClient(url)
	defer client.Close()
	sub, err := client.SubscribeNewHeads(ctx)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := g.Transact(ctx, &emitter, []byte("head"))
	if err != nil {
		t.Fatal(err)
	}
	timeout := time.After(time.Minute)
	for {
		select {
		case raw, ok := <-sub.C:
			if !ok {
				t.Fatalf("%s: the subscription ended: %v", name, sub.Err())
			}
			var h types.Header
			var claimed struct{ Hash common.Hash }
			if err := json.Unmarshal(raw, &h); err != nil || json.Unmarshal(raw, &claimed) != nil {
				t.Fatalf("%s: head %s: %v", name, raw, err)
			}
			if h.Hash() != claimed.Hash {
				t.Errorf("%s: head %d hashes to %s, geth says %s", name, h.Number, h.Hash(), claimed.Hash)
			}
			if h.Number.Uint64() < r.BlockNumber {
				continue
			}
			var b struct{ Hash common.Hash }
			if err := scan.NewClient(g.RPC.URL()).Call(ctx, &b, "eth_getBlockByNumber", hexutil.Uint64(h.Number.Uint64()), false); err != nil || b.Hash != h.Hash() {
				t.Errorf("%s: head %d is %s, eth_getBlockByNumber says %s (%v)", name, h.Number, h.Hash(), b.Hash, err)
			}
			if err := sub.Close(); err != nil || sub.Err() != nil {
				t.Errorf("%s: Close = %v, Err = %v", name, err, sub.Err())
			}
			if _, ok := <-sub.C; ok {
				t.Errorf("%s: C still open after Close", name)
			}
			return
		case <-timeout:
			t.Fatalf("%s: no head for block %d within a minute", name, r.BlockNumber)
		}
	}
}
