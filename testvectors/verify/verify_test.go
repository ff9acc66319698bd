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

// TestBIP37Passes requires every BIP37 vector to be checked and to pass,
// one result per vector.
func TestBIP37Passes(t *testing.T) {
	formats := map[testvectors.Format]bool{testvectors.Murmur3: true, testvectors.BIP37Filter: true,
		testvectors.BIP37Match: true, testvectors.BIP37MerkleBlock: true}
	seen := 0
	for _, name := range testvectors.Files() {
		data, err := testvectors.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := File(data)
		if err != nil || !formats[rep.Format] {
			continue
		}
		seen++
		if rep.Passed() == 0 || rep.Failed() != 0 {
			t.Errorf("%s: %d passed, %d failed", name, rep.Passed(), rep.Failed())
		}
		if want := vectorCount(t, rep.Format, data); len(rep.Results) != want {
			t.Errorf("%s: %d results, want one per vector (%d)", name, len(rep.Results), want)
		}
	}
	if seen != len(formats) {
		t.Errorf("found %d BIP37 vector files, want one per format (%d)", seen, len(formats))
	}
}

func vectorCount(t *testing.T, f testvectors.Format, data []byte) int {
	var n int
	var err error
	switch f {
	case testvectors.Murmur3:
		var v *testvectors.Murmur3File
		v, err = testvectors.ParseMurmur3(data)
		n = len(v.Vectors)
	case testvectors.BIP37Filter:
		var v *testvectors.BIP37FilterFile
		v, err = testvectors.ParseBIP37Filter(data)
		n = len(v.Vectors)
	case testvectors.BIP37Match:
		var v *testvectors.BIP37MatchFile
		v, err = testvectors.ParseBIP37Match(data)
		n = len(v.Vectors)
	case testvectors.BIP37MerkleBlock:
		var v *testvectors.BIP37MerkleBlockFile
		v, err = testvectors.ParseBIP37MerkleBlock(data)
		n = len(v.Vectors)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}
