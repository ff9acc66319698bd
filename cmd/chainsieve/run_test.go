package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/chainsieve/chainsieve/testvectors/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runCLI calls run as main would and returns the exit code and both streams.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestRunUsage(t *testing.T) {
	tests := []struct {
		args       []string
		wantCode   int
		wantStdout string // substring
		wantStderr string // substring
	}{
		{args: nil, wantCode: exitUsage, wantStderr: "usage: chainsieve <group>"},
		{args: []string{"-h"}, wantCode: exitOK, wantStdout: "vectors"},
		{args: []string{"--help"}, wantCode: exitOK, wantStdout: "groups:"},
		{args: []string{"nosuch"}, wantCode: exitUsage, wantStderr: `unknown group "nosuch"`},
		{args: []string{"vectors"}, wantCode: exitUsage, wantStderr: "verify"},
		{args: []string{"vectors", "-h"}, wantCode: exitOK, wantStdout: "verify"},
		{args: []string{"vectors", "nosuch"}, wantCode: exitUsage, wantStderr: `unknown command "nosuch"`},
		{args: []string{"vectors", "verify", "-h"}, wantCode: exitOK, wantStdout: "-json"},
		{args: []string{"bench", "compare", "--help"}, wantCode: exitOK, wantStdout: "-metric"},
		{args: []string{"vectors", "verify", "--bogus"}, wantCode: exitUsage, wantStderr: "bogus"},
		{args: []string{"vectors", "verify", "testdata/empty-dir-does-not-exist-as-dir", "--json=maybe"}, wantCode: exitUsage, wantStderr: "json"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, tt.args...)
		if code == exitOK && stderr != "" {
			t.Errorf("run(%q) succeeded but wrote to stderr: %s", tt.args, stderr)
		}
		if code != tt.wantCode || !strings.Contains(stdout, tt.wantStdout) || !strings.Contains(stderr, tt.wantStderr) {
			t.Errorf("run(%q) = %d\nstdout: %s\nstderr: %s\nwant code %d, stdout containing %q, stderr containing %q",
				tt.args, code, stdout, stderr, tt.wantCode, tt.wantStdout, tt.wantStderr)
		}
	}
}

// TestVectorsVerifyEmbedded runs the default (embedded) verification and
// checks that every file is reported and the totals add up.
func TestVectorsVerifyEmbedded(t *testing.T) {
	passed, total := 0, 0
	for _, name := range testvectors.Files() {
		data, _ := testvectors.Read(name)
		rep, err := verify.File(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		passed += rep.Passed()
		total += len(rep.Results)
	}
	code, stdout, stderr := runCLI(t, "vectors", "verify")
	for _, name := range testvectors.Files() {
		if !strings.Contains(stdout, "embedded:"+name+" (") {
			t.Errorf("stdout does not report %s", name)
		}
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	want := regexp.MustCompile(`^(\d+) passed, (\d+) failed$`).FindStringSubmatch(last)
	if want == nil {
		t.Fatalf("last stderr line = %q, want \"N passed, M failed\"", last)
	}
	if got := want[1] + "/" + want[2]; got != itoa(passed)+"/"+itoa(total-passed) {
		t.Errorf("summary %q, want %d passed, %d failed", last, passed, total-passed)
	}
	if wantCode := map[bool]int{true: exitOK, false: exitFailure}[passed == total]; code != wantCode {
		t.Errorf("exit code %d with %d of %d passing, want %d", code, passed, total, wantCode)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestVectorsVerifyBadFiles checks that unreadable, unrecognised and malformed
// files are each reported and make the command fail.
func TestVectorsVerifyBadFiles(t *testing.T) {
	code, stdout, stderr := runCLI(t, "vectors", "verify", "testdata/vectors-bad", "testdata/no-such-file.json")
	if code != exitFailure {
		t.Errorf("exit code = %d, want %d", code, exitFailure)
	}
	golden(t, "verify-bad.golden", "stdout:\n"+stdout+"stderr:\n"+stderr)
}

func TestVectorsVerifyJSON(t *testing.T) {
	code, stdout, _ := runCLI(t, "vectors", "verify", "--json", "testdata/vectors-bad/unknown.json")
	if code != exitFailure {
		t.Errorf("exit code = %d, want %d", code, exitFailure)
	}
	var line vectorLine
	if err := json.Unmarshal([]byte(stdout), &line); err != nil || line.Status != "error" || line.File != "testdata/vectors-bad/unknown.json" {
		t.Errorf("--json output %q = %+v, %v; want one error object for the file", stdout, line, err)
	}
	// Flags may follow the positional arguments.
	_, stdout, _ = runCLI(t, "vectors", "verify", "../../testvectors/bip37/murmur3_x86_32.json", "--json")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 14 {
		t.Fatalf("--json after the file: %d lines, want 14", len(lines))
	}
	for _, l := range lines {
		if err := json.Unmarshal([]byte(l), &line); err != nil || line.Format != "bip37-murmur3" || line.Vector == "" {
			t.Errorf("line %q = %+v, %v", l, line, err)
		}
	}
}
