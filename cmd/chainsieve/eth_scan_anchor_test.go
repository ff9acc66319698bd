package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestEthScanAnchorUsage: every inconsistent range, anchor, confirmation
// or beacon flag is a usage error (exit 2, nothing on stdout) before any
// network work: --rpc points at a port where nothing listens, so a
// request would fail otherwise.
func TestEthScanAnchorUsage(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(cfg, []byte("PRESET_BASE: mainnet\nGENESIS_FORK_VERSION: 0x00000000\n"), 0o644)
	rpc := []string{"--rpc", "http://127.0.0.1:1", "--from", "0"}
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--from", "pending"}, "not a number, earliest, latest"},
		{[]string{"--from", "earliest-2"}, "nothing comes before earliest"},
		{[]string{"--to", "latest-x"}, "not a number of blocks"},
		{[]string{"--to", "0x" + strings.Repeat("ab", 32)}, "--to takes a number or a tag, not a hash"},
		{[]string{"--from", "1:0x" + strings.Repeat("ab", 32)}, "--from takes a number or a tag"},
		{[]string{"--anchor", "12:0x34"}, "32-byte hash"},
		{append(rpc[:2:2], "--from", "0x20", "--to", "31"), "--from 32 is after --to 31"},
		{[]string{"--anchor", "x:0x" + strings.Repeat("ab", 32)}, "not a block number"},
		{append(rpc, "--confirm-rpc", "ftp://x"), `--confirm-rpc "ftp://x": the scheme is not http, https, ws or wss`},
		{append(rpc, "--confirm-min", "1"), "--confirm-min 1: there are 0 --confirm-rpc endpoints"},
		{append(rpc, "--confirm-rpc", "http://127.0.0.1:2", "--confirm-min", "2"), "--confirm-min 2: there are 1"},
		{append(rpc, "--confirm-min", "-1"), "--confirm-min -1"},
		{append(rpc, "--checkpoint", "0x01"), "need --beacon-api"},
		{append(rpc, "--beacon-chain", "mainnet"), "need --beacon-api"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--anchor", "latest"), "exclude each other"},
		{append(rpc, "--beacon-api", "127.0.0.1:3"), "--beacon-api"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--checkpoint", "0x01"), "--checkpoint"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--checkpoint", "0x"+strings.Repeat("zz", 32)), "is not a 0x-prefixed 32-byte hash"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--beacon-chain", "goerli"), `--beacon-chain "goerli"`},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--beacon-chain", "mainnet", "--beacon-config", cfg), "exclude each other"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--beacon-config", cfg), "GENESIS_TIME"},
		{append(rpc, "--beacon-api", "http://127.0.0.1:3", "--beacon-config", cfg+".missing"), "no such file"},
		{append(rpc, "--beacon-api", "demo"), "demo chain only: drop --rpc"},
		{[]string{"--beacon-api", "demo:lying"}, "no such lie"},
		{[]string{"--beacon-api", "demo", "--checkpoint", "0x" + strings.Repeat("ab", 32)}, "brings its own checkpoint"},
		{[]string{"--prove-tx=maybe"}, "invalid boolean"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := runEnv(t.Context(), append([]string{"eth", "scan"}, tt.args...), strings.NewReader(""), &out, &errOut,
			func(k string) string { return map[string]string{"ETH_CONFIRM_RPC": ""}[k] })
		if code != exitUsage || out.Len() > 0 || !strings.Contains(errOut.String(), tt.wantErr) {
			t.Errorf("eth scan %q = %d, %q, %s; want %d and %q", tt.args, code, out.String(), errOut.String(), exitUsage, tt.wantErr)
		}
	}
}

// anchorDemo is one demo node for the package's tests that scan it by
// --rpc or read it as the oracle: read-only, built once.
var anchorDemo = sync.OnceValues(func() (*demo.Chain, error) { return demo.Start(demo.DefaultBlocks) })

func sharedDemo(t *testing.T) *demo.Chain {
	t.Helper()
	c, err := anchorDemo()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	portRE  = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	indexRE = regexp.MustCompile(`index \S+`)
	agoRE   = regexp.MustCompile(`\d+m\d+s ago`)
)

