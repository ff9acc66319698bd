package descriptor_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// oracleAddress derives the address of form at m/purpose'/coin'/0'/change/index
// from the master key with btcd alone: private derivation all the way,
// then hdkeychain, address and txscript as a wallet would call them.
func oracleAddress(t *testing.T, master *hdkeychain.ExtendedKey, path []uint32, form descriptor.Form, net *chaincfg.Params) address.Address {
	t.Helper()
	k := master
	for _, step := range path {
		var err error
		if k, err = k.Derive(step); err != nil {
			t.Skipf("invalid child on the oracle's path %v: %v", path, err) // probability 2^-127
		}
	}
	pub, err := k.ECPubKey()
	if err != nil {
		t.Fatal(err)
	}
	var a address.Address
	switch form {
	case descriptor.PKH:
		a, err = k.Address(net)
	case descriptor.WPKH:
		a, err = address.NewAddressWitnessPubKeyHash(address.Hash160(pub.SerializeCompressed()), net)
	case descriptor.SHWPKH:
		var w address.Address
		w, err = address.NewAddressWitnessPubKeyHash(address.Hash160(pub.SerializeCompressed()), net)
		if err == nil {
			var redeem []byte
			redeem, err = txscript.PayToAddrScript(w)
			if err == nil {
				a, err = address.NewAddressScriptHash(redeem, net)
			}
		}
	case descriptor.TR:
		a, err = address.NewAddressTaproot(schnorr.SerializePubKey(txscript.ComputeTaprootKeyNoScript(pub)), net)
	}
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestDifferentialBtcd derives receive and change addresses of random
// wallets on every network from a descriptor over the account xpub, and
// compares each with what btcd's hdkeychain, address and txscript give
// when called directly on the master key's private derivation path.
func TestDifferentialBtcd(t *testing.T) {
	rng := rand.New(rand.NewChaCha8([32]byte{'c', 's', 'd', 'e', 's', 'c'}))
	nets := []*chaincfg.Params{&chaincfg.MainNetParams, &chaincfg.TestNet3Params, &chaincfg.TestNet4Params,
		&chaincfg.SigNetParams, &chaincfg.RegressionNetParams}
	forms := []struct {
		form    descriptor.Form
		text    string
		purpose uint32
	}{{descriptor.PKH, "pkh(%s)", 44}, {descriptor.WPKH, "wpkh(%s)", 84}, {descriptor.SHWPKH, "sh(wpkh(%s))", 49}, {descriptor.TR, "tr(%s)", 86}}
	wallets, perChain := 4, 6
	if testing.Short() {
		wallets, perChain = 2, 3
	}
	compared := 0
	for _, net := range nets {
		for w := range wallets {
			seed := make([]byte, 32)
			for i := range seed {
				seed[i] = byte(rng.Uint32())
			}
			master, err := hdkeychain.NewMaster(seed, net)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range forms {
				h := uint32(hdkeychain.HardenedKeyStart)
				account := []uint32{f.purpose + h, net.HDCoinType + h, uint32(w) + h}
				acct := master
				for _, s := range account {
					if acct, err = acct.Derive(s); err != nil {
						t.Skip(err)
					}
				}
				xpub, err := acct.Neuter()
				if err != nil {
					t.Fatal(err)
				}
				fp := master.ParentFingerprint() // any 4 bytes: the origin is metadata
				origin := fmt.Sprintf("[%08x/%dh/%dh/%dh]", fp, f.purpose, net.HDCoinType, w)
				text := fmt.Sprintf(f.text, origin+xpub.String()+"/<0;1>/*")
				d, err := descriptor.Parse(text, net)
				if err != nil {
					t.Fatalf("Parse(%s, %s): %v", text, net.Name, err)
				}
				for change, chain := range d.Expand() {
					for i := range uint32(perChain) {
						want := oracleAddress(t, master, append(account, uint32(change), i), f.form, net)
						got, err := chain.Address(i)
						if err != nil || got.EncodeAddress() != want.EncodeAddress() {
							t.Fatalf("%s on %s: Address(%d) = %v, %v; want %s", chain, net.Name, i, got, err, want.EncodeAddress())
						}
						script, err := chain.Script(i)
						wantScript, _ := txscript.PayToAddrScript(want)
						if err != nil || !bytes.Equal(script, wantScript) {
							t.Fatalf("%s: Script(%d) = %x, %v; want %x", chain, i, script, err, wantScript)
						}
						if back, err := address.DecodeAddress(got.EncodeAddress(), net); err != nil || !back.IsForNet(net) {
							t.Fatalf("%s does not decode back on %s: %v", got.EncodeAddress(), net.Name, err)
						}
						compared++
					}
				}
			}
		}
	}
	t.Logf("%d addresses equal btcd's over %d networks, 4 forms", compared, len(nets))
}
