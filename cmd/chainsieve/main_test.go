package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestMain collects garbage a quarter as often as by default, as package
// ethlogs/scan's tests do: the demo nodes the scans read run inside the
// test process. -short, three runs each: GOGC=100 9.1–10.1 s of CPU, 160 MB
// peak; 400: 8.0–8.6 s, 280 MB. A GOGC set in the environment wins; the
// CLI children the tests start (init, above TestMain) keep the default.
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}