// trustLines keeps the lines of a scan's stderr that say what is trusted
// and proven, with ports, paths and ages masked.
func trustLines(stderr string) string {
	var keep []string
	for _, l := range strings.Split(stderr, "\n") {
		for _, p := range []string{"--beacon-api demo", "anchor:", "  ", "blocks ", "headers:", "after the anchor:", "transactions:", "transactionHash:", "chainsieve eth scan:"} {
			if strings.HasPrefix(l, p) {
				l = agoRE.ReplaceAllString(indexRE.ReplaceAllString(portRE.ReplaceAllString(l, "127.0.0.1:PORT"), "index INDEX"), "AGE ago")
				keep = append(keep, l)
				break
			}
		}
	}
	return strings.Join(keep, "\n") + "\n"
}

// TestEthScanAnchorGolden pins what the new range and anchor forms print
// on the demo chain (head 300, finalized 268): the logs, and the lines
// that say which block is trusted, why, and what comes after it.
func TestEthScanAnchorGolden(t *testing.T) {
	t.Parallel()
	c := sharedDemo(t)
	var h268 struct{ Hash common.Hash }
	if err := scan.NewClient(c.URL).Call(t.Context(), &h268, "eth_getBlockByNumber", "0x10c", false); err != nil {
		t.Fatal(err)
	}
	index := t.TempDir()
	// The demo's query, on the demo node already running (the offline
	// demo would build another each time), but for the beacon demo.
	rpc := []string{"--rpc", c.URL, "--address", c.Contracts.Token.Hex(), "--event", demo.Transfer}
	var b strings.Builder
	for _, args := range [][]string{
		{"--from", "250", "--to", "finalized"},
		{"--from", "latest-10", "--json"},
		{"--anchor", "safe", "--from", "280"},
		{"--anchor", "150", "--from", "140", "--to", "170"},
		{"--anchor", "268:" + h268.Hash.Hex(), "--from", "finalized-30", "--to", "finalized"},
		{"--from", "40", "--to", "60", "--prove-tx=false"},
		{"--beacon-api", "demo", "--from", "finalized-20"},
	} {
		argv := append([]string{"eth", "scan", "--index", index}, args...)
		shown := "[demo query] " + strings.Join(args, " ")
		if args[0] != "--beacon-api" {
			argv = append(argv, rpc...)
		} else {
			shown = strings.Join(args, " ")
		}
		code, stdout, stderr := runCLI(t, argv...)
		fmt.Fprintf(&b, "$ chainsieve eth scan %s\nexit %d\n%s%s\n", shown, code, stdout, trustLines(stderr))
	}
	golden(t, "eth-scan-anchors.golden", b.String())
}

