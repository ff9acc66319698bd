package spv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// scaleHeaders is the length of the chain the scale test and benchmarks
// sync: a million regtest headers, as many as mainnet will have around
// 2035, mined in a few seconds at the regtest limit.
const scaleHeaders = 1_000_000

var (
	scaleOnce  sync.Once
	scaleChain []wire.BlockHeader
)

func millionHeaders() []wire.BlockHeader {
	scaleOnce.Do(func() { scaleChain = regtestHeaders(scaleHeaders) })
	return scaleChain
}

// scaleRun is what a measuring child process reports.
type scaleRun struct {
	Height    int32
	Seconds   float64 // the operation alone, process start excluded
	HeadersB  uint64  // bytes of headers messages received
	Received  uint64  // bytes received in all
	PeakRSSMB float64 // VmHWM
}

const scaleEnv = "CHAINSIEVE_SCALE_CHILD" // op,dir,peer[,anchor height]

// TestStoreScale syncs a million regtest headers from an in-process peer
// (a node cannot mine a million blocks in a test) into an empty store and
// into a store started from an anchor 10,000 blocks below the tip, and
// reopens the full store; each in a child process that reports its time
// and peak RSS. It asserts the memory bound (64 MiB) and logs the times
// (docs/performance.md keeps them).
func TestStoreScale(t *testing.T) {
	if spec := os.Getenv(scaleEnv); spec != "" {
		scaleChild(t, spec)
		return
	}
	if testing.Short() {
		t.Skip("a million headers: not under -short")
	}
	began := time.Now()
	hs := millionHeaders()
	t.Logf("mined %d regtest headers in %v", len(hs)-1, time.Since(began).Round(time.Millisecond))
	peer := startHeaderPeer(t, spv.Regtest, hs)
	dir := filepath.Join(t.TempDir(), "full")
	a := int32(scaleHeaders - 10000)
	runs := []struct{ name, spec string }{
		{"sync from genesis into an empty store", "sync," + dir + "," + peer.addr},
		{"open the 1M-header store", "open," + dir + "," + peer.addr},
		{"sync at the tip", "sync," + dir + "," + peer.addr},
		{"sync from genesis into memory (no store: the one-shot default)", "memory,," + peer.addr},
		{"sync from an anchor 10,000 below the tip", fmt.Sprintf("anchor,%s,%s,%d,%s,%s", filepath.Join(t.TempDir(), "anchored"), peer.addr, a,
			hs[a].BlockHash(), hs[a-2016].BlockHash())},
	}
	for _, r := range runs {
		got := runScaleChild(t, r.spec)
		t.Logf("%s: height %d, %.3f s, %d B of headers (%d B received), peak RSS %.1f MiB", r.name, got.Height, got.Seconds, got.HeadersB, got.Received, got.PeakRSSMB)
		if got.Height != scaleHeaders {
			t.Errorf("%s: height %d, want %d", r.name, got.Height, scaleHeaders)
		}
		if got.PeakRSSMB >= 64 && !strings.HasPrefix(r.spec, "memory") {
			t.Errorf("%s: peak RSS %.1f MiB, want under 64", r.name, got.PeakRSSMB)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "headers"))
	if err != nil || fi.Size() != (scaleHeaders+1)*84 {
		t.Errorf("headers file %v, %v; want %d bytes", fi, err, (scaleHeaders+1)*84)
	}
}

func runScaleChild(t *testing.T, spec string) scaleRun {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreScale$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), scaleEnv+"="+spec)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", spec, err, out)
	}
	i := bytes.Index(out, []byte("SCALE "))
	if i < 0 {
		t.Fatalf("%s: no report in\n%s", spec, out)
	}
	line, _, _ := bytes.Cut(out[i+6:], []byte("\n"))
	var r scaleRun
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// scaleChild runs one measured operation and prints its report.
func scaleChild(t *testing.T, spec string) {
	f := strings.Split(spec, ",")
	op, dir, addr := f[0], f[1], f[2]
	cfg := spv.ChainConfig{Network: spv.Regtest}
	if op == "anchor" {
		h, _ := strconv.Atoi(f[3])
		hash, locator := mustHash(t, f[4]), mustHash(t, f[5])
		cfg.Anchor = &spv.Anchor{Height: int32(h), Hash: hash, LocatorHeight: int32(h) - 2016, Locator: locator}
		cfg.Birthday = int32(h)
	}
	began := time.Now()
	if op != "memory" {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Store = st
	}
	c, err := spv.OpenChain(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := scaleRun{}
	if op != "open" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		s, err := spv.Dial(ctx, addr, spv.Config{Network: spv.Regtest})
		if err != nil {
			t.Fatal(err)
		}
		if err := spv.SyncHeaders(ctx, s, c); err != nil {
			t.Fatal(err)
		}
		tr := s.Traffic()
		r.HeadersB, r.Received = tr.Received["headers"].Bytes, tr.BytesReceived
		s.Close()
	}
	r.Seconds = time.Since(began).Seconds()
	r.Height = c.Height()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	r.PeakRSSMB = peakRSS(t)
	b, _ := json.Marshal(r)
	fmt.Printf("SCALE %s\n", b)
}

// peakRSS returns the process's peak resident set (VmHWM) in MiB.
func peakRSS(t *testing.T) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: RSS is measured on Linux")
	}
	for _, line := range strings.Split(string(status), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			return float64(n) / 1024
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

func mustHash(t *testing.T, s string) [32]byte {
	var h [32]byte
	for i := range h {
		v, err := strconv.ParseUint(s[2*(31-i):2*(31-i)+2], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		h[i] = byte(v)
	}
	return h
}

// BenchmarkSyncHeaders syncs 100,000 regtest headers from the in-process
// peer, verifying each: into a store on disk (chainsieve, committing once
// a second) and into memory (memory, the one-shot default), per header.
func BenchmarkSyncHeaders(b *testing.B) {
	const n = 100_000
	hs := millionHeaders()[:n+1]
	peer := startHeaderPeer(b, spv.Regtest, hs)
	for _, name := range []string{"chainsieve", "memory"} {
		b.Run(name, func(b *testing.B) {
			var recv uint64
			for b.Loop() {
				cfg := spv.ChainConfig{Network: spv.Regtest}
				if name == "chainsieve" {
					st, err := store.Open(b.TempDir())
					if err != nil {
						b.Fatal(err)
					}
					cfg.Store = st
				}
				c, err := spv.OpenChain(cfg)
				if err != nil {
					b.Fatal(err)
				}
				recv = syncFrom(b, c, peer.addr)
				if c.Height() != n {
					b.Fatalf("synced to %d", c.Height())
				}
				c.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/header")
			b.ReportMetric(float64(recv), "B-headers/op")
		})
	}
}

// BenchmarkOpenChain opens a chain of a million headers kept in a store:
// the state, the last 4,096 records re-checked, the window of 4,032
// headers loaded.
func BenchmarkOpenChain(b *testing.B) {
	hs := millionHeaders()
	dir := b.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	id := store.Identity{Net: spv.Regtest.Params.Net, Genesis: *spv.Regtest.Params.GenesisHash}
	if err := st.Init(id, 0, 0, hs[:1]); err != nil {
		b.Fatal(err)
	}
	if err := st.Append(hs[1:]); err != nil {
		b.Fatal(err)
	}
	if err := errors.Join(st.Commit(), st.Close()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		st, err := store.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		c, err := spv.OpenChain(spv.ChainConfig{Network: spv.Regtest, Store: st})
		if err != nil || c.Height() != scaleHeaders {
			b.Fatal(c.Height(), err)
		}
		c.Close()
	}
}
