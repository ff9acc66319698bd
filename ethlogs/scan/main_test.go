package scan_test

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage a quarter as often as by default: the demo
// nodes run inside the test process, and the collector spent a fifth of
// the package's CPU chasing their RPC garbage (GOGC=100: 9.2–10.9 s of CPU,
// 178 MB peak; 400: 7.3–7.9 s, 326 MB). A GOGC set in the environment wins.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