// TestEthScanBeaconDemo runs the offline demo anchored by the in-process
// beacon chain: honest, the anchor is the demo's finalized block and the
// logs are the unanchored demo's; each lie of beacontest fails the scan
// (exit 1) with the check that caught it, printing nothing.
func TestEthScanBeaconDemo(t *testing.T) {
	t.Parallel()
	index := t.TempDir()
	plain, err := os.ReadFile(filepath.Join("testdata", "eth-scan-demo.golden")) // TestEthScanDemoTable's
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "eth", "scan", "--index", index, "--beacon-api", "demo")
	want268 := "anchor: block 268 0xc84c4de126fd9a564b803934313835714b887b514fd55a5706693f1e4364bbd7, finalized by the beacon chain"
	if code != exitOK || stdout != string(plain) || !strings.Contains(stderr, want268) {
		t.Fatalf("honest beacon: exit %d, the demo's logs %t\n%s", code, stdout == string(plain), stderr)
	}
	checks := map[beacontest.Lie]string{
		beacontest.OtherCheckpoint:               "checkpoint: the header's root",
		beacontest.UnprovenPeriod:                "update sequence",
		beacontest.UpdatesOutOfOrder:             "update sequence",
		beacontest.WrongCommitteeBranch:          "sync committee branch",
		beacontest.ForgedCommittee:               "sync committee branch",
		beacontest.BadSignature:                  "signature: the aggregate signature",
		beacontest.LowParticipation:              "participation: 341 of 512",
		beacontest.WrongFinalityBranch:           "finality branch",
		beacontest.WrongExecutionBranch:          "execution branch",
		beacontest.ForgedBlockHash:               "execution branch",
		beacontest.SignatureSlotNotAfterAttested: "slots: signature slot",
		beacontest.FutureSignature:               "slots: signature slot",
		beacontest.Stale:                         "freshness",
		beacontest.RolledBack:                    "rollback",
		beacontest.AttestedForkSignature:         "signature: the aggregate signature",
		beacontest.Oversized:                     "size",
		beacontest.Garbage:                       "decode",
		beacontest.ServerError:                   "transport: HTTP 500",
	}
	lies := beacontest.Lies()
	if testing.Short() {
		lies = nil // package scan's TestScanBeaconAnchor tells a lie through the API
	}
	for _, lie := range lies {
		dir := t.TempDir() // stale: a fresh state, so that freshness, not rollback, catches it
		if lie == beacontest.RolledBack {
			dir = index // after the honest run, whose finalized header the state file holds
		}
		code, stdout, stderr := runCLI(t, "eth", "scan", "--index", dir, "--beacon-api", "demo:"+lie.String())
		if code != exitFailure || stdout != "" || !strings.Contains(stderr, "beacon: ") || !strings.Contains(stderr, checks[lie]) || strings.ContainsAny(stderr, "\x00\x07\x1b") {
			t.Errorf("beacon API lying (%s): exit %d, stdout %q, want 1, nothing and the check %q, escaped:\n%s", lie, code, stdout, checks[lie], stderr)
		}
		t.Logf("%s: exit %d: %s", lie, code, lastLine(stderr))
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// writeBeaconConfig writes a chain's configuration as --beacon-config
// reads it: the fork schedule of config.yaml, the genesis time and the
// genesis validators root.
func writeBeaconConfig(t *testing.T, bc *beacontest.Chain) string {
	c := bc.Config()
	var b strings.Builder
	fmt.Fprintf(&b, "PRESET_BASE: 'mainnet'\nSECONDS_PER_SLOT: 12\nGENESIS_TIME: %d\nGENESIS_VALIDATORS_ROOT: '%s'\n", c.GenesisTime, common.Hash(c.GenesisValidatorsRoot).Hex())
	for _, f := range c.Forks {
		fmt.Fprintf(&b, "%s_FORK_VERSION: 0x%x\n", f.Name, f.Version)
		if f.Name != "GENESIS" {
			fmt.Fprintf(&b, "%s_FORK_EPOCH: %d\n", f.Name, f.Epoch)
		}
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEthScanBeaconAPI anchors a scan of a node (--rpc) on a beacon API
// server with a private network's configuration (--beacon-config): the
// first run takes --checkpoint, the next finds it in the index directory;
// another network's configuration then fails on the state file.
func TestEthScanBeaconAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("package scan tests the same without the CLI")
	}
	c := sharedDemo(t)
	var fin, head types.Header
	client := scan.NewClient(c.URL)
	if err := client.Call(t.Context(), &fin, "eth_getBlockByNumber", "0x10c", false); err != nil {
		t.Fatal(err)
	}
	if err := client.Call(t.Context(), &head, "eth_getBlockByNumber", "latest", false); err != nil {
		t.Fatal(err)
	}
	bc, err := beacontest.NewChain(beacontest.Options{Finalized: &fin, Head: &head})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := bc.Serve(beacontest.Honest, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	index, config := t.TempDir(), writeBeaconConfig(t, bc)
	base := []string{"eth", "scan", "--rpc", c.URL, "--from", "finalized-50", "--to", "finalized", "--index", index, "--beacon-api", srv.URL}
	for i, extra := range [][]string{
		{"--beacon-config", config, "--checkpoint", bc.Checkpoint().Hex()},
		{"--beacon-config", config},
	} {
		code, stdout, stderr := runCLI(t, append(base, extra...)...)
		if code != exitOK || !strings.Contains(stderr, "anchor: block 268 "+fin.Hash().Hex()+", finalized by the beacon chain") ||
			!strings.Contains(stderr, "blocks 218 to 268") || strings.Contains(stderr, "after the anchor") || stdout == "" {
			t.Errorf("run %d: exit %d\n%s", i+1, code, stderr)
		}
	}
	code, _, stderr := runCLI(t, append(base, "--beacon-chain", "sepolia")...)
	if code != exitFailure || !strings.Contains(stderr, "state file") {
		t.Errorf("another network's configuration: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, append(base[:len(base)-2], "--beacon-api", "http://127.0.0.1:1", "--beacon-config", config, "--retries", "1")...)
	if code != exitFailure || !strings.Contains(stderr, "transport") || strings.Contains(stderr, "anchor: block") {
		t.Errorf("beacon API down: exit %d; want 1 and no fallback to the node\n%s", code, stderr)
	}
}

// TestEthScanConfirm asks other endpoints from the CLI: the same node
// twice agrees; a proxy serving another block at the anchor's height is an
// error naming both endpoints and both hashes; an endpoint that does not
// answer is reported and --confirm-min decides; ETH_CONFIRM_RPC is read.
func TestEthScanConfirm(t *testing.T) {
	c := sharedDemo(t)
	other := scantest.NewProxy(c.URL)
	defer other.Close()
	other.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if call.Block() == 268 || call.Method == "eth_getBlockByNumber" && string(call.Params[0]) == `"finalized"` {
			return scantest.Edit(result, func(h *types.Header) { h.Extra = []byte("another chain") })
		}
		return result
	})
	down := "http://127.0.0.1:1"
	base := []string{"eth", "scan", "--rpc", c.URL, "--from", "200", "--index", t.TempDir(), "--retries", "1"}
	tests := []struct {
		args []string
		env  string
		code int
		want []string
	}{
		{[]string{"--confirm-rpc", c.URL, "--confirm-rpc", c.URL}, "", exitOK, []string{"2 of 2 --confirm-rpc endpoints agree (2 required)"}},
		{nil, c.URL + ", " + c.URL, exitOK, []string{"2 of 2 --confirm-rpc endpoints agree"}},
		{[]string{"--confirm-rpc", other.URL}, down, exitFailure, []string{"contradicted", portRE.FindString(other.URL), portRE.FindString(c.URL), "0xc84c4de126fd9a564b803934313835714b887b514fd55a5706693f1e4364bbd7"}},
		{[]string{"--confirm-rpc", c.URL, "--confirm-rpc", down}, "", exitFailure, []string{"confirmed by 1 of 2 endpoints, fewer than the 2 required", down, "no answer"}},
		{[]string{"--confirm-rpc", c.URL, "--confirm-rpc", down, "--confirm-min", "1"}, "", exitOK, []string{"not confirmed by " + down, "1 of 2 --confirm-rpc endpoints agree (1 required)"}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := runEnv(context.Background(), append(base, tt.args...), strings.NewReader(""), &out, &errOut,
			func(k string) string { return map[string]string{"ETH_CONFIRM_RPC": tt.env}[k] })
		if code != tt.code || (code == exitFailure) != (out.Len() == 0) {
			t.Errorf("%q (ETH_CONFIRM_RPC=%q): exit %d, %d bytes of logs; want %d\n%s", tt.args, tt.env, code, out.Len(), tt.code, errOut.String())
		}
		for _, s := range tt.want {
			if !strings.Contains(errOut.String(), s) {
				t.Errorf("%q: stderr lacks %q:\n%s", tt.args, s, errOut.String())
			}
		}
		t.Logf("%q: exit %d: %s", tt.args, code, lastLine(errOut.String()))
	}
}

// TestEthScanForgedTxHash puts a proxy in front of the node that rewrites
// one block's receipts to name another transaction: the scan fails naming
// the block, after printing only true logs; with --prove-tx=false the
// forged hash is printed, as the summary warns.
func TestEthScanForgedTxHash(t *testing.T) {
	if testing.Short() {
		t.Skip("package scan tests the same without the CLI")
	}
	c := sharedDemo(t)
	forged := common.HexToHash("0x7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e")
	var block struct {
		Hash common.Hash
	}
	if err := scan.NewClient(c.URL).Call(t.Context(), &block, "eth_getBlockByNumber", "0x11", false); err != nil { // 17: a DEMO Transfer
		t.Fatal(err)
	}
	p := scantest.NewProxy(c.URL)
	defer p.Close()
	p.Disable("debug_getRawReceipts") // a lie told in JSON: raw receipts carry no transactionHash
	p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if call.Method != "eth_getBlockReceipts" || call.Hash() != block.Hash.Hex() {
			return result
		}
		return scantest.Edit(result, func(rs *[]map[string]json.RawMessage) {
			for _, r := range *rs {
				r["transactionHash"], _ = json.Marshal(forged)
			}
		})
	})
	_, truth, _ := runCLI(t, "eth", "scan", "--json", "--rpc", c.URL, "--from", "0", "--index", t.TempDir())
	base := []string{"eth", "scan", "--json", "--rpc", p.URL, "--from", "0", "--index", t.TempDir()}
	code, stdout, stderr := runCLI(t, base...)
	if code != exitFailure || !strings.Contains(stderr, "block 17") || !strings.Contains(stderr, "names transaction "+forged.Hex()) ||
		strings.Contains(stdout, forged.Hex()) || !strings.HasPrefix(truth, stdout) {
		t.Errorf("forged transactionHash: exit %d; want 1 naming block 17, and only true logs printed\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, append(base, "--prove-tx=false")...)
	if code != exitOK || !strings.Contains(stdout, forged.Hex()) || !strings.Contains(stderr, "NOT proven") {
		t.Errorf("--prove-tx=false: exit %d; want the forged hash printed and the summary saying so\n%s", code, stderr)
	}
}
