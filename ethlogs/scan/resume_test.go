package scan_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common"
)

// persisted is a checkpoint as a caller keeps it: through JSON.
func persisted(t *testing.T, c scan.Checkpoint) *scan.Checkpoint {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back scan.Checkpoint
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Fatalf("checkpoint through JSON: %+v, %v; want %+v", back, err, c)
	}
	return &back
}

// TestScanResumes stops a scan after each of its batches in turn (as
// Ctrl-C does), resumes it from its last checkpoint, stops the resumed
// scan again, and resumes once more: the logs the checkpoints vouch for
// plus the resumed scans' must be one uninterrupted scan's, whatever the
// resumed config says about the range and the anchor.
func TestScanResumes(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Topics: [][]common.Hash{{transferTopic, approvalTopic}}}
	want := getLogs(t, c.URL, withRange(q, 10, c.Head))
	dir := t.TempDir()
	base := scan.Config{Client: scan.NewClient(c.URL), Query: q, From: 10, IndexDir: dir, ReceiptsBatch: 4, Concurrency: 2}
	// run scans with cfg, cancelling after stopAt batches (0: never), and
	// returns the logs the last checkpoint vouches for and that checkpoint.
	run := func(cfg scan.Config, stopAt int) ([]string, scan.Checkpoint, scan.Stats, error) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var out []string
		var last scan.Checkpoint
		batches := 0
		cfg.Emit = emitTo(&out, func() {
			if batches++; batches == stopAt {
				cancel()
			}
		})
		cfg.Checkpoint = func(c scan.Checkpoint) error { last = c; return nil }
		st, err := scan.Run(ctx, cfg)
		return out[:last.Logs-st.ResumedLogs], last, st, err
	}
	var batches int
	counted := base
	counted.Emit = emitTo(new([]string), func() { batches++ })
	if _, err := scan.Run(t.Context(), counted); err != nil || batches < 3 {
		t.Fatalf("uninterrupted scan: %v, %d batches; want at least 3", err, batches)
	}
	// The first batches, the last (stopped after the last log) and, in the
	// full run, some between.
	stops := []int{1, 2, batches}
	if !testing.Short() {
		for k := 3; k < batches; k += max(1, batches/8) {
			stops = append(stops, k)
		}
	}
	for _, stop := range stops {
		first, ck, _, err := run(base, stop)
		if !errors.Is(err, context.Canceled) || ck.Next > ck.To {
			t.Fatalf("stopped after batch %d: %v, checkpoint %+v", stop, err, ck)
		}
		resumed := base
		resumed.Resume, resumed.From, resumed.Anchor = persisted(t, ck), 0, scan.Anchor{Block: &scan.Block{Tag: scan.Latest}}
		second, ck2, st, err := run(resumed, 2)
		if !st.Resumed || st.ResumedLogs != ck.Logs || st.From != ck.Next {
			t.Fatalf("resumed after batch %d: resumed %t after %d logs from block %d; want after %d from %d", stop, st.Resumed, st.ResumedLogs, st.From, ck.Logs, ck.Next)
		}
		got := append(first, second...)
		if err != nil {
			resumed.Resume = persisted(t, ck2)
			var third []string
			third, _, _, err = run(resumed, 0)
			got = append(got, third...)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("stopped after batch %d, then resumed twice: %v, %d logs; want %d", stop, err, len(got), len(want))
		}
	}
	t.Logf("%d stop points of %d batches, each resumed, stopped again and resumed", len(stops), batches)
}

