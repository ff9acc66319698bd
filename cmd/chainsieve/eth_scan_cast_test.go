package main

import (
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
)

// TestEthScanCastSignature scans the demo chain with cast's signature
// Transfer(address,address,uint256), which does not say which parameters
// are indexed, and with the declaration the contracts have: every row
// decodes, to the same values (the arguments are named arg0, arg1, arg2
// for want of names). Both scan the shared demo node: the offline demo's
// own node is TestEthScanDemo's.
func TestEthScanCastSignature(t *testing.T) {
	t.Parallel()
	c := sharedDemo(t)
	scanWith := func(sig string) []string {
		code, stdout, stderr := runCLI(t, "eth", "scan", "--rpc", c.URL, "--from", "0", "--event", sig, "--index", t.TempDir())
		if code != exitOK {
			t.Fatalf("--event %q: exit %d\n%s", sig, code, stderr)
		}
		return splitLines(stdout)
	}
	cast, declared := scanWith("Transfer(address,address,uint256)"), scanWith(demo.Transfer)
	if len(cast) != len(declared) || len(cast) < 20 {
		t.Fatalf("%d rows with the cast signature, %d with the declaration (want at least 20)", len(cast), len(declared))
	}
	named := strings.NewReplacer("from=", "arg0=", "to=", "arg1=", "value=", "arg2=")
	for i := range cast {
		if strings.Contains(cast[i], "(event:") || cast[i] != named.Replace(declared[i]) {
			t.Errorf("row %d:\n%s\nwith the declaration:\n%s", i, cast[i], declared[i])
		}
	}
}
