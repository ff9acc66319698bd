package testvectors_test

import (
	"bufio"
	"bytes"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/chainsieve/chainsieve"

// floors ranks the module's top-level directories: a non-test package may
// import packages on its own floor or below, never above. Test support
// (testvectors/livenode, testvectors/spvtest, testvectors/benchdata) sits on
// the testvectors floor, above the protocols it tests, so that only their
// _test.go files reach it.
var floors = map[string]int{
	"core":        0,
	"bip37":       1,
	"gcs":         1,
	"ethlogs":     1,
	"testvectors": 2,
	"cmd":         3,
}

// TestLayering reads every package's non-test imports with go list and pins
// the dependency order docs/ARCHITECTURE.md draws: core imports only the
// standard library and core; nothing under core/, bip37/, gcs/ or ethlogs/
// imports testvectors/; and no import points to a higher floor.
func TestLayering(t *testing.T) {
	imports := moduleImports(t)
	for _, top := range []string{"core", "bip37", "gcs", "ethlogs", "testvectors", "cmd"} {
		if !hasFloor(imports, top) {
			t.Fatalf("go list found no package under %s/; the module's layout changed", top)
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		if _, ok := floors[topDir(pkg)]; !ok {
			t.Errorf("%s is under %s/, which has no floor: give it one in floors and in docs/ARCHITECTURE.md", pkg, topDir(pkg))
			continue
		}
		for _, dep := range imports[pkg] {
			if msg := layeringViolation(pkg, dep); msg != "" {
				t.Errorf("%s imports %s: %s", pkg, dep, msg)
			}
		}
	}
}

// layeringViolation returns why pkg may not import dep, or "" if it may.
// The module's packages are named relative to it ("gcs/spv"), others by
// their import path ("math", "github.com/btcsuite/btcd/wire/v2").
func layeringViolation(pkg, dep string) string {
	from, known := floors[topDir(pkg)]
	if !known {
		return topDir(pkg) + "/ has no floor"
	}
	to, inModule := floors[topDir(dep)]
	std := !inModule && !strings.Contains(topDir(dep), ".")
	switch {
	case topDir(pkg) == "core" && !std && topDir(dep) != "core":
		return "core imports only the standard library and core"
	case topDir(dep) == "testvectors" && from < to:
		return "no non-test package under core/, bip37/, gcs/ or ethlogs/ may import testvectors/ (only _test.go files may)"
	case inModule && to > from:
		return "the import points up, from " + topDir(pkg) + "/ to " + topDir(dep) + "/"
	}
	return ""
}

// moduleImports returns the non-test imports of every package of the
// module, the module's own packages named relative to it.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	imports := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		deps := make([]string, 0, len(fields)-1)
		for _, d := range fields[1:] {
			deps = append(deps, relative(d))
		}
		imports[relative(fields[0])] = deps
	}
	return imports
}

// relative strips the module path, leaving other paths as they are.
func relative(path string) string {
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest
	}
	return path
}

func topDir(path string) string {
	top, _, _ := strings.Cut(path, "/")
	return top
}

func hasFloor(imports map[string][]string, top string) bool {
	for pkg := range imports {
		if topDir(pkg) == top {
			return true
		}
	}
	return false
}

// TestLayeringViolation checks that each kind of wrong import is named.
func TestLayeringViolation(t *testing.T) {
	tests := []struct {
		pkg, dep string
		want     string // a substring of the reason; "" for an allowed import
	}{
		{"core/bloom", "core/bitset", ""},
		{"core/bloom", "math", ""},
		{"core/bloom", "github.com/btcsuite/btcd/wire/v2", "standard library and core"},
		{"core/bloom", "gcs", "standard library and core"},
		{"gcs/spv", "testvectors/livenode", "may import testvectors/"},
		{"ethlogs", "testvectors", "may import testvectors/"},
		{"bip37/bloomscan", "gcs/spv", ""},
		{"gcs", "cmd/chainsieve/internal/family", "points up"},
		{"testvectors/spvtest", "gcs/spv", ""},
		{"testvectors/verify", "cmd/chainsieve/internal/privacy", "points up"},
		{"cmd/chainsieve", "testvectors/verify", ""},
		{"bip37", "testvectors/benchdata", "may import testvectors/"},
		{"gcs/cfscan", "testvectors/spvtest", "may import testvectors/"},
		{"ethlogs/scan", "testvectors/livenode", "may import testvectors/"},
		{"core/bitset", "testvectors", "standard library and core"},
		{"ethlogs/index", "cmd/chainsieve/internal/progress", "points up"},
		{"internal/newdir", "math", "has no floor"},
	}
	for _, tt := range tests {
		got := layeringViolation(tt.pkg, tt.dep)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("layeringViolation(%s, %s) = %q, want %q", tt.pkg, tt.dep, got, tt.want)
		}
	}
}
