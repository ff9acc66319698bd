package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/family"
)

// TestBenchFiltersTable runs every structure without timing, so the output
// is deterministic and kept as a golden file.
func TestBenchFiltersTable(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "filters", "--n", "2000", "--trials", "20000", "--rounds", "0", "--eps", "0.01,1/784931")
	if code != exitOK {
		t.Fatalf("bench filters exit %d, stderr:\n%s", code, errOut)
	}
	golden(t, "bench-filters.golden", out)
	if !strings.Contains(errOut, "14 rows, n = 2000") {
		t.Errorf("bench filters summary = %q, want it to count 14 rows at n = 2000", errOut)
	}
}

func TestBenchFiltersJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "filters", "--json", "--n", "500", "--trials", "1000", "--rounds", "1", "--structures", "classic,cuckoo")
	if code != exitOK {
		t.Fatalf("bench filters --json exit %d, stderr:\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("bench filters --json printed %d lines, want 4 (2 structures × 2 rates):\n%s", len(lines), out)
	}
	for _, l := range lines {
		var r family.Result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if r.N != 500 || r.Trials != 1000 || r.BitsPerElement <= 0 || r.InsertNs <= 0 || r.LookupNs <= 0 {
			t.Errorf("row %+v: want n = 500, 1000 trials, positive bits and timings", r)
		}
	}
}

func TestBenchFiltersUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--eps", "1.5"}, `--eps: rate "1.5" is not a number in (0, 1)`},
		{[]string{"--eps", "1/0"}, `--eps: rate "1/0"`},
		{[]string{"--n", "0"}, "--n 0 outside"},
		{[]string{"--rounds", "-1"}, "--rounds -1 outside"},
		{[]string{"--structures", "classic,quotient"}, `no structure "quotient"`},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, append([]string{"bench", "filters"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("bench filters %v = exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
