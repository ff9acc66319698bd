package verify

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
)

// TestEthBlocksDetectsTampering changes one byte of a published block file at
// a time and requires the checker to fail the block: the checks really read
// the hash, the bloom, the receipts and the logs.
func TestEthBlocksDetectsTampering(t *testing.T) {
	data, err := testvectors.Read("ethlogs/mainnet-19426587.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new string
	}{
		{"block hash", `"0xf8e2f40d98fe5862`, `"0xf8e2f40d98fe5863`},
		{"first log topic", `"0x141df868a6331af5`, `"0x141df868a6331af6`},
		{"first log address", `"0xadfbd719f34c1fe6`, `"0xadfbd719f34c1fe7`},
		{"receipt raw byte", `"raw": "0xf90325018305099b`, `"raw": "0xf90325018305099c`},
		{"log index", `"logIndex": 1
`, `"logIndex": 2
`},
	}
	for _, tt := range tests {
		if !bytes.Contains(data, []byte(tt.old)) {
			t.Fatalf("%s: %q not in the file", tt.name, tt.old)
		}
		bad := bytes.Replace(data, []byte(tt.old), []byte(tt.new), 1)
		rep, err := File(bad)
		if err != nil {
			t.Fatalf("%s: File = %v", tt.name, err)
		}
		if rep.Failed() != 1 {
			t.Errorf("%s: File(tampered).Failed() = %d, want 1", tt.name, rep.Failed())
		}
	}
}

func TestEthBloom9DetectsTampering(t *testing.T) {
	data, err := testvectors.Read("ethlogs/geth-bloom9-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{`"bit": 1303`, `"0xc384c56e`, `"mask": "0x4`} {
		i := strings.Index(string(data), old)
		if i < 0 {
			t.Fatalf("%q not in the file", old)
		}
		bad := bytes.Clone(data)
		bad[i+len(old)-1] ^= 1
		rep, err := File(bad)
		if err != nil {
			t.Fatalf("File(%q changed) = %v", old, err)
		}
		if rep.Failed() != 1 {
			t.Errorf("File(%q changed).Failed() = %d, want 1", old, rep.Failed())
		}
	}
}
