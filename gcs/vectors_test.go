package gcs_test

import (
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/chainsieve/chainsieve/testvectors/verify"
)

// TestVectors checks every published BIP158 vector file with this package,
// through the same checker as `chainsieve vectors verify`.
func TestVectors(t *testing.T) {
	seen := 0
	for _, name := range testvectors.Files() {
		if !strings.HasPrefix(name, "bip158/") {
			continue
		}
		data, err := testvectors.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := verify.File(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range rep.Results {
			seen++
			if r.Status != verify.Pass {
				t.Errorf("%s: %s: %s: %s", name, r.Name, r.Status, r.Detail)
			}
		}
	}
	if seen < 24 {
		t.Errorf("checked %d BIP158 vectors, want at least 24", seen)
	}
}
