package descriptor_test

import (
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/chainsieve/chainsieve/testvectors/verify"
)

// TestVectors checks the BIP380, 381, 382, 386, 389 and BIP86 vectors and
// Bitcoin Core's public-key descriptor checks, through the same checker as
// `chainsieve vectors verify`.
func TestVectors(t *testing.T) {
	data, err := testvectors.Read("descriptor/descriptors.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.File(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Status != verify.Pass {
			t.Errorf("%s: %s: %s", r.Name, r.Status, r.Detail)
		}
	}
	if len(rep.Results) != 143 {
		t.Errorf("checked %d descriptor vectors, want 143", len(rep.Results))
	}
}
