package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestEthScanStoppedSummary: a scan that fails says only what is true of
// the part it did. A forged header used to be preceded by "hashes and
// parent links verified back from the anchor"; a scan stopped in its
// receipts by a false-positive rate and a rate of blocks a second computed
// over blocks it never searched.
func TestEthScanStoppedSummary(t *testing.T) {
	chain := sharedDemo(t)
	index := t.TempDir()
	args := append(demoScan(t), "--json", "--concurrency", "1")
	_, want, _ := runCLI(t, append(slices.Clone(args), "--index", index)...)
	t.Run("forged header", func(t *testing.T) {
		p := scantest.NewProxy(chain.URL)
		defer p.Close()
		p.Rewrite(func(r scantest.Request, result json.RawMessage) json.RawMessage {
			if r.Block() != 100 { // a header of the range, by number
				return result
			}
			return scantest.Edit(result, func(h *types.Header) { h.ParentHash[0] ^= 1 })
		})
		stats := filepath.Join(t.TempDir(), "stats.json")
		a := append(slices.Clone(args), "--index", t.TempDir(), "--stats", stats)
		a[slices.Index(a, chain.URL)] = p.URL
		code, stdout, stderr := runCLI(t, a...)
		if code != exitFailure || stdout != "" || !strings.Contains(stderr, "block 100") {
			t.Fatalf("exit %d, %d bytes out\n%s", code, len(stdout), stderr)
		}
		for _, lie := range []string{"verified back from the anchor", "headers:", "blocks/s", "false-positive"} {
			if strings.Contains(stderr, lie) {
				t.Errorf("stderr says %q of a scan whose headers failed:\n%s", lie, stderr)
			}
		}
		var st ethStatsJSON
		if err := json.Unmarshal([]byte(readFile(t, stats)), &st); err != nil || st.HeadersVerified != 0 || st.BlocksScanned != 0 || st.Error == "" {
			t.Errorf("--stats: %+v, %v; want no header verified, no block scanned, the error", st, err)
		}
	})
	t.Run("forged receipts", func(t *testing.T) {
		// The receipts of the 40th log's block, with one log dropped.
		var l struct{ BlockHash string }
		json.Unmarshal([]byte(splitLines(want)[40]), &l)
		p := scantest.NewProxy(chain.URL)
		p.Disable("debug_getRawReceipts") // the lie is told in JSON
		p.Rewrite(func(r scantest.Request, result json.RawMessage) json.RawMessage {
			if r.Method != "eth_getBlockReceipts" || r.Hash() != l.BlockHash {
				return result
			}
			return scantest.Edit(result, func(rs *[]map[string]json.RawMessage) {
				for _, rc := range *rs {
					var logs []json.RawMessage
					if json.Unmarshal(rc["logs"], &logs); len(logs) > 0 {
						rc["logs"], _ = json.Marshal(logs[1:])
						return
					}
				}
			})
		})
		defer p.Close()
		a := append(slices.Clone(args), "--index", index)
		a[slices.Index(a, chain.URL)] = p.URL
		code, stdout, stderr := runCLI(t, a...)
		got := splitLines(stdout)
		if code != exitFailure || len(got) == 0 || len(got) >= 40 || !slices.Equal(got, splitLines(want)[:len(got)]) {
			t.Fatalf("exit %d, %d logs printed (want fewer than 40, all true)\n%s", code, len(got), stderr)
		}
		var last struct{ BlockNumber string }
		json.Unmarshal([]byte(got[len(got)-1]), &last)
		var n uint64
		fmt.Sscanf(last.BlockNumber, "0x%x", &n)
		if !strings.Contains(stderr, fmt.Sprintf("logs: %d printed, every one of blocks 0 to ", len(got))) || !strings.Contains(stderr, "not searched: the scan stopped") {
			t.Errorf("the summary does not say which blocks were searched (%d logs, the last in block %d):\n%s", len(got), n, stderr)
		}
		for _, lie := range []string{"false-positive", "blocks/s", "candidates:", "fetching every receipt"} {
			if strings.Contains(stderr, lie) {
				t.Errorf("stderr says %q of a scan that stopped part way:\n%s", lie, stderr)
			}
		}
	})
}

// TestEthScanUnknownAnchor: an --anchor hash the node does not know is
// named as such (it used to be "no block number in the answer null").
func TestEthScanUnknownAnchor(t *testing.T) {
	hash := "0xab" + strings.Repeat("00", 31)
	code, _, stderr := runCLI(t, append(demoScan(t), "--index", t.TempDir(), "--anchor", hash)...)
	if code != exitFailure || !strings.Contains(stderr, "the node does not know block "+hash) {
		t.Errorf("exit %d\n%s; want 1 and \"the node does not know block %s\"", code, stderr, hash)
	}
}

// TestEthScanDemoNoLoopback runs the offline demo where 127.0.0.1 is down
// (a new network namespace, where loopback starts down): it must say so
// instead of "the node's HTTP server did not answer within 5 s".
func TestEthScanDemoNoLoopback(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || exec.Command(unshare, "-rn", "true").Run() != nil {
		t.Skip("no unprivileged network namespaces here (unshare -rn)")
	}
	cmd := exec.Command(unshare, "-rn", os.Args[0], "eth", "scan", "--index", t.TempDir())
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != exitFailure || !strings.Contains(string(out), "127.0.0.1") || !strings.Contains(string(out), "loopback") {
		t.Errorf("the demo with loopback down: %v\n%s", err, out)
	}
}
