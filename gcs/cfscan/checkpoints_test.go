package cfscan

import (
	"testing"

	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors"
)

// TestCheckpointsBIP158 checks the testnet3 filter headers taken from the
// BIP158 vectors against the vector file itself.
func TestCheckpointsBIP158(t *testing.T) {
	data, err := testvectors.Read("bip158/testnet-19.json")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := testvectors.ParseBIP158Table(data)
	if err != nil {
		t.Fatal(err)
	}
	byHeight := map[uint32][32]byte{}
	for _, p := range Checkpoints(spv.Testnet3) {
		byHeight[p.Height] = p.Header
	}
	for _, r := range rows {
		if got, ok := byHeight[r.Height]; !ok || got != [32]byte(r.Header) {
			t.Errorf("testnet3 checkpoint at %d = %x (present %v), the vector has %s", r.Height, got, ok, r.Header)
		}
	}
	for _, n := range []*spv.Network{spv.Mainnet, spv.Testnet3, spv.Testnet4} {
		ps := Checkpoints(n)
		for i := 1; i < len(ps); i++ {
			if ps[i].Height <= ps[i-1].Height {
				t.Errorf("%s checkpoints out of order at %d", n.Name(), ps[i].Height)
			}
		}
	}
	if Checkpoints(spv.Regtest) != nil || Checkpoints(spv.Signet) != nil {
		t.Errorf("regtest or signet has filter-header checkpoints")
	}
}
