package beacon_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/ethereum/go-ethereum/common"
)

// wantCheck fails the test unless err is an *beacon.Error of the check.
func wantCheck(t *testing.T, err error, check beacon.Check) *beacon.Error {
	t.Helper()
	var e *beacon.Error
	if !errors.As(err, &e) || e.Check != check {
		t.Fatalf("error = %v, want one of check %q", err, check)
	}
	return e
}

// TestAnchorPeriods syncs across six periods (three with -short), each
// with its own committee, the first half under Deneb's generalized
// indices and the rest under Electra's, from servers that answer with
// every update asked for, one at a time, or two.
func TestAnchorPeriods(t *testing.T) {
	fin := testHeader(5000)
	periods := 6
	if testing.Short() {
		periods = 3
	}
	c := newChain(t, beacontest.Options{Finalized: fin, Periods: periods, DenebPeriods: periods / 2})
	slot, root := c.Finalized()
	updates := periods - 1
	for _, tc := range []struct{ maxUpdates, requests int }{{0, 3}, {1, 2 + updates}, {2, 2 + (updates+1)/2}} {
		t.Run(fmt.Sprintf("max-updates-%d", tc.maxUpdates), func(t *testing.T) {
			s := serve(t, c, beacontest.Honest, tc.maxUpdates)
			start := time.Now()
			f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
			if err != nil {
				t.Fatal(err)
			}
			requests, bytes := s.Stats()
			t.Logf("bootstrap + %d updates + finality: %v, %d requests, %d bytes", f.Updates, time.Since(start), requests, bytes)
			if f.Slot != slot || f.Root != root || f.BlockHash != fin.Hash() || f.Updates != updates || f.Checkpoint != c.Checkpoint() {
				t.Fatalf("Anchor = %+v, want slot %d root %s block %s after %d updates", f, slot, root, fin.Hash(), updates)
			}
			if f.Requests != tc.requests || requests != tc.requests || f.Bytes != bytes {
				t.Fatalf("Anchor made %d requests of %d bytes, the server answered %d of %d; want %d", f.Requests, f.Bytes, requests, bytes, tc.requests)
			}
		})
	}
}

// TestAnchorResult checks every field of an honest run's result.
func TestAnchorResult(t *testing.T) {
	fin := testHeader(1000) // sharedChain's
	c := sharedChain(t)
	s := serve(t, c, beacontest.Honest, 0)
	f, err := beacon.Anchor(context.Background(), beacon.Config{URL: s.URL, Chain: c.Config(), Checkpoint: c.Checkpoint()})
	if err != nil {
		t.Fatal(err)
	}
	slot, root := c.Finalized()
	cfg := c.Config()
	wantTime := time.Unix(int64(cfg.GenesisTime+slot*beacon.SecondsPerSlot), 0)
	p := f.Payload
	switch {
	case f.Slot != slot || f.Root != root || !f.Time.Equal(wantTime) || f.Fork != "electra":
		t.Errorf("Anchor = slot %d root %s time %s fork %s, want %d %s %s electra", f.Slot, f.Root, f.Time, f.Fork, slot, root, wantTime)
	case f.BlockHash != fin.Hash() || p == nil || p.BlockHash != fin.Hash():
		t.Errorf("Anchor block = %s (payload %+v), want %s", f.BlockHash, p, fin.Hash())
	case p.Number != 1000 || p.ReceiptsRoot != fin.ReceiptHash || p.LogsBloom != fin.Bloom || p.Timestamp != fin.Time ||
		p.BaseFee.Cmp(fin.BaseFee) != 0 || *p.BlobGasUsed != *fin.BlobGasUsed || string(p.ExtraData) != "test":
		t.Errorf("Anchor payload = %+v, want the fields of %+v", p, fin)
	case f.Signers != 512 || f.Updates != 1 || f.SignatureSlot <= f.Slot || f.CheckpointSlot >= f.Slot:
		t.Errorf("Anchor = %+v", f)
	}
	if err := f.VerifyHeader(fin); err != nil {
		t.Error(err)
	}
	other := testHeader(1000)
	other.GasUsed++
	if err := f.VerifyHeader(other); err == nil {
		t.Error("VerifyHeader(another block) = nil, want an error")
	}
}

