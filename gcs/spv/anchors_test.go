package spv

import (
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
)

// TestAnchorsTranscribed checks every embedded anchor: each bitcoinj line
// decodes to a header whose proof of work meets its own target within the
// network's limit (a mistyped character would break it) at the height the
// pair implies; every anchor is two retarget periods' ends or starts apart
// by one period, and its locator is below the headers the rules need.
func TestAnchorsTranscribed(t *testing.T) {
	for n, lines := range map[*Network][]string{Mainnet: mainnetLines, Testnet3: testnet3Lines} {
		for i, line := range lines {
			h, hdr := bitcoinjLine(line)
			if err := n.checkProofOfWork(&hdr); err != nil || h%2016 != 0 {
				t.Errorf("%s bitcoinj line %d: height %d, proof of work %v", n.Name(), i, h, err)
			}
		}
	}
	for _, n := range []*Network{Mainnet, Testnet3, Testnet4, Signet} {
		c, err := NewChain(n)
		if err != nil {
			t.Fatal(err)
		}
		as := Anchors(n)
		if len(as) == 0 {
			t.Errorf("%s has no anchors", n.Name())
		}
		for i, a := range as {
			if i > 0 && a.Height <= as[i-1].Height {
				t.Errorf("%s anchors out of order at %d", n.Name(), a.Height)
			}
			if a.Height-a.LocatorHeight != 2016 || (a.Height%2016 != 0 && a.Height%2016 != 2015) {
				t.Errorf("%s anchor %d, locator %d: want 2016 apart, at a period's start or end", n.Name(), a.Height, a.LocatorHeight)
			}
			if err := c.checkAnchor(&a, a.Height); err != nil {
				t.Errorf("%s anchor %d: %v", n.Name(), a.Height, err)
			}
			for _, h := range []chainhash.Hash{a.Hash, a.Locator} {
				if blockchain.HashToBig(&h).Cmp(n.Params.PowLimit) > 0 {
					t.Errorf("%s anchor %d: hash %s above the proof-of-work limit", n.Name(), a.Height, h)
				}
			}
		}
	}
}

// TestElectrumConvention checks, on mainnet, the reading of Electrum's
// checkpoint files that the testnet4 and signet anchors rely on (entry i
// is block 2016·(i+1)-1), against bitcoinj's file: the header bitcoinj
// publishes at 2016·(i+1) names Electrum's entry i as its parent.
func TestElectrumConvention(t *testing.T) {
	bitcoinj := []string{ // org.bitcoin.production.checkpoints.txt, lines 1 and 2 (heights 2016, 4032)
		"AAAAAAAAB+EH4QfhAAAH4AEAAABjl7tqvU/FIcDT9gcbVlA4nwtFUbxAtOawZzBpAAAAAKzkcK7NqciBjI/ldojNKncrWleVSgDfBCCn3VRrbSxXaw5/Sf//AB0z8Bkv",
		"AAAAAAAAD8EPwQ/BAAAPwAEAAADfP83Sx8MZ9RsrnZCvqzAwqB2Ma+ZesNAJrTfwAAAAACwESaNKhvRgz6WuE7UFdFk1xwzfRY/OIdIOPzX5yaAdjnWUSf//AB0GrNq5",
	}
	electrum := []string{ // electrum/chains/mainnet/checkpoints.json (commit 08fa871f…), entries 0 and 1
		"00000000693067b0e6b440bc51450b9f3850561b07f6d3c021c54fbd6abb9763",
		"00000000f037ad09d0b05ee66b8c1da83030abaf909d2b1bf519c3c7d2cd3fdf",
	}
	for i := range bitcoinj {
		h, hdr := bitcoinjLine(bitcoinj[i])
		if want := displayHash(electrum[i]); h != 2016*int32(i+1) || hdr.PrevBlock != want {
			t.Errorf("bitcoinj header at %d has parent %s; Electrum entry %d is %s", h, hdr.PrevBlock, i, want)
		}
	}
}

func TestAnchorFor(t *testing.T) {
	tests := []struct {
		birthday, want int32
	}{
		{0, -1}, {100799, -1}, {100800, 100800}, {659999, 659232}, {900000, 822528},
	}
	for _, tt := range tests {
		got := int32(-1)
		if a := AnchorFor(Mainnet, tt.birthday); a != nil {
			got = a.Height
		}
		if got != tt.want {
			t.Errorf("AnchorFor(mainnet, %d) = %d, want %d", tt.birthday, got, tt.want)
		}
	}
	if a := AnchorFor(Regtest, 1e6); a != nil {
		t.Errorf("AnchorFor(regtest) = %+v, want none", a)
	}
}
