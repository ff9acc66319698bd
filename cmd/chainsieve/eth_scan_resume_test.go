package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/core/flock"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
)

// ethFormats are eth scan's output formats.
var ethFormats = []struct {
	name  string
	flags []string
}{{"table", nil}, {"json", []string{"--json"}}, {"csv", []string{"--csv"}}}

// demoScan is the arguments of the demo's default scan (the DEMO token's
// Transfers) of the shared demo node by --rpc: a tenth of the time of a
// scan that builds the demo chain.
func demoScan(t *testing.T) []string {
	t.Helper()
	chain := sharedDemo(t)
	return []string{"eth", "scan", "--rpc", chain.URL, "--from", "0", "--address", chain.Contracts.Token.Hex(), "--event", demo.Transfer}
}

// referenceOutput is an uninterrupted run's output into a file.
func referenceOutput(t *testing.T, index string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "reference")
	code, _, stderr := runCLI(t, append(slices.Clone(args), "--index", index, "--out", out)...)
	if code != exitOK {
		t.Fatalf("reference run %q: exit %d\n%s", args, code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) == 0 {
		t.Fatalf("reference run %q: %d bytes, %v", args, len(b), err)
	}
	return string(b)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// trials returns full in the full run and short under -short.
func trials(short, full int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestEthScanRerunAfterClosedPipe reproduces issue 13's first case:
// "eth scan --json | head -n 2", then the same command again. The rerun
// used to resume silently from a checkpoint that counted logs written into
// the closed pipe (35 or 53 of 70 logs, exit 0, in 4 of 5 trials); it
// must print the whole answer.
func TestEthScanRerunAfterClosedPipe(t *testing.T) {
	t.Parallel()
	index := t.TempDir()
	args := append(demoScan(t), "--json", "--index", index)
	_, want, _ := runCLI(t, args...)
	n := trials(1, 10)
	for i := range n {
		c, out := startChild(t, nil, "", args...)
		r := bufio.NewReader(out)
		for range 2 {
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatalf("trial %d: %v\n%s", i, err, c.stderr.String())
			}
		}
		out.Close() // head exits
		c.wait(t)
		code, got, stderr := runCLI(t, args...)
		if code != exitOK || got != want {
			t.Fatalf("trial %d, the rerun: exit %d, %d of %d lines\n%s", i, code, len(splitLines(got)), len(splitLines(want)), stderr)
		}
	}
	t.Logf("%d trials", n)
}

// TestEthScanAppendTwice: two plain runs appending to one file (>> FILE)
// write the whole answer twice; a plain run never resumes.
func TestEthScanAppendTwice(t *testing.T) {
	t.Parallel()
	index := t.TempDir()
	want := referenceOutput(t, index, demoScan(t)...)
	path := filepath.Join(t.TempDir(), "out")
	for range 2 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		var errOut bytes.Buffer
		code := runWith(t.Context(), &env{stdout: f, stderr: &errOut, getenv: func(string) string { return "" }}, append(demoScan(t), "--index", index))
		f.Close()
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, errOut.String())
		}
	}
	if got := readFile(t, path); got != want+want {
		t.Errorf("two plain runs appended %d bytes, want twice %d", len(got), len(want))
	}
}

// killPoints are where a killed run stops: after its first checkpoint,
// as the index syncs, between writing logs and committing them, after a
// commit, after the last log before the last commit, and after the scan
// (everything committed, the summary not yet printed).
var killPoints = []string{"checkpoint:1", "headers:1", "emitted:1", "checkpoint:2", "emitted:3", "done:1", "scanned:1"}

