package verify

import (
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
)

// TestEmbedded runs every embedded vector file. Each file must be recognised
// and every vector reported; once its protocol package has landed, every
// vector must pass.
func TestEmbedded(t *testing.T) {
	for _, name := range testvectors.Files() {
		data, err := testvectors.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := File(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(rep.Results) == 0 {
			t.Errorf("%s: no results", name)
		}
		for _, r := range rep.Results {
			if r.Status == Fail {
				t.Errorf("%s: %s: %s", name, r.Name, r.Detail)
			}
		}
	}
}

func TestEveryFormatHasAChecker(t *testing.T) {
	for _, f := range testvectors.Formats {
		if checkers[f] == nil {
			t.Errorf("format %q has no checker", f)
		}
	}
}

func TestFileRejectsUnknown(t *testing.T) {
	for _, in := range []string{`{"hello": 1}`, `garbage`, `{"vectors": [{"seed": "zz", "data_hex": ""}]}`} {
		if _, err := File([]byte(in)); err == nil {
			t.Errorf("File(%q) = nil error, want an error", in)
		}
	}
}
