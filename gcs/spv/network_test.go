package spv

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
)

func TestParseNetwork(t *testing.T) {
	for name, want := range map[string]*Network{"mainnet": Mainnet, "testnet": Testnet3, "testnet3": Testnet3,
		"testnet4": Testnet4, "signet": Signet, "regtest": Regtest} {
		n, err := ParseNetwork(name)
		if err != nil || n != want {
			t.Errorf("ParseNetwork(%q) = %v, %v, want %s", name, n, err, want.Name())
		}
		if _, err := NewChain(n); err != nil {
			t.Errorf("NewChain(%s) = %v", name, err)
		}
	}
	for _, n := range Networks() {
		if got, err := ParseNetwork(n.Name()); got != n || err != nil {
			t.Errorf("ParseNetwork(%q) = %v, %v, want that network", n.Name(), got, err)
		}
		if !strings.Contains(NetworkNames(), n.Name()) {
			t.Errorf("NetworkNames() = %q, without %s", NetworkNames(), n.Name())
		}
	}
	for _, name := range []string{"litecoin", "simnet", "Mainnet", ""} {
		if _, err := ParseNetwork(name); err == nil || !strings.Contains(err.Error(), NetworkNames()) {
			t.Errorf("ParseNetwork(%q) = %v, want an error listing %s", name, err, NetworkNames())
		}
	}
}

// addressesOf returns one address of each type ParseAddress accepts for
// net, from a fixed key, encoded by btcd: P2PKH, P2SH, P2WPKH, P2WSH, P2TR
// and P2PK, the last as its hex public key.
func addressesOf(t *testing.T, net *chaincfg.Params) map[string]address.Address {
	t.Helper()
	_, pub := btcec.PrivKeyFromBytes(bytes.Repeat([]byte{1}, 32))
	key := pub.SerializeCompressed()
	h := address.Hash160(key)
	wsh := sha256.Sum256(key)
	out := map[string]address.Address{}
	add := func(a address.Address, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		s := a.EncodeAddress()
		if _, ok := a.(*address.AddressPubKey); ok {
			s = a.String()
		}
		out[s] = a
	}
	add(address.NewAddressPubKeyHash(h, net))
	add(address.NewAddressScriptHash(key, net))
	add(address.NewAddressWitnessPubKeyHash(h, net))
	add(address.NewAddressWitnessScriptHash(wsh[:], net))
	add(address.NewAddressTaproot(key[1:], net))
	add(address.NewAddressPubKey(key, net))
	return out
}

func TestParseAddress(t *testing.T) {
	for _, n := range Networks() {
		for s, want := range addressesOf(t, n.Params) {
			got, err := n.ParseAddress(s)
			if err != nil || got.String() != want.String() || !bytes.Equal(got.ScriptAddress(), want.ScriptAddress()) {
				t.Errorf("%s.ParseAddress(%s) = %v, %v, want %v", n.Name(), s, got, err, want)
			}
		}
	}
	// Mainnet and regtest share no encoding but the hex public key.
	for s, a := range addressesOf(t, Regtest.Params) {
		if _, ok := a.(*address.AddressPubKey); ok {
			continue
		}
		if _, err := Mainnet.ParseAddress(s); err == nil {
			t.Errorf("mainnet.ParseAddress(%s, a regtest address) = nil error", s)
		}
	}
	if _, err := Mainnet.ParseAddress("not an address"); err == nil || !strings.HasPrefix(err.Error(), "spv: ") {
		t.Errorf(`mainnet.ParseAddress("not an address") = %v, want an spv error`, err)
	}
}
