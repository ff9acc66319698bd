package main

import (
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
)

// TestEthScanHostileError scans through a node that refuses every request
// with a 20 MB error message full of terminal escape sequences, over
// HTTP, WebSocket and IPC: the scan fails (exit 1, nothing on stdout) and
// the node's text reaches stderr as one clipped line with every escape
// made visible.
func TestEthScanHostileError(t *testing.T) {
	t.Parallel()
	p := scantest.NewProxy(sharedDemo(t).URL) // the proxy forwards nothing: one node serves every test
	defer p.Close()
	p.Intercept(scantest.HugeErrorMessage(20_000_000))
	for _, endpoint := range []string{p.URL, p.WSURL, p.IPCPath} {
		code, stdout, stderr := runCLI(t, "eth", "scan", "--rpc", endpoint, "--from", "0", "--index", t.TempDir())
		var errLines []string
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if strings.Contains(line, "pwned") {
				errLines = append(errLines, line)
			}
		}
		switch {
		case code != exitFailure || stdout != "":
			t.Errorf("%s: exit %d, stdout %q; want 1 and nothing", endpoint, code, stdout)
		case strings.ContainsFunc(stderr, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }):
			t.Errorf("%s: stderr holds control characters: %q", endpoint, stderr[:min(len(stderr), 500)])
		case len(stderr) > 4<<10 || len(errLines) != 1 || len(errLines[0]) > 600:
			t.Errorf("%s: stderr is %d bytes with %d lines of the node's text; want one line of a few hundred characters:\n%.2000s", endpoint, len(stderr), len(errLines), stderr)
		case !strings.Contains(errLines[0], `eth_getBlockByNumber(0x0): rpc error -32000: \x1b]0;pwned\a\x1b[31mRED\x1b[2J`) ||
			!strings.Contains(errLines[0], "…(+"):
			t.Errorf("%s: the error line does not name the request, escape the text and mark the cut:\n%s", endpoint, errLines[0])
		}
	}
}
