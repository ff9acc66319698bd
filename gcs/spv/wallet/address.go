package wallet

import "github.com/btcsuite/btcd/address/v2"

// Address returns a chain of one fixed address, for a wallet that watches
// addresses besides (or instead of) descriptors.
func Address(a address.Address) Source { return fixed{a} }

type fixed struct{ a address.Address }

func (f fixed) Address(uint32) (address.Address, error) { return f.a, nil }
func (f fixed) Ranged() bool                            { return false }
func (f fixed) String() string                          { return "addr(" + f.a.EncodeAddress() + ")" }
