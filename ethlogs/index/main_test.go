package index

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// Crash tests edit files rather than pull the plug, so the disk's flush
	// latency is not what any test here measures, and on a loaded machine
	// it would dominate their time. TestSyncReachesTheDisk keeps the real one.
	fsync = func(*os.File) error { return nil }
	if role := os.Getenv(childEnv); role != "" {
		os.Exit(child(role))
	}
	code := m.Run()
	if template.dir != "" {
		os.RemoveAll(template.dir)
	}
	os.Exit(code)
}