// TestEthScanResumeKilled kills eth scan with SIGKILL at the points above
// and at random instants, then resumes it with --resume, killing resumed
// runs again at random, until one completes: the file must then be the
// uninterrupted run's, byte for byte, in every format, through --out and
// through stdout appended to a file that already held something.
func TestEthScanResumeKilled(t *testing.T) {
	t.Parallel()
	index := t.TempDir()
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	type trial struct {
		format int
		point  string // "" for a random instant
		append bool   // stdout >> FILE instead of --out
	}
	var ts []trial
	if testing.Short() {
		ts = []trial{{0, "emitted:1", false}, {1, "done:1", false}, {2, "", true}}
	} else {
		for f := range ethFormats {
			for _, p := range killPoints {
				ts = append(ts, trial{f, p, false})
			}
			for range 8 {
				ts = append(ts, trial{f, "", false})
			}
			ts = append(ts, trial{f, "", true}, trial{f, "emitted:2", true})
		}
	}
	refs := map[int]string{}
	for f := range ethFormats {
		if slices.ContainsFunc(ts, func(tr trial) bool { return tr.format == f }) {
			refs[f] = referenceOutput(t, index, append(demoScan(t), ethFormats[f].flags...)...)
		}
	}
	// Random instants fall within a run's time, measured on one.
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	start := time.Now()
	if c, _ := startChild(t, devNull, "", append(demoScan(t), "--index", index)...); c.wait(t) != exitOK {
		t.Fatalf("a run: %s", c.stderr.String())
	}
	runTime := time.Since(start) * 3 / 2
	kills, runs := 0, 0
	for i, tr := range ts {
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		idx := index
		if strings.HasPrefix(tr.point, "headers") {
			idx = t.TempDir() // headers are fetched only into an index that lacks them
		}
		args := append(append(demoScan(t), "--index", idx), ethFormats[tr.format].flags...)
		prefix := ""
		if tr.append {
			prefix = "earlier output\n"
			os.WriteFile(path, []byte(prefix), 0o644)
		} else {
			args = append(args, "--out", path)
		}
		run := func(resume bool, pause string, delay time.Duration) (killed bool, c *child) {
			a := args
			if resume {
				a = append(slices.Clone(args), "--resume")
			}
			var stdout *os.File
			var err error
			if tr.append {
				stdout, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			} else {
				stdout, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer stdout.Close()
			c, _ = startChild(t, stdout, pause, a...)
			runs++
			if pause == "" && delay == 0 {
				return false, c
			}
			killed = c.kill(t, delay, pause != "")
			if killed {
				kills++
			}
			return killed, c
		}
		what := fmt.Sprintf("trial %d (%s, %q, append %t)", i, ethFormats[tr.format].name, tr.point, tr.append)
		delay := time.Duration(r.Int64N(int64(runTime))) + time.Millisecond
		if killed, c := run(false, tr.point, delay); tr.point != "" && !killed {
			t.Fatalf("%s: the run never reached %s:\n%s", what, tr.point, c.stderr.String())
		}
		for again := r.IntN(3); again > 0; again-- { // resumed runs killed again
			run(true, "", time.Duration(r.Int64N(int64(runTime)))+time.Millisecond)
		}
		_, c := run(true, "", 0)
		if code := c.wait(t); code != exitOK {
			t.Fatalf("%s: the last resumed run: exit %d\n%s", what, code, c.stderr.String())
		}
		if got := readFile(t, path); got != prefix+refs[tr.format] {
			t.Fatalf("%s: the file differs from the uninterrupted output (%d bytes, want %d); the last run said:\n%s", what, len(got), len(prefix+refs[tr.format]), c.stderr.String())
		}
	}
	t.Logf("%d trials, %d runs, %d killed", len(ts), runs, kills)
}

// TestEthScanResumeInterrupted stops runs in process, as Ctrl-C does,
// after each of their first batches of logs, and by taking the node away
// for good; --resume must complete the file to the uninterrupted output.
func TestEthScanResumeInterrupted(t *testing.T) {
	t.Parallel()
	index := t.TempDir()
	stops := trials(1, 3)
	cases := 0
	for _, f := range ethFormats {
		args := append(append(demoScan(t), "--index", index), f.flags...)
		want := referenceOutput(t, index, args...)
		for stop := 1; stop <= stops; stop++ {
			path := filepath.Join(t.TempDir(), "out")
			ctx, cancel := context.WithCancel(t.Context())
			batches := 0
			hook := func(p string) {
				if p == "emitted" {
					if batches++; batches == stop {
						cancel()
					}
				}
			}
			var errOut bytes.Buffer
			e := &env{stdout: io.Discard, stderr: &errOut, getenv: func(string) string { return "" }, testHook: hook}
			code := runWith(ctx, e, append(slices.Clone(args), "--out", path, "--concurrency", "1"))
			cancel()
			if code != exitFailure || !strings.Contains(errOut.String(), "interrupted") || !strings.Contains(errOut.String(), "--resume appends the rest") {
				t.Fatalf("%s, stopped after batch %d: exit %d\n%s", f.name, stop, code, errOut.String())
			}
			code, _, stderr := runCLI(t, append(slices.Clone(args), "--out", path, "--resume")...)
			if got := readFile(t, path); code != exitOK || got != want || !strings.Contains(stderr, "resuming into") {
				t.Fatalf("%s, stopped after batch %d, resumed: exit %d, %d bytes (want %d)\n%s", f.name, stop, code, len(got), len(want), stderr)
			}
			cases++
		}
	}
	t.Run("node gone", func(t *testing.T) { testResumeNodeGone(t, index) })
	t.Logf("%d interrupted and resumed", cases)
}

// testResumeNodeGone takes the node away for good after a few receipts
// requests: the run fails and says how to resume; with the node back,
// --resume completes the file.
func testResumeNodeGone(t *testing.T, index string) {
	chain := sharedDemo(t)
	p := scantest.NewProxy(chain.URL)
	defer p.Close()
	var mu sync.Mutex
	down, receipts := false, 0
	p.Intercept(func(calls []scantest.Request) *scantest.Fault {
		mu.Lock()
		defer mu.Unlock()
		if slices.ContainsFunc(calls, func(r scantest.Request) bool {
			return r.Method == "eth_getBlockReceipts" || r.Method == "debug_getRawReceipts"
		}) {
			if receipts++; receipts == 3 {
				down = true
			}
		}
		if down {
			return &scantest.Fault{Status: http.StatusBadGateway, Body: "connection refused"}
		}
		return nil
	})
	args := []string{"eth", "scan", "--index", index, "--from", "0", "--json", "--concurrency", "1", "--retries", "1",
		"--address", chain.Contracts.Token.Hex()}
	want := referenceOutput(t, index, append(slices.Clone(args), "--rpc", chain.URL)...)
	path := filepath.Join(t.TempDir(), "out")
	code, _, stderr := runCLI(t, append(slices.Clone(args), "--rpc", p.URL, "--out", path)...)
	if code != exitFailure || !strings.Contains(stderr, "HTTP 502") || !strings.Contains(stderr, "--resume") || strings.Contains(stderr, "false-positive rate") {
		t.Fatalf("node gone: exit %d\n%s", code, stderr)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	code, _, stderr = runCLI(t, append(slices.Clone(args), "--rpc", p.URL, "--out", path, "--resume")...)
	if got := readFile(t, path); code != exitOK || got != want {
		t.Fatalf("resumed with the node back: exit %d, %d bytes (want %d)\n%s", code, len(got), len(want), stderr)
	}
}

// TestEthScanResumeRefusals: --resume continues only the same command's
// output, into the same unchanged file, and leaves a complete one alone.
func TestEthScanResumeRefusals(t *testing.T) {
	index := t.TempDir()
	args := append(demoScan(t), "--json", "--index", index)
	stopped := func(t *testing.T) string {
		path := filepath.Join(t.TempDir(), "out")
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" },
			testHook: func(p string) {
				if p == "emitted" {
					cancel()
				}
			}}
		if code := runWith(ctx, e, append(slices.Clone(args), "--out", path, "--concurrency", "1")); code != exitFailure {
			t.Fatalf("stopped run: exit %d", code)
		}
		return path
	}
	tests := []struct {
		name     string
		edit     func(t *testing.T, path string) []string // the resumed run's extra flags
		wantCode int
		wantErr  string
	}{
		{"another command", func(t *testing.T, path string) []string { return []string{"--from", "5"} }, exitFailure, "another command"},
		{"changed", func(t *testing.T, path string) []string {
			b := []byte(readFile(t, path))
			b[10] ^= 1
			os.WriteFile(path, b, 0o644)
			return nil
		}, exitFailure, "not those the stopped run wrote"},
		{"truncated", func(t *testing.T, path string) []string { os.Truncate(path, 0); return nil }, exitFailure, "truncated"},
	}
	for _, tt := range tests {
		path := stopped(t)
		extra := tt.edit(t, path)
		edited := readFile(t, path)
		code, _, stderr := runCLI(t, append(append(slices.Clone(args), extra...), "--out", path, "--resume")...)
		if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) || readFile(t, path) != edited {
			t.Errorf("%s: exit %d, file changed %t\n%s; want %d and %q", tt.name, code, readFile(t, path) != edited, stderr, tt.wantCode, tt.wantErr)
		}
	}
	// Complete: nothing to append, the file is left alone.
	path := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := runCLI(t, append(slices.Clone(args), "--out", path)...); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	whole := readFile(t, path) + "appended by someone else\n"
	os.WriteFile(path, []byte(whole), 0o644)
	code, _, stderr := runCLI(t, append(slices.Clone(args), "--out", path, "--resume")...)
	if code != exitOK || !strings.Contains(stderr, "already holds the whole answer") || readFile(t, path) != whole {
		t.Errorf("resuming a complete run: exit %d\n%s", code, stderr)
	}
	// Nothing to read back: a usage error, before any work.
	code, _, stderr = runCLI(t, append(slices.Clone(args), "--resume")...)
	if code != exitUsage || !strings.Contains(stderr, "--resume appends to the file a stopped run wrote") || strings.Contains(stderr, "anchor:") {
		t.Errorf("--resume to a pipe: exit %d\n%s", code, stderr)
	}
	// A file another run writes is refused, and left alone.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, err := flock.TryLock(f, flock.Exclusive); !ok || err != nil {
		t.Fatalf("flock.TryLock: %t, %v", ok, err)
	}
	code, _, stderr = runCLI(t, append(slices.Clone(args), "--out", path)...)
	if code != exitFailure || !strings.Contains(stderr, "is being written by another eth scan") || readFile(t, path) != whole {
		t.Errorf("a file another run writes: exit %d\n%s", code, stderr)
	}
}

