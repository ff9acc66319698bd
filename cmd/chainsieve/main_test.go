package main

import (
	"os"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
)

// TestMain runs the tests as ethlogs/scan's run, for the same reason: the
// demo nodes the scans read run in the test process. The CLI children the
// tests start (init, above TestMain) keep the default GOGC.
func TestMain(m *testing.M) { os.Exit(scantest.Main(m)) }
