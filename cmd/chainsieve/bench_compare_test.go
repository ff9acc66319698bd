package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestBenchCompare(t *testing.T) {
	in := `goos: linux
pkg: github.com/chainsieve/chainsieve/core/bloom
BenchmarkFilter/Add/chainsieve-2         	13515136	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkFilter/Add/chainsieve-2         	14322646	        24.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkFilter/Add/chainsieve-2         	14322646	        22.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkFilter/Add/bitsandblooms-2      	 7191049	        44.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkFilter/Add/bitsandblooms-2      	 7191049	        46.00 ns/op	       8 B/op	       1 allocs/op
pkg: github.com/chainsieve/chainsieve/gcs
BenchmarkDecode/chainsieve-2   	   22848	     55109 ns/op	         5.5 ns/code	       0 B/op	       0 allocs/op
PASS
`
	path := t.TempDir() + "/bench.txt"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "bench", "compare", path)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	golden(t, "bench-compare.golden", stdout)

	code, stdout, _ = runCLI(t, "bench", "compare", "--json", "--metric", "ns/code", path)
	var row benchRow
	if err := json.Unmarshal([]byte(stdout), &row); code != exitOK || err != nil || row.Operation != "gcs.Decode" || row.OurValue != 5.5 {
		t.Errorf("--metric ns/code --json = %d %q, want one gcs.Decode row of 5.5", code, stdout)
	}
	code, _, stderr = runCLI(t, "bench", "compare", "--metric", "furlongs", path)
	if code != exitFailure || !strings.Contains(stderr, "furlongs") {
		t.Errorf("unknown metric: exit %d, stderr %q", code, stderr)
	}
}
