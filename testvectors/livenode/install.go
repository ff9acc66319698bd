package livenode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// CacheEnv names the environment variable that overrides where
// [GoInstall] keeps the binaries it builds. The default is
// os.UserCacheDir()/chainsieve/nodes.
const CacheEnv = "CHAINSIEVE_NODE_CACHE"

// cacheRoot returns the directory holding one subdirectory per installed
// name and version.
func cacheRoot() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		return filepath.Abs(dir)
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("livenode: no cache directory (set %s): %v", CacheEnv, err)
	}
	return filepath.Join(dir, "chainsieve", "nodes"), nil
}

// GoInstall builds the main packages pkgs at version with
// "go install pkg@version" and returns the directory holding the binaries,
// <cache>/<name>-<version>. A directory that already exists is reused as
// it is, since it only appears complete: the build goes to a temporary
// directory that is renamed into place. An exclusive file lock makes
// concurrent callers (go test runs packages in parallel processes) wait
// for one build instead of each running its own; the wait ends with ctx.
func GoInstall(ctx context.Context, name, version string, pkgs ...string) (string, error) {
	root, err := cacheRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, name+"-"+version)
	if installed(dir, pkgs) {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("livenode: install %s: %v", name, err)
	}
	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return "", fmt.Errorf("livenode: install %s: %v", name, err)
	}
	defer unlock()
	if installed(dir, pkgs) { // another process built it while we waited
		return dir, nil
	}
	return dir, build(ctx, dir, version, pkgs)
}

// build runs go install into a fresh temporary directory beside dir and
// renames it to dir. The caller holds the lock, so leftovers of builds
// that were killed can be removed.
func build(ctx context.Context, dir, version string, pkgs []string) error {
	stale, _ := filepath.Glob(dir + ".tmp-*")
	for _, s := range stale {
		os.RemoveAll(s)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("livenode: install: %v", err)
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	if err := goInstall(ctx, tmp, version, pkgs); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil && !installed(dir, pkgs) {
		return fmt.Errorf("livenode: install: %v", err)
	}
	return nil
}

// goInstall runs one go install for all pkgs with GOBIN=bin.
func goInstall(ctx context.Context, bin, version string, pkgs []string) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("livenode: install needs the go command on PATH: %v", err)
	}
	args := []string{"install"}
	for _, p := range pkgs {
		args = append(args, p+"@"+version)
	}
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = bin // outside any module or workspace
	// Never download a toolchain: the machine's Go must build the node.
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOTOOLCHAIN=local", "GOWORK=off")
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("livenode: go %s failed after %v: %v\n%s",
			strings.Join(args, " "), time.Since(start).Round(time.Second), err, tail(string(out), 40))
	}
	return nil
}

// installed reports whether dir holds the binary of every package.
func installed(dir string, pkgs []string) bool {
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, binaryName(p))); err != nil {
			return false
		}
	}
	return true
}

var majorSuffix = regexp.MustCompile(`^v[0-9]+$`)

// binaryName returns the name go install gives the binary of package p:
// its last path element, or the one before a major version suffix.
func binaryName(p string) string {
	base := path.Base(p)
	if majorSuffix.MatchString(base) {
		base = path.Base(path.Dir(p))
	}
	return base
}
