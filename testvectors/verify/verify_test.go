package verify

import (
	"encoding/json"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
)

// TestEmbedded runs every embedded vector file: each must be recognised and
// every vector in it must pass (Unchecked counts as a failure).
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
			if r.Status != Pass {
				t.Errorf("%s: %s: %v: %s", name, r.Name, r.Status, r.Detail)
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

// TestBIP37DetectsWrongExpectations alters one expected value in each BIP37
// file and requires that vector, and only it, to fail.
func TestBIP37DetectsWrongExpectations(t *testing.T) {
	tests := []struct {
		file   string
		mutate func(v0 map[string]any)
	}{
		{"bip37/murmur3_x86_32.json", func(v map[string]any) { v["expected"] = "deadbeef" }},
		{"bip37/filter_serialize.json", func(v map[string]any) { v["expected_filterload_hex"] = "03614e9b050000000000000002" }},
		{"bip37/bloom_match.json", func(v map[string]any) {
			v["expect_in_order"].([]any)[0].(map[string]any)["match"] = false
		}},
		{"bip37/merkle_blocks.json", func(v map[string]any) {
			step := v["steps"].([]any)[0].(map[string]any)
			step["expected_matched"].([]any)[0].([]any)[0] = 7
		}},
	}
	for _, tt := range tests {
		data, err := testvectors.Read(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		tt.mutate(doc["vectors"].([]any)[0].(map[string]any))
		mutated, _ := json.Marshal(doc)
		rep, err := File(mutated)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if rep.Results[0].Status != Fail || rep.Failed() != 1 {
			t.Errorf("%s with vector 0 altered: %s first, %d failed, want the first to fail alone", tt.file, rep.Results[0].Status, rep.Failed())
		}
	}
}
