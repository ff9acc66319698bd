package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// nodeLogs asks a node's own eth_getLogs; one compact JSON object a line.
func nodeLogs(t *testing.T, url string, q ethlogs.Query) []string {
	t.Helper()
	var raw []json.RawMessage
	if err := scan.NewClient(url).Call(context.Background(), &raw, "eth_getLogs", q); err != nil {
		t.Fatalf("eth_getLogs: %v", err)
	}
	lines := make([]string, len(raw))
	for i, r := range raw {
		var b bytes.Buffer
		json.Compact(&b, r)
		lines[i] = b.String()
	}
	return lines
}

// stripArgs removes the decoded arguments, leaving the eth_getLogs object.
func stripArgs(t *testing.T, line string) (string, map[string]string) {
	t.Helper()
	i := strings.Index(line, `,"args":`)
	if i < 0 {
		return line, nil
	}
	var args map[string]string
	if err := json.Unmarshal([]byte(line[i+len(`,"args":`):len(line)-1]), &args); err != nil {
		t.Fatalf("args of %s: %v", line, err)
	}
	return line[:i] + "}", args
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestEthScanDemo runs the README's main command with --json and checks
// it against the demo chain's own eth_getLogs, decoded arguments included:
// the offline demo builds the same chain as the shared node serves.
func TestEthScanDemo(t *testing.T) {
	t.Parallel()
	chain := sharedDemo(t)
	transfer := crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	from, to := ethlogs.BlockNumber(0), ethlogs.BlockNumber(chain.Head)
	want := nodeLogs(t, chain.URL, ethlogs.Query{FromBlock: &from, ToBlock: &to,
		Addresses: []common.Address{chain.Contracts.Token}, Topics: [][]common.Hash{{transfer}}})

	code, stdout, stderr := runCLI(t, "eth", "scan", "--json", "--index", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := splitLines(stdout)
	if len(lines) != len(want) || len(want) < 20 {
		t.Fatalf("%d lines, the node's eth_getLogs %d (want at least 20)", len(lines), len(want))
	}
	for i, line := range lines {
		log, args := stripArgs(t, line)
		if log != want[i] {
			t.Fatalf("line %d:\n%s\neth_getLogs:\n%s", i, log, want[i])
		}
		var l struct{ Topics []common.Hash }
		json.Unmarshal([]byte(log), &l)
		if args["from"] != common.BytesToAddress(l.Topics[1][:]).Hex() || args["to"] != common.BytesToAddress(l.Topics[2][:]).Hex() || args["value"] == "" {
			t.Errorf("line %d: args %v do not decode topics %v", i, args, l.Topics)
		}
	}
	for _, s := range []string{"embedded demo chain", "anchor: block 268", "the node's finalized block", "blocks 269 to 300 are after the anchor", "headers: 301 in blocks 0 to 300", "bloom false-positive rate", "fetching every receipt"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
}

// TestEthScanDemoTable pins the table the README's first command prints:
// the demo chain is the same on every machine.
func TestEthScanDemoTable(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI(t, "eth", "scan", "--index", t.TempDir())
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	golden(t, "eth-scan-demo.golden", stdout)
}

// TestEthScanRPC scans the demo chain as any node, through --rpc and
// through ETH_RPC_URL, with a query of --topics and --event together.
func TestEthScanRPC(t *testing.T) {
	t.Parallel()
	chain := sharedDemo(t)
	swap := crypto.Keccak256Hash([]byte("Swap(address,uint256,uint256,uint256,uint256,address)"))
	user := common.BytesToHash(demo.Users[1][:])
	from, to := ethlogs.BlockNumber(40), ethlogs.BlockNumber(260)
	want := nodeLogs(t, chain.URL, ethlogs.Query{FromBlock: &from, ToBlock: &to, Topics: [][]common.Hash{{swap}, nil, {user}}})
	args := []string{"eth", "scan", "--json", "--index", t.TempDir(), "--from", "40", "--to", "260",
		"--event", demo.Swap, "--topics", `[null, null, "` + user.Hex() + `"]`}
	for _, env := range []map[string]string{{}, {"ETH_RPC_URL": chain.URL}} {
		a := args
		if env["ETH_RPC_URL"] == "" {
			a = append(slices.Clone(args), "--rpc", chain.URL)
		}
		var out, errOut bytes.Buffer
		code := runEnv(t.Context(), a, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] })
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, errOut.String())
		}
		lines := splitLines(out.String())
		if len(lines) != len(want) || len(want) == 0 {
			t.Fatalf("%d lines, eth_getLogs %d", len(lines), len(want))
		}
		for i, line := range lines {
			if log, args := stripArgs(t, line); log != want[i] || args["to"] != common.BytesToAddress(user[:]).Hex() || len(args) != 6 {
				t.Errorf("line %d: %s, args %v; eth_getLogs %s", i, log, args, want[i])
			}
		}
		if strings.Contains(errOut.String(), "demo") {
			t.Errorf("scanning a node by URL mentions the demo chain:\n%s", errOut.String())
		}
	}
}

