package bip37

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// walletAddresses returns one address of each type for net, from a fixed
// key, encoded by btcd.
func walletAddresses(t *testing.T, net *chaincfg.Params, seed byte) []address.Address {
	t.Helper()
	_, pub := btcec.PrivKeyFromBytes(bytes.Repeat([]byte{seed}, 32))
	key := pub.SerializeCompressed()
	h := address.Hash160(key)
	redeem := append(append([]byte{0x51, 0x21}, key...), 0x51, 0xae)
	wsh := sha256.Sum256(redeem)
	must := func(a address.Address, err error) address.Address {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	return []address.Address{
		must(address.NewAddressPubKeyHash(h, net)),
		must(address.NewAddressScriptHash(redeem, net)),
		must(address.NewAddressWitnessPubKeyHash(h, net)),
		must(address.NewAddressWitnessScriptHash(wsh[:], net)),
		must(address.NewAddressTaproot(key[1:], net)),
		must(address.NewAddressPubKey(key, net)),
	}
}

// TestWalletFilter: for every address type and network, the address decodes
// back from its string, and a filter for it matches a payment to it (the
// script built by btcd) and no payment to another key.
func TestWalletFilter(t *testing.T) {
	for _, net := range []*chaincfg.Params{&chaincfg.MainNetParams, &chaincfg.TestNet3Params, &chaincfg.RegressionNetParams} {
		mine, theirs := walletAddresses(t, net, 1), walletAddresses(t, net, 2)
		for i, a := range mine {
			s := a.String()
			if _, ok := a.(*address.AddressPubKey); !ok {
				s = a.EncodeAddress()
			}
			parsed, err := address.DecodeAddress(s, net)
			if err != nil {
				t.Errorf("%s: address.DecodeAddress(%s) = %v", net.Name, s, err)
				continue
			}
			f, err := NewWalletFilter([]address.Address{parsed}, nil, 1e-6, 0, UpdateAll)
			if err != nil {
				t.Fatal(err)
			}
			pay, other := payTo(t, a), payTo(t, theirs[i])
			if !f.MatchTx(pay, pay.TxHash()) || f.MatchTx(other, other.TxHash()) {
				t.Errorf("%s %T: MatchTx(payment) = %v, MatchTx(other payment) = %v, want true, false",
					net.Name, a, f.MatchTx(pay, pay.TxHash()), f.MatchTx(other, other.TxHash()))
			}
		}
	}
}

func TestAddressElementUnsupported(t *testing.T) {
	anchor, err := address.NewAddressPayToAnchor(&chaincfg.MainNetParams)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AddressElement(anchor); err == nil {
		t.Errorf("AddressElement(P2A) = nil error")
	}
	if _, err := AddressElement(nil); err == nil {
		t.Errorf("AddressElement(nil) = nil error")
	}
}

// TestWalletFilterSegwitSpend: a spend from a P2WPKH output carries its key
// and signature in the witness, which no node matches; the wallet's
// outpoint makes it match.
func TestWalletFilterSegwitSpend(t *testing.T) {
	a := walletAddresses(t, &chaincfg.RegressionNetParams, 1)[2]
	pay := payTo(t, a)
	utxo := wire.OutPoint{Hash: pay.TxHash(), Index: 0}
	spend := withWitness(newTx(utxo, nil, []byte{0x6a}), bytes.Repeat([]byte{1}, 72))
	addrOnly, _ := NewWalletFilter([]address.Address{a}, nil, 1e-6, 0, UpdateNone)
	withUTXO, _ := NewWalletFilter([]address.Address{a}, []wire.OutPoint{utxo}, 1e-6, 0, UpdateNone)
	if addrOnly.MatchTx(spend, spend.TxHash()) || !withUTXO.MatchTx(spend, spend.TxHash()) {
		t.Errorf("segwit spend: matched by the address alone or not by the outpoint")
	}
}

func payTo(t *testing.T, a address.Address) *wire.MsgTx {
	t.Helper()
	script, err := txscript.PayToAddrScript(a)
	if err != nil {
		t.Fatal(err)
	}
	return newTx(prevOut, nil, script)
}