// TestEthScanResumeFailedWrite stops a run with a failed write: the file
// may grow to 4 KiB only (ulimit -f), as on a full disk. The run must not
// exit 0, and --resume, without the limit, completes the file.
func TestEthScanResumeFailedWrite(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	index := t.TempDir()
	for _, f := range ethFormats[1:trials(2, 3)] {
		args := append(append(demoScan(t), "--index", index), f.flags...)
		want := referenceOutput(t, index, args...)
		path := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command(sh, append([]string{"-c", `ulimit -f 8 && exec "$@"`, "sh", os.Args[0]}, append(slices.Clone(args), "--out", path)...)...)
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState.ExitCode() == exitOK {
			t.Fatalf("%s: exit 0 with the file limited to 4 KiB:\n%s", f.name, out)
		}
		if size := len(readFile(t, path)); size > 4096 || size >= len(want) {
			t.Fatalf("%s: %d bytes written under a 4 KiB limit", f.name, size)
		}
		code, _, stderr := runCLI(t, append(slices.Clone(args), "--out", path, "--resume")...)
		if got := readFile(t, path); code != exitOK || got != want {
			t.Fatalf("%s: resumed: exit %d, %d bytes (want %d)\n%s\nthe first run said:\n%s", f.name, code, len(got), len(want), stderr, out)
		}
		t.Logf("%s: the first run: exit %d, %s", f.name, cmd.ProcessState.ExitCode(), lastLine(string(out)))
	}
}
