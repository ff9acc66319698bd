package scan_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
)

// maxRSS is the peak resident memory a scan with default flags may reach
// whatever the node sends.
const maxRSS = 256 << 20

// The hostile scans cover blocks hostileFrom to hostileTo of the demo
// chain, with the default concurrency and batch sizes.
const (
	hostileFrom = 100
	hostileTo   = 180
	childEnv    = "SCAN_HOSTILE_CHILD" // the endpoint, in the child process
	childOut    = "SCAN_HOSTILE_OUT"   // the file the child writes its logs and error to
)

func hostileQuery() ethlogs.Query {
	return ethlogs.Query{Topics: [][]common.Hash{{transferTopic, swapTopic}}}
}

// hostileCase is a way a node can try to exhaust its client's memory or
// terminal.
type hostileCase struct {
	name string
	hook func([]scantest.Request) *scantest.Fault // p's Intercept hook
	// want are fragments of the error, escaped as it must be; none: the
	// answers are true and the scan must find the node's logs.
	want     []string
	httpOnly bool // an HTTP status: no such thing over WebSocket or IPC
	short    bool // light enough for -short
}

// hostileCases returns the cases with hooks for the proxy p.
func hostileCases(p *scantest.Proxy) []hostileCase {
	const mb = 1_000_000
	budget := strconv.Itoa(scan.DefaultBudget>>20) + " MiB"
	return []hostileCase{
		{name: "answers padded to 250 MiB of whitespace", hook: scantest.PadAnswers(p, 250<<20)},
		{name: "100 MB extraData in every header", hook: scantest.HugeExtraData(100 * mb),
			want: []string{"the answer to eth_getHeaderByNumber(0x", ") is larger than its limit of 1 MiB"}},
		{name: "100 MB raw header", hook: scantest.HugeRawHeader(100 * mb),
			want: []string{"the answer to debug_getRawHeader(0x", ") is larger than its limit of 1 MiB"}},
		{name: "500 KB extraData, under the limit, in every header", hook: scantest.HugeExtraData(mb / 2),
			want: []string{"scan: headers 100 to 1", "are larger than their budget of " + budget}},
		{name: "100 MB of log data in every receipts answer", hook: scantest.HugeLogData(p, 100*mb),
			want: []string{"the answer to eth_getBlockReceipts(0x", ") is larger than its limit of " + budget}},
		{name: "100 MB raw receipts", hook: scantest.HugeRawReceipts(p, 100*mb),
			want: []string{"the answer to debug_getRawReceipts(0x", ") is larger than its limit of " + budget}},
		{name: "30 MB of log data in every receipts answer", hook: scantest.HugeLogData(p, 30*mb),
			want: []string{"the answer to eth_getBlockReceipts(0x", ") is larger than its limit of " + budget}},
		{name: "receipts just under their limit in every answer", hook: scantest.HugeLogData(p, scan.DefaultBudget/2-4<<10),
			want: []string{"scan: ethlogs: block 10", "receipts root mismatch"}},
		{name: "JSON nested 50M deep", hook: scantest.DeepNesting(50 * mb),
			want: []string{"eth_getBlockByNumber(0x0)", "nested deeper than 64"}},
		{name: "5M tiny answers to every request", hook: scantest.ManyAnswers(5 * mb),
			want: []string{"JSON-RPC answer with an unknown or repeated id to eth_getBlockByNumber(0x0, false)"}},
		{name: "20 MB error message of terminal escapes", hook: scantest.HugeErrorMessage(20 * mb), short: true,
			want: []string{`eth_getBlockByNumber(0x0): rpc error -32000: \x1b]0;pwned\a\x1b[31mRED\x1b[2J`, "…(+"}},
		{name: "HTTP 500 with a 20 MB body of terminal escapes", hook: scantest.HugeErrorBody(500, 20*mb), httpOnly: true,
			want: []string{`HTTP 500 Internal Server Error: \x1b]0;pwned\a\x1b[31mRED`, "bytes and more)"}},
	}
}