func TestEthScanUsage(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--rpc", "http://127.0.0.1:1"}, "--from is required"},
		{[]string{"--rpc", "ftp://x", "--from", "1"}, `--rpc "ftp://x": the scheme is not http, https, ws or wss`},
		{[]string{"--address", "0x12"}, "not a 0x-prefixed 20-byte address"},
		{[]string{"--topics", `[1]`}, "--topics"},
		{[]string{"--topics", `[null,null,null,null,null]`}, "5 topic positions"},
		{[]string{"--event", "Transfer(address indexed from, uint7 x)"}, "--event"},
		{[]string{"--event", "Transfer(address,address,uint256)", "--topics", `["0x0000000000000000000000000000000000000000000000000000000000000001"]`}, "conflicts with --event"},
		{[]string{"--verify", "some"}, "unknown verify mode"},
		{[]string{"--to", "soon"}, "--to"},
		{[]string{"--from", "x"}, "invalid value"},
		{[]string{"--anchor", "12:0x34"}, "--anchor"},
		{[]string{"--concurrency", "0"}, "at least 1"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--topics", `[null,`}, `--topics '[null,': unexpected end of JSON input (byte 6 of 6)`},
		{[]string{"--from", "200", "--to", "100"}, "--from 200 is after --to 100"},
		{[]string{"--json", "--csv"}, "exclude each other"},
		{[]string{"--resume"}, "--resume appends to the file a stopped run wrote"},
		{[]string{"--confirmations", "3"}, "need --follow"},
		{[]string{"--poll", "1s"}, "need --follow"},
		{[]string{"--follow", "--confirmations", "-1"}, "--confirmations -1"},
		{[]string{"--follow", "--poll", "-1s"}, "--poll -1s"},
		{[]string{"--follow", "--to", "100"}, "--follow with --to 100"},
		{[]string{"--rpc", "http://127.0.0.1:1", "--from", "1", "--follow", "--to", "0x20"}, "--follow with --to 32"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, append([]string{"eth", "scan"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tt.wantErr) {
			t.Errorf("eth scan %q = %d, %s; want %d and %q", tt.args, code, stderr, exitUsage, tt.wantErr)
		}
	}
}

// TestEthScanFailure scans a node that is not there: exit 1, a message
// naming the request, nothing on stdout.
func TestEthScanFailure(t *testing.T) {
	code, stdout, stderr := runCLI(t, "eth", "scan", "--rpc", "http://127.0.0.1:1", "--from", "0", "--retries", "1", "--index", t.TempDir())
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "eth_getBlockByNumber") {
		t.Errorf("exit %d, stdout %q, stderr %s; want 1, nothing, an error naming eth_getBlockByNumber", code, stdout, stderr)
	}
}

// TestEthScanInterruptRerun stops the demo scan after its first batch of
// logs, as Ctrl-C does, and runs the same command again: a plain run
// never resumes, so the rerun prints the whole answer. (The table used to
// be resumed silently, its header row printed twice.)
func TestEthScanInterruptRerun(t *testing.T) {
	index := t.TempDir()
	args := append(demoScan(t), "--index", index, "--concurrency", "1")
	_, full, _ := runCLI(t, args...)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var first, errOut bytes.Buffer
	e := &env{stdout: &first, stderr: &errOut, getenv: func(string) string { return "" },
		testHook: func(p string) {
			if p == "emitted" {
				cancel()
			}
		}}
	code := runWith(ctx, e, args)
	if code != exitFailure || !strings.Contains(errOut.String(), "interrupted") || first.Len() == 0 || first.Len() >= len(full) ||
		!strings.Contains(errOut.String(), "run the command again for the whole answer") {
		t.Fatalf("interrupted scan: exit %d, %d of %d bytes\n%s", code, first.Len(), len(full), errOut.String())
	}
	if code, rerun, stderr := runCLI(t, args...); code != exitOK || rerun != full || strings.Contains(stderr, "resum") {
		t.Errorf("rerun: exit %d, %d of %d bytes\n%s", code, len(rerun), len(full), stderr)
	}
}

// TestEthScanProgress: the rate counts from the start of the phase.
func TestEthScanProgress(t *testing.T) {
	p := &ethProgress{line: progress.New(io.Discard)}
	p.update(scan.Progress{Phase: "headers", Done: 100, Total: 100, Elapsed: 3 * time.Second})
	pr := scan.Progress{Phase: "receipts", Done: 50, Total: 100, Elapsed: 5 * time.Second}
	p.update(pr)
	pr.Elapsed = 7 * time.Second
	if got, want := p.text(pr), "receipts [###############...............] 50/100 blocks, 25 blocks/s, ETA 2s"; got != want {
		t.Errorf("progress text 2 s into the receipts = %q, want %q", got, want)
	}
}