// TestScanResumeRefusals: a checkpoint is only good for its own question,
// and its chain.
func TestScanResumeRefusals(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	var last scan.Checkpoint
	cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir(),
		Checkpoint: func(c scan.Checkpoint) error { last = c; return nil }}
	want, _, err := collect(t.Context(), cfg)
	if err != nil || !last.Done() || last.Logs != uint64(len(want)) {
		t.Fatalf("scan: %v, last checkpoint %+v; want done after %d logs", err, last, len(want))
	}
	done := last
	var got []string
	cfg.Resume, cfg.Emit, cfg.Client = &done, emitTo(&got, nil), scan.NewClient(c.URL)
	if st, err := scan.Run(t.Context(), cfg); err != nil || len(got) != 0 || st.Requests != 0 {
		t.Errorf("resuming a complete scan: %v, %d logs, %d requests; want nothing", err, len(got), st.Requests)
	}
	stopped := done
	stopped.Next, stopped.Logs = stopped.To-20, 1
	tests := []struct {
		name    string
		edit    func(*scan.Config, *scan.Checkpoint)
		wantErr string
	}{
		{"another query", func(cfg *scan.Config, _ *scan.Checkpoint) { cfg.Query.Addresses = nil }, "another query"},
		{"another mode", func(cfg *scan.Config, _ *scan.Checkpoint) { cfg.Mode = scan.BloomUntrusted }, "another query"},
		{"another chain", func(_ *scan.Config, ck *scan.Checkpoint) { ck.Genesis[0] ^= 1 }, "genesis"},
		{"an anchor the node lacks", func(_ *scan.Config, ck *scan.Checkpoint) { ck.AnchorHash[0] ^= 1 }, "does not know block"},
		{"a reorganised tail", func(_ *scan.Config, ck *scan.Checkpoint) { ck.ToHash[0] ^= 1 }, "reorganised"},
		{"no range", func(_ *scan.Config, ck *scan.Checkpoint) { ck.Next = ck.To + 2 }, "not a checkpoint of a range"},
	}
	for _, tt := range tests {
		cfg, ck := cfg, stopped
		tt.edit(&cfg, &ck)
		cfg.Resume = &ck
		if _, err := scan.Run(t.Context(), cfg); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: %v; want an error about %q", tt.name, err, tt.wantErr)
		}
	}
}

// TestScanConcurrent runs two to four scans of different queries at once
// on one index directory, each starting after a random delay, from a
// fresh directory and then from one the earlier rounds filled: every scan
// must give exactly eth_getLogs' answer.
func TestScanConcurrent(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	queries := demoQueries(c)
	rounds := 6
	if testing.Short() {
		rounds = 1 // a fresh directory; the full test alternates fresh and filled ones
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	dir := t.TempDir()
	for round := range rounds {
		if round%2 == 0 {
			dir = t.TempDir()
		}
		n := 2 + r.IntN(3)
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			tq := queries[r.IntN(len(queries))]
			delay := time.Duration(r.IntN(150)) * time.Millisecond
			wg.Go(func() {
				time.Sleep(delay)
				to := tq.to
				got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: tq.q, From: tq.from, To: &to, IndexDir: dir, ReceiptsBatch: 4})
				if want := getLogs(t, c.URL, withRange(tq.q, tq.from, tq.to)); err == nil && !slices.Equal(got, want) {
					err = fmt.Errorf("%d logs, eth_getLogs %d", len(got), len(want))
				}
				if err != nil {
					errs[i] = fmt.Errorf("%s (blocks %d to %d) after %v: %w", tq.name, tq.from, tq.to, delay, err)
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d, %d scans:\n%v", round, n, err)
		}
	}
	t.Logf("%d rounds of 2 to 4 scans", rounds)
}

// TestScanWaitsForIndex holds the index's writer lock as another process
// would: a scan that needs to extend the index says who holds it and
// waits for it; one whose blocks are all indexed reads beside the holder.
func TestScanWaitsForIndex(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	dir := t.TempDir()
	to := uint64(200) // below the anchor, 268: the index ends at the anchor
	_, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, To: &to, IndexDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	held, err := index.Open(st.Index)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	var waits []*index.LockedError
	var mu sync.Mutex
	cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, To: &to, IndexDir: dir,
		Waiting: func(e *index.LockedError) { mu.Lock(); waits = append(waits, e); mu.Unlock() }}
	got, st, err := collect(t.Context(), cfg)
	if want := getLogs(t, c.URL, withRange(q, 0, to)); err != nil || !slices.Equal(got, want) || len(waits) != 0 || st.HeadersFetched != 0 {
		t.Fatalf("indexed range beside a writer: %v, %d logs (want %d), %d waits, %d headers fetched; want no wait", err, len(got), len(want), len(waits), st.HeadersFetched)
	}
	cfg.To = nil // to the tip: the index must grow
	done := make(chan error, 1)
	var tail []string
	go func() {
		var err error
		tail, _, err = collect(t.Context(), cfg)
		done <- err
	}()
	deadline := time.After(30 * time.Second)
	for {
		mu.Lock()
		n := len(waits)
		mu.Unlock()
		if n > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the scan did not wait for the index: %v", err)
		case <-deadline:
			t.Fatal("no Waiting call within 30 s")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if w := waits[0]; w.PID != os.Getpid() || !strings.Contains(w.Error(), "locked by pid") {
		t.Errorf("Waiting(%v); want this process named", w)
	}
	held.Close()
	if err := <-done; err != nil || !slices.Equal(tail, getLogs(t, c.URL, withRange(q, 0, c.Head))) {
		t.Errorf("after the holder closed: %v, %d logs", err, len(tail))
	}
}