// TestAnchorClock checks the rules that need the clock: a checkpoint
// older than the weak-subjectivity bound, a clock before the checkpoint,
// a clock before genesis, a tighter freshness bound.
func TestAnchorClock(t *testing.T) {
	c := sharedChain(t)
	s := serve(t, c, beacontest.Honest, 0)
	run := func(cfg beacon.Config) error {
		cfg.URL, cfg.Chain, cfg.Checkpoint = s.URL, c.Config(), c.Checkpoint()
		_, err := beacon.Anchor(context.Background(), cfg)
		return err
	}
	wantCheck(t, run(beacon.Config{MaxCheckpointAge: 24 * time.Hour}), beacon.CheckCheckpointAge)
	wantCheck(t, run(beacon.Config{MaxAge: 10 * time.Minute}), beacon.CheckFreshness)
	wantCheck(t, run(beacon.Config{Now: func() time.Time { return c.Now().Add(-40 * time.Hour) }}), beacon.CheckSlots)
	if err := run(beacon.Config{Now: func() time.Time { return time.Unix(0, 0) }}); err == nil || !strings.Contains(err.Error(), "before the chain's genesis") {
		t.Errorf("Anchor with a clock at 1970 = %v, want an error about genesis", err)
	}
	if err := run(beacon.Config{Now: c.Now}); err != nil {
		t.Errorf("Anchor at the chain's own time = %v", err)
	}
	if testing.Short() {
		t.Skip("7 periods of BLS keys and signatures")
	}
	// Seven periods back is just under the 8-day bound.
	long := newChain(t, beacontest.Options{Periods: 7})
	ls := serve(t, long, beacontest.Honest, 0)
	f, err := beacon.Anchor(context.Background(), beacon.Config{URL: ls.URL, Chain: long.Config(), Checkpoint: long.Checkpoint()})
	checkpointTime := time.Unix(int64(long.Config().GenesisTime+f.CheckpointSlot*beacon.SecondsPerSlot), 0)
	if err != nil || f.Updates != 6 || time.Since(checkpointTime) < 7*24*time.Hour {
		t.Fatalf("Anchor over 7 periods = %+v, %v; want 6 updates from a checkpoint over 7 days old", f, err)
	}
}

func TestAnchorConfig(t *testing.T) {
	chain := beacon.Mainnet()
	root := common.HexToHash("0x01")
	for _, tc := range []struct {
		cfg  beacon.Config
		want string
	}{
		{beacon.Config{URL: "http://127.0.0.1:1", Checkpoint: root}, "Config.Chain is not set"},
		{beacon.Config{URL: "ftp://127.0.0.1/", Chain: chain, Checkpoint: root}, "not an http(s) URL"},
		{beacon.Config{URL: "127.0.0.1:5052", Chain: chain, Checkpoint: root}, "not an http(s) URL"},
		{beacon.Config{URL: "http://127.0.0.1:1", Chain: chain}, "no checkpoint"},
	} {
		_, err := beacon.Anchor(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Anchor(%+v) = %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
}

// proxy serves the beacon API at srv under prefix, passing each answer
// through edit.
func proxy(t *testing.T, srv *beacontest.Server, prefix string, edit func(r *http.Request, body []byte) []byte) string {
	t.Helper()
	p := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok {
			http.NotFound(w, r)
			return
		}
		resp, err := http.Get(srv.URL + path + "?" + r.URL.RawQuery)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		w.WriteHeader(resp.StatusCode)
		w.Write(edit(r, body))
	}))
	t.Cleanup(p.Close)
	return p.URL + prefix
}

// TestAnchorTransport covers what a server can do besides lying in
// content: answer under a path prefix, with more updates than asked, not
// at all, or not before the caller gives up.
func TestAnchorTransport(t *testing.T) {
	c := sharedChain(t)
	honest := serve(t, c, beacontest.Honest, 0)
	run := func(ctx context.Context, cfg beacon.Config) (beacon.Finalized, error) {
		cfg.Chain, cfg.Checkpoint = c.Config(), c.Checkpoint()
		return beacon.Anchor(ctx, cfg)
	}
	ctx := context.Background()

	prefixed := proxy(t, honest, "/api/key123", func(_ *http.Request, b []byte) []byte { return b })
	if _, err := run(ctx, beacon.Config{URL: prefixed}); err != nil {
		t.Errorf("Anchor under a path prefix: %v", err)
	}

	extra := proxy(t, honest, "", func(r *http.Request, b []byte) []byte {
		if !strings.HasSuffix(r.URL.Path, "/updates") {
			return b
		}
		two := strings.Replace(r.URL.RawQuery, "count=1", "count=2", 1)
		resp, err := http.Get(honest.URL + r.URL.Path + "?" + two)
		if err != nil {
			return b
		}
		defer resp.Body.Close()
		b, _ = io.ReadAll(resp.Body)
		return b
	})
	_, err := run(ctx, beacon.Config{URL: extra})
	wantCheck(t, err, beacon.CheckUpdates)

	missing := proxy(t, honest, "/wrong", func(_ *http.Request, b []byte) []byte { return b })
	_, err = run(ctx, beacon.Config{URL: strings.TrimSuffix(missing, "/wrong")})
	if e := wantCheck(t, err, beacon.CheckTransport); !strings.Contains(e.Error(), "404") {
		t.Errorf("Anchor against a 404 = %v, want the status named", e)
	}

	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	start := time.Now()
	_, err = run(ctx, beacon.Config{URL: hang.URL, Timeout: 100 * time.Millisecond})
	if e := wantCheck(t, err, beacon.CheckTransport); !strings.Contains(e.Error(), "deadline") || time.Since(start) > 5*time.Second {
		t.Errorf("Anchor against a silent server = %v after %v, want a timeout", e, time.Since(start))
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = run(cancelled, beacon.Config{URL: honest.URL})
	if e := wantCheck(t, err, beacon.CheckTransport); !strings.Contains(e.Error(), "canceled") {
		t.Errorf("Anchor with a cancelled context = %v", e)
	}

	if _, err := run(ctx, beacon.Config{URL: "http://127.0.0.1:1"}); err == nil {
		t.Error("Anchor against a closed port = nil error")
	}
}
