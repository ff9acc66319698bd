package scan_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/gorilla/websocket"
)

// endpoints returns the proxy's endpoint over each transport.
func endpoints(p *scantest.Proxy) map[string]string {
	return map[string]string{"http": p.URL, "ws": p.WSURL, "ipc": p.IPCPath}
}

// TestTransports scans the demo chain over HTTP, WebSocket and IPC, in
// batches, and requires eth_getLogs' answer from each.
func TestTransports(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Topics: [][]common.Hash{{transferTopic, swapTopic}}}
	want := getLogs(t, c.URL, withRange(q, 0, c.Head))
	p := scantest.NewProxy(c.URL)
	defer p.Close()
	for name, url := range endpoints(p) {
		client := scan.NewClient(url)
		got, st, err := collect(t.Context(), scan.Config{Client: client, Query: q, IndexDir: t.TempDir(), HeaderBatch: 64, ReceiptsBatch: 8})
		client.Close()
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %d logs, want %d", name, err, len(got), len(want))
		}
		bytes, requests, calls, _ := client.Counters()
		if requests >= calls || bytes == 0 {
			t.Errorf("%s: %d requests for %d calls, %d bytes: want batches", name, requests, calls, bytes)
		}
		t.Logf("%s: %d logs, %d requests, %d calls, %d bytes, %d splits", name, len(got), st.Requests, st.Calls, bytes, st.Splits)
	}
}

// TestUnreachable asks endpoints where nothing listens: each fails at
// once, saying so, where retries would take seconds.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // a port where nothing listens now
	missing := filepath.Join(t.TempDir(), "geth.ipc")
	for _, tt := range []struct{ url, want string }{
		{"http://" + addr, "nothing listens at " + addr + " (connection refused)"},
		{"ws://" + addr, "nothing listens at " + addr + " (connection refused)"},
		{missing, "nothing listens at " + missing + " (no such file or directory)"},
	} {
		began := time.Now()
		err := scan.NewClient(tt.url).Batch(t.Context(), []scan.Call{{Method: "eth_blockNumber"}})
		var ue *scan.UnreachableError
		if !errors.As(err, &ue) || err.Error() != tt.want || time.Since(began) > 2*time.Second {
			t.Errorf("%s: %v after %v, want %q at once", tt.url, err, time.Since(began), tt.want)
		}
	}
}

// TestRetryHook makes a node fail twice with 503 and then go away after
// it answered: every retry is reported once, with what failed and the
// attempt, and a node that answered before is retried, not given up at
// once.
func TestRetryHook(t *testing.T) {
	c := startDemo(t)
	for _, name := range []string{"http", "ws", "ipc"} {
		p := scantest.NewProxy(c.URL)
		var n atomic.Int64
		p.Intercept(func([]scantest.Request) *scantest.Fault {
			if n.Add(1) <= 2 {
				return &scantest.Fault{Status: http.StatusServiceUnavailable, Body: "overloaded\x1b[2J"}
			}
			return nil
		})
		client := scan.NewClient(endpoints(p)[name])
		client.Retry = scan.Backoff{Attempts: 3, Base: time.Millisecond, Max: 5 * time.Millisecond}
		var mu sync.Mutex
		var retries []scan.Retry
		client.OnRetry = func(r scan.Retry) {
			mu.Lock()
			retries = append(retries, r)
			mu.Unlock()
		}
		var head string
		if err := client.Call(t.Context(), &head, "eth_blockNumber"); err != nil || len(retries) != 2 {
			t.Fatalf("%s: %v after %d retries, want an answer after 2", name, err, len(retries))
		}
		r := retries[1]
		if r.Attempt != 2 || r.Attempts != 3 || r.Request != "eth_blockNumber()" || r.Wait <= 0 || !strings.Contains(r.String(), "eth_blockNumber() failed (attempt 2 of 3): ") {
			t.Errorf("%s: retry %+v: %s", name, r, r)
		}
		if name == "http" && !strings.Contains(r.String(), `HTTP 503 Service Unavailable: overloaded\x1b[2J`) {
			t.Errorf("%s: retry says %s, want the status and the body escaped", name, r)
		}
		p.Close() // the node goes away after it answered
		retries = nil
		err := client.Batch(t.Context(), []scan.Call{{Method: "eth_blockNumber"}})
		var ue *scan.UnreachableError
		if err == nil || errors.As(err, &ue) || len(retries) != 2 {
			t.Errorf("%s: after the node went away: %v, %d retries; want retries, then the error", name, err, len(retries))
		}
		client.Close()
	}
}

// TestSubscribeHTTP refuses a subscription over HTTP before dialling.
func TestSubscribeHTTP(t *testing.T) {
	_, err := scan.NewClient("http://127.0.0.1:1").SubscribeNewHeads(context.Background())
	if !errors.Is(err, scan.ErrNoSubscriptions) {
		t.Errorf("SubscribeNewHeads over HTTP = %v, want ErrNoSubscriptions", err)
	}
}

// TestSubscribeBounded subscribes to new heads at a WebSocket server that
// sends one head, then one of 2 MiB: the first arrives, the second ends
// the subscription with an error saying why.
func TestSubscribeBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		var req struct{ ID json.RawMessage }
		if ws.ReadJSON(&req) != nil {
			return
		}
		note := func(result string) string {
			return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0xab","result":` + result + `}}`
		}
		for _, msg := range []string{
			`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"0xab"}`,
			note(`{ "number" : "0x1" }`),
			note(`{"extraData":"0x` + strings.Repeat("00", 1<<20) + `"}`),
		} {
			if ws.WriteMessage(websocket.TextMessage, []byte(msg)) != nil {
				return
			}
		}
		ws.ReadMessage() // until the client closes
	}))
	defer srv.Close()
	sub, err := scan.NewClient("ws" + srv.URL[len("http"):]).SubscribeNewHeads(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var got []string
	for head := range sub.C {
		got = append(got, string(head))
	}
	if !slices.Equal(got, []string{`{"number":"0x1"}`}) || sub.ID != "0xab" ||
		sub.Err() == nil || !strings.Contains(sub.Err().Error(), "a notification larger than its limit of 1 MiB") {
		t.Errorf("subscription %s: heads %q, then %v; want one head, then an error for the 2 MiB one", sub.ID, got, sub.Err())
	}
}