// TestHostileNode puts a proxy in front of the demo node that answers as
// a hostile node would, runs a scan with default flags through it in a
// child process over HTTP, WebSocket and IPC, and requires a peak RSS
// under 256 MiB and either the node's own logs (answers padded but
// valid) or a failure whose message is clipped, escaped and names the
// request. The figures are logged. Under -short one light case runs.
func TestHostileNode(t *testing.T) {
	c := startDemo(t)
	want := getLogs(t, c.URL, withRange(hostileQuery(), hostileFrom, hostileTo))
	for i, tc := range hostileCases(nil) {
		for _, transport := range []string{"http", "ws", "ipc"} {
			if testing.Short() && (!tc.short || transport != "http") || tc.httpOnly && transport != "http" {
				continue
			}
			t.Run(strings.ReplaceAll(tc.name, " ", "_")+"/"+transport, func(t *testing.T) {
				p := scantest.NewProxy(c.URL)
				defer p.Close()
				p.Intercept(hostileCases(p)[i].hook)
				logs, errText, rss, took := runChild(t, endpoints(p)[transport])
				t.Logf("%-62s %-4s peak RSS %4d MiB, %5.1f s: %s", tc.name, transport, rss>>20, took.Seconds(), firstOf(errText, "ok"))
				if rss >= maxRSS {
					t.Errorf("peak RSS %d MiB, over %d MiB", rss>>20, maxRSS>>20)
				}
				if tc.want == nil {
					if errText != "" || !slices.Equal(logs, want) {
						t.Errorf("%s, %d logs, want %d", errText, len(logs), len(want))
					}
					return
				}
				checkHostileError(t, tc, errText)
			})
		}
	}
}

// checkHostileError requires the error of a failed scan: one short line,
// nothing unescaped, the expected fragments.
func checkHostileError(t *testing.T, tc hostileCase, errText string) {
	t.Helper()
	switch {
	case errText == "":
		t.Errorf("the scan succeeded")
	case len(errText) > 1000 || strings.ContainsFunc(errText, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		t.Errorf("the error is not one short escaped line: %q", errText[:min(len(errText), 2000)])
	}
	for _, w := range tc.want {
		if !strings.Contains(errText, w) {
			t.Errorf("error %s\nwant it to hold %s", errText, w)
		}
	}
}

func firstOf(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

// runChild scans endpoint in a child process (this test binary, running
// TestHostileChild) and returns the logs it printed, its error, its peak
// RSS in bytes and how long it took. The peak is the child's VmHWM, read
// by the child: the Maxrss of its rusage would include this process's
// own peak, as Go starts children with vfork, sharing the parent's
// memory until exec, and Linux counts that memory's high-water mark in
// the child's Maxrss.
func runChild(t *testing.T, endpoint string) (logs []string, errText string, rss int64, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	out := t.TempDir() + "/out"
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHostileChild$")
	cmd.Env = append(os.Environ(), childEnv+"="+endpoint, childOut+"="+out)
	if debug := os.Getenv("SCAN_HOSTILE_GODEBUG"); debug != "" {
		cmd.Env = append(cmd.Env, "GODEBUG="+debug)
	}
	began := time.Now()
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, b)
	}
	if os.Getenv("SCAN_HOSTILE_GODEBUG") != "" {
		t.Logf("child:\n%s", b)
	}
	took = time.Since(began)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if kb, ok := strings.CutPrefix(sc.Text(), "peak: "); ok {
			n, err := strconv.ParseInt(kb, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			rss = n << 10
		} else if e, ok := strings.CutPrefix(sc.Text(), "error: "); ok {
			if err := json.Unmarshal([]byte(e), &errText); err != nil {
				t.Fatal(err)
			}
		} else {
			logs = append(logs, sc.Text())
		}
	}
	return logs, errText, rss, took
}

// TestHostileChild is the child process of TestHostileNode: a scan with
// default flags (fast retries) of the endpoint in $SCAN_HOSTILE_CHILD,
// writing each log as a JSON line and then its error, if any, to
// $SCAN_HOSTILE_OUT.
func TestHostileChild(t *testing.T) {
	endpoint := os.Getenv(childEnv)
	if endpoint == "" {
		t.Skip("the child process of TestHostileNode")
	}
	client := scan.NewClient(endpoint)
	client.Retry = scan.Backoff{Attempts: 3, Base: 10 * time.Millisecond, Max: 50 * time.Millisecond}
	to := uint64(hostileTo)
	logs, _, err := collect(context.Background(), scan.Config{Client: client, Query: hostileQuery(), From: hostileFrom, To: &to, IndexDir: t.TempDir()})
	var text strings.Builder
	for _, l := range logs {
		text.WriteString(l + "\n")
	}
	if err != nil {
		quoted, _ := json.Marshal(err.Error()) // the error as it is, control characters and all
		text.WriteString("error: " + string(quoted) + "\n")
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			text.WriteString("peak: " + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")) + "\n")
		}
	}
	if err := os.WriteFile(os.Getenv(childOut), []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
