package scan_test

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
)

// fastRetry keeps fault tests short: waits of 10 to 50 ms.
var fastRetry = scan.Backoff{Attempts: 8, Base: 10 * time.Millisecond, Max: 50 * time.Millisecond}

func refuseBatch(code int, msg string) *scantest.Fault {
	return &scantest.Fault{Body: `{"jsonrpc":"2.0","id":null,"error":{"code":` + itoa(code) + `,"message":"` + msg + `"}}`}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestFaults runs the same scan through a proxy that misbehaves like busy
// nodes and providers do, and requires the same logs as eth_getLogs.
func TestFaults(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Topics: [][]common.Hash{{transferTopic, swapTopic}}}
	want := getLogs(t, c.URL, withRange(q, 0, c.Head))
	for _, tt := range []struct {
		name      string
		intercept func(n int64, calls []scantest.Request) *scantest.Fault
		timeout   time.Duration
		check     func(st scan.Stats) bool
	}{
		{"HTTP 429 with Retry-After", func(n int64, _ []scantest.Request) *scantest.Fault {
			if n%3 == 0 {
				return &scantest.Fault{Status: http.StatusTooManyRequests, Body: "slow down", Header: http.Header{"Retry-After": {"0"}}}
			}
			return nil
		}, 0, func(st scan.Stats) bool { return st.Retries > 0 }},
		{"HTTP 503", func(n int64, _ []scantest.Request) *scantest.Fault {
			if n%4 == 1 {
				return &scantest.Fault{Status: http.StatusServiceUnavailable, Body: "overloaded"}
			}
			return nil
		}, 0, func(st scan.Stats) bool { return st.Retries > 0 }},
		{"slow answers", func(n int64, _ []scantest.Request) *scantest.Fault {
			if n == 2 || n == 12 {
				time.Sleep(300 * time.Millisecond) // past the client's timeout
			}
			return nil
		}, 100 * time.Millisecond, func(st scan.Stats) bool { return st.Retries > 0 }},
		{"batch limit, -32005 for the whole batch", func(_ int64, calls []scantest.Request) *scantest.Fault {
			if len(calls) > 10 {
				return refuseBatch(-32005, "batch size limit exceeded")
			}
			return nil
		}, 0, func(st scan.Stats) bool { return st.Splits > 0 }},
		{"batch limit, HTTP 413", func(_ int64, calls []scantest.Request) *scantest.Fault {
			if len(calls) > 25 {
				return &scantest.Fault{Status: http.StatusRequestEntityTooLarge, Body: "request too large"}
			}
			return nil
		}, 0, func(st scan.Stats) bool { return st.Splits > 0 }},
		{"batch limit, -32005 in each answer", func(_ int64, calls []scantest.Request) *scantest.Fault {
			if len(calls) <= 7 {
				return nil
			}
			var b strings.Builder
			b.WriteString("[")
			for i, call := range calls {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(`{"jsonrpc":"2.0","id":` + string(call.ID) + `,"error":{"code":-32005,"message":"limit exceeded"}}`)
			}
			return &scantest.Fault{Body: b.String() + "]"}
		}, 0, func(st scan.Stats) bool { return st.Splits > 0 }},
		{"rate limit on single calls", func(n int64, calls []scantest.Request) *scantest.Fault {
			if (n == 1 || n%5 == 0) && len(calls) == 1 {
				return refuseBatch(-32005, "daily request count exceeded, request rate limited")
			}
			if len(calls) > 3 {
				return refuseBatch(-32600, "batch too large")
			}
			return nil
		}, 0, func(st scan.Stats) bool { return st.Splits > 0 && st.Retries > 0 }},
	} {
		if testing.Short() && !shortFaults[tt.name] {
			continue
		}
		t.Run(strings.ReplaceAll(tt.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			var requests atomic.Int64
			p.Intercept(func(calls []scantest.Request) *scantest.Fault { return tt.intercept(requests.Add(1), calls) })
			client := scan.NewClient(p.URL)
			client.Retry, client.Timeout = fastRetry, tt.timeout
			got, st, err := collect(t.Context(), scan.Config{Client: client, Query: q, IndexDir: t.TempDir(), HeaderBatch: 40, ReceiptsBatch: 6})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || !tt.check(st) {
				t.Errorf("%d logs (want %d), %d retries, %d splits", len(got), len(want), st.Retries, st.Splits)
			}
		})
	}
}

