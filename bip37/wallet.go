package bip37

import (
	"fmt"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// AddressElement returns the element that makes outputs paying to addr match
// a filter: the data push their output script carries. That is the 20-byte
// key hash (P2PKH), script hash (P2SH) or witness program (P2WPKH), the
// 32-byte witness program (P2WSH) or output key (P2TR), or the public key as
// serialised in the script (P2PK). Other address types are an error.
//
// The element finds payments to addr, not spends from it: spends match by
// their outpoints, which [UpdateAll] inserts as outputs match, or which the
// wallet inserts itself ([Filter.AddOutPoint]). A spend from a segwit output
// has no other data the filter sees; a P2PKH spend also pushes the public
// key, which a wallet holding it may insert.
func AddressElement(addr address.Address) ([]byte, error) {
	switch a := addr.(type) {
	case *address.AddressPubKeyHash, *address.AddressScriptHash,
		*address.AddressWitnessPubKeyHash, *address.AddressWitnessScriptHash,
		*address.AddressTaproot, *address.AddressPubKey:
		return a.ScriptAddress(), nil
	case nil:
		return nil, fmt.Errorf("bip37: nil address")
	}
	return nil, fmt.Errorf("bip37: no filter element for address %s of type %T", addr, addr)
}

// AddAddress inserts [AddressElement](addr).
func (f *Filter) AddAddress(addr address.Address) error {
	e, err := AddressElement(addr)
	if err != nil {
		return err
	}
	f.Add(e)
	return nil
}

// NewWalletFilter returns a filter for a wallet watching addrs, whose unspent
// outputs are outpoints: it holds one element per address
// ([AddressElement]) and per outpoint, and is sized for exactly that many
// elements at fpRate. With [UpdateAll] the serving node inserts the
// outpoint of every output that matches, so later spends from it match too;
// each fills the filter further: a filter for one address at 0.05 % is
// one byte, full after about a dozen payments. A wallet that expects
// payments uses [WalletPolicy], which sizes with room and says when to
// rebuild.
func NewWalletFilter(addrs []address.Address, outpoints []wire.OutPoint, fpRate float64, tweak uint32, flags Flags) (*Filter, error) {
	f, err := New(uint32(len(addrs)+len(outpoints)), fpRate, tweak, flags)
	if err != nil {
		return nil, err
	}
	if err := f.addWallet(addrs, outpoints); err != nil {
		return nil, err
	}
	return f, nil
}

// addWallet inserts the element of each address and each outpoint.
func (f *Filter) addWallet(addrs []address.Address, outpoints []wire.OutPoint) error {
	for _, a := range addrs {
		if err := f.AddAddress(a); err != nil {
			return err
		}
	}
	for _, op := range outpoints {
		f.AddOutPoint(op)
	}
	return nil
}
