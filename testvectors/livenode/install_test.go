package livenode

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBinaryName(t *testing.T) {
	tests := []struct{ pkg, want string }{
		{"github.com/btcsuite/btcd", "btcd"},
		{"github.com/btcsuite/btcd/cmd/btcctl", "btcctl"},
		{"github.com/ethereum/go-ethereum/cmd/geth", "geth"},
		{"example.com/tool/v2", "tool"},
	}
	for _, tt := range tests {
		if got := binaryName(tt.pkg); got != tt.want {
			t.Errorf("binaryName(%q) = %q, want %q", tt.pkg, got, tt.want)
		}
	}
}

func TestCacheRootEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	if got, err := cacheRoot(); err != nil || got != dir {
		t.Errorf("cacheRoot() with %s=%s = %q, %v, want %q", CacheEnv, dir, got, err, dir)
	}
}

// TestGoInstallConcurrent installs btcctl into an empty cache from several
// goroutines at once. flock locks belong to open file descriptions, so
// goroutines contend exactly as separate go test processes do.
func TestGoInstallConcurrent(t *testing.T) {
	skipShort(t)
	root := t.TempDir()
	t.Setenv(CacheEnv, root)
	ctx, cancel := context.WithTimeout(t.Context(), installTimeout)
	defer cancel()
	const pkg = "github.com/btcsuite/btcd/cmd/btcctl"
	dirs := make([]string, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range dirs {
		wg.Go(func() { dirs[i], errs[i] = GoInstall(ctx, "btcctl", BtcdVersion, pkg) })
	}
	wg.Wait()
	t.Logf("3 concurrent installs of btcctl took %v", time.Since(start).Round(time.Millisecond))
	want := filepath.Join(root, "btcctl-"+BtcdVersion)
	for i := range dirs {
		if errs[i] != nil || dirs[i] != want {
			t.Fatalf("GoInstall(btcctl) #%d = %q, %v, want %q", i, dirs[i], errs[i], want)
		}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if wantNames := []string{"btcctl-" + BtcdVersion, "btcctl-" + BtcdVersion + ".lock"}; !slices.Equal(names, wantNames) {
		t.Errorf("cache holds %q, want %q (no leftover build directories)", names, wantNames)
	}
	// btcctl v0.26.2 still calls itself 0.23.1-beta, so only check it runs.
	out, err := exec.Command(filepath.Join(want, "btcctl"), "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "btcctl version ") {
		t.Errorf("btcctl --version = %q, %v, want a version line", out, err)
	}
	start = time.Now()
	if dir, err := GoInstall(ctx, "btcctl", BtcdVersion, pkg); err != nil || dir != want {
		t.Errorf("cached GoInstall(btcctl) = %q, %v, want %q", dir, err, want)
	}
	t.Logf("cached install took %v", time.Since(start))
}