// shortFaults are TestFaults' faults under -short, one of each kind: a
// refusal retried, an answer past the timeout, and batches refused until
// split; the other four run in the full test.
var shortFaults = map[string]bool{"HTTP 429 with Retry-After": true, "slow answers": true, "rate limit on single calls": true}

// TestNodeDown takes the node away in the middle of the receipts: for a
// moment (the retries ride it out), then for longer than the retries last
// (the scan fails, and once the node is back a rerun resumes), and checks
// that the output adds up to eth_getLogs' exactly.
func TestNodeDown(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Topics: [][]common.Hash{nil, {user(0), user(1)}}}
	want := getLogs(t, c.URL, withRange(q, 0, c.Head))
	for _, downFor := range []time.Duration{100 * time.Millisecond, time.Hour} {
		p := scantest.NewProxy(c.URL)
		defer p.Close()
		var mu sync.Mutex
		var downUntil time.Time
		var receipts int
		p.Intercept(func(calls []scantest.Request) *scantest.Fault {
			mu.Lock()
			defer mu.Unlock()
			if slices.ContainsFunc(calls, func(r scantest.Request) bool {
				return r.Method == "eth_getBlockReceipts" || r.Method == "debug_getRawReceipts"
			}) {
				if receipts++; receipts == 4 {
					downUntil = time.Now().Add(downFor)
				}
			}
			if time.Now().Before(downUntil) {
				return &scantest.Fault{Status: http.StatusBadGateway, Body: "connection refused"}
			}
			return nil
		})
		client := scan.NewClient(p.URL)
		client.Retry = fastRetry
		var last scan.Checkpoint
		cfg := scan.Config{Client: client, Query: q, IndexDir: t.TempDir(), ReceiptsBatch: 3, Concurrency: 2,
			Checkpoint: func(c scan.Checkpoint) error { last = c; return nil }}
		got, st, err := collect(t.Context(), cfg)
		if downFor < time.Hour {
			if err != nil || !slices.Equal(got, want) || st.Retries == 0 {
				t.Errorf("down %v: %v, %d logs (want %d), %d retries", downFor, err, len(got), len(want), st.Retries)
			}
			continue
		}
		var he *scan.HTTPError
		if !errors.As(err, &he) || he.Status != http.StatusBadGateway || len(got) == 0 || !slices.Equal(got, want[:len(got)]) {
			t.Fatalf("down for good: %v after %d logs; want HTTP 502 after some true logs", err, len(got))
		}
		mu.Lock()
		downUntil = time.Time{} // back up
		mu.Unlock()
		got = got[:last.Logs] // what the checkpoint vouches for
		cfg.Emit, cfg.Resume = emitTo(&got, nil), &last
		st, err = scan.Run(t.Context(), cfg)
		if err != nil || !st.Resumed || !slices.Equal(got, want) {
			t.Errorf("after the node came back: %v, resumed %t, %d logs in all, want %d", err, st.Resumed, len(got), len(want))
		}
	}
}

// TestPerTransactionReceipts serves a node without eth_getBlockReceipts
// and eth_getHeaderByNumber, nor the debug namespace's raw headers and
// receipts: the scan falls back to one eth_getTransactionReceipt per
// transaction and to eth_getBlockByNumber, and finds the same logs.
func TestPerTransactionReceipts(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Registry, c.Contracts.Anon}}
	want := getLogs(t, c.URL, withRange(q, 0, c.Head))
	p := scantest.NewProxy(c.URL)
	defer p.Close()
	for _, m := range []string{"eth_getBlockReceipts", "eth_getHeaderByNumber", "debug_getRawReceipts", "debug_getRawHeader"} {
		p.Disable(m)
	}
	got, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: t.TempDir()})
	if err != nil || !st.PerTransaction || !slices.Equal(got, want) {
		t.Errorf("without eth_getBlockReceipts: %v, per transaction %t, %d logs, want %d", err, st.PerTransaction, len(got), len(want))
	}
}
