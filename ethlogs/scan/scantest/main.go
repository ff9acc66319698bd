package scantest

import (
	"os"
	"runtime/debug"
	"testing"
)

// Main runs the tests of a package that starts demo nodes inside its test
// process, collecting garbage a quarter as often as by default: the
// collector spent a fifth of ethlogs/scan's test CPU chasing the nodes'
// RPC garbage (-short: GOGC=100 9.2–10.9 s of CPU, 178 MB peak; 400:
// 7.3–7.9 s, 326 MB), and cmd/chainsieve's likewise (9.1–10.1 s against
// 8.0–8.6 s, three runs each). A GOGC set in the environment wins. It
// returns m.Run's exit code:
//
//	func TestMain(m *testing.M) { os.Exit(scantest.Main(m)) }
func Main(m *testing.M) int {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	return m.Run()
}
