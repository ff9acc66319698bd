package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

func TestWriteVersion(t *testing.T) {
	vcs := func(rev, time, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "GOOS", Value: "linux"}, {Key: "GOARCH", Value: "arm64"},
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: time}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "00d99331e7c2b6f1d7a1c0e5b3f6a9d8c7b6a5f4"
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go build in a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main:     debug.Module{Path: "github.com/chainsieve/chainsieve", Version: "v0.0.0-20261125105100-00d99331e7c2"},
			Settings: vcs(rev, "2026-11-25T10:51:00Z", "false")},
			"chainsieve v0.0.0-20261125105100-00d99331e7c2\n" +
				"module  github.com/chainsieve/chainsieve v0.0.0-20261125105100-00d99331e7c2\n" +
				"commit  " + rev + " 2026-11-25T10:51:00Z (clean)\n" +
				"go      go1.26.8 linux/arm64\n"},
		{"go build with uncommitted changes", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main:     debug.Module{Path: "github.com/chainsieve/chainsieve", Version: "v0.0.0-20261125105100-00d99331e7c2+dirty"},
			Settings: vcs(rev, "2026-11-25T10:51:00Z", "true")},
			"chainsieve v0.0.0-20261125105100-00d99331e7c2+dirty\n" +
				"module  github.com/chainsieve/chainsieve v0.0.0-20261125105100-00d99331e7c2+dirty\n" +
				"commit  " + rev + " 2026-11-25T10:51:00Z (modified: the checkout had uncommitted changes)\n" +
				"go      go1.26.8 linux/arm64\n"},
		{"go install module@version", &debug.BuildInfo{GoVersion: "go1.26.0",
			Main:     debug.Module{Path: "github.com/chainsieve/chainsieve", Version: "v1.2.0", Sum: "h1:…"},
			Settings: []debug.BuildSetting{{Key: "GOOS", Value: "darwin"}, {Key: "GOARCH", Value: "amd64"}}},
			"chainsieve v1.2.0\n" +
				"module  github.com/chainsieve/chainsieve v1.2.0\n" +
				"commit  unknown (no VCS information: built by go run, go test, with -buildvcs=false, or outside a git checkout)\n" +
				"go      go1.26.0 darwin/amd64\n"},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8",
			Main: debug.Module{Path: "github.com/chainsieve/chainsieve", Version: "(devel)"}},
			"chainsieve (devel)\n" +
				"module  github.com/chainsieve/chainsieve (devel)\n" +
				"commit  unknown (no VCS information: built by go run, go test, with -buildvcs=false, or outside a git checkout)\n" +
				"go      go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"},
		{"no build information", nil,
			"chainsieve (unknown)\n" +
				"module  github.com/chainsieve/chainsieve (unknown)\n" +
				"commit  unknown (no VCS information: built by go run, go test, with -buildvcs=false, or outside a git checkout)\n" +
				"go      " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			writeVersion(&b, tt.info)
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

// TestVersionCommand runs both spellings in this test binary, whose build
// information names the module and the toolchain but no commit.
func TestVersionCommand(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("the test binary carries no build information")
	}
	var want strings.Builder
	writeVersion(&want, info)
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitOK || stderr != "" || stdout != want.String() {
			t.Errorf("run(%q) = %d, stdout %q, stderr %q; want 0 and %q", args, code, stdout, stderr, want.String())
		}
		if !strings.Contains(stdout, "go      "+runtime.Version()+" ") || !strings.Contains(stdout, "module  github.com/chainsieve/chainsieve ") {
			t.Errorf("run(%q) = %q: want the module path and %s", args, stdout, runtime.Version())
		}
	}
	if code, _, stderr := runCLI(t, "version", "extra"); code != exitUsage || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra = %d, %q; want a usage error", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "version", "-h"); code != exitOK || !strings.Contains(stdout, "usage: chainsieve version") {
		t.Errorf("version -h = %d, %q", code, stdout)
	}
	if _, stdout, _ := runCLI(t, "-h"); !strings.Contains(stdout, "'chainsieve version'") {
		t.Errorf("chainsieve -h does not mention the version command:\n%s", stdout)
	}
}

// TestVersionGoBuild builds the binary with go build in this checkout, as
// a user would, and checks that it reports the commit git reports and
// whether the tree has uncommitted changes.
func TestVersionGoBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("links the whole binary (several seconds)")
	}
	git := func(args ...string) (string, error) {
		out, err := exec.Command("git", args...).Output()
		return strings.TrimSpace(string(out)), err
	}
	head, err := git("rev-parse", "HEAD")
	if err != nil {
		t.Skipf("not a git checkout (%v): go build stamps no commit", err)
	}
	gitDir, _ := git("rev-parse", "--path-format=absolute", "--git-dir")
	common, _ := git("rev-parse", "--path-format=absolute", "--git-common-dir")
	if gitDir != common {
		// Its .git is a file, which the go command does not take for a
		// repository (golang/go issue 58218).
		t.Skip("a linked git worktree: go build stamps no VCS information here")
	}
	bin := filepath.Join(t.TempDir(), "chainsieve")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	// -buildvcs=true on the command line wins over a GOFLAGS=-buildvcs=false
	// in the environment; it is the default (auto) in a checkout.
	build := exec.CommandContext(ctx, "go", "build", "-buildvcs=true", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	status, err := git("status", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		t.Fatalf("chainsieve --version: %v", err)
	}
	lines := strings.Split(string(out), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[2], "commit  "+head+" ") {
		t.Fatalf("chainsieve --version =\n%s\nwant commit %s", out, head)
	}
	wantMark := map[bool]string{true: "(clean)", false: "(modified: the checkout had uncommitted changes)"}[status == ""]
	if !strings.HasSuffix(lines[2], wantMark) {
		t.Errorf("commit line %q: git status --porcelain says %q, want %s", lines[2], status, wantMark)
	}
	if v := strings.TrimPrefix(lines[0], "chainsieve "); !strings.Contains(v, head[:12]) {
		t.Errorf("version %q does not name commit %s (go build stamps a pseudo-version since Go 1.24)", v, head[:12])
	}
	t.Logf("%s", out)
	_ = os.Remove(bin)
}
