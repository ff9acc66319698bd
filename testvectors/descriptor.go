package testvectors

import (
	"encoding/json"
	"fmt"
)

// DescriptorFile is descriptor/descriptors.json: BIP380 output script
// descriptors from BIP380, 381, 382, 386, 389, BIP86 and Bitcoin Core's
// descriptor_tests.cpp. Every descriptor is for mainnet.
type DescriptorFile struct {
	Source      json.RawMessage      `json:"source"`
	Checksums   []DescriptorChecksum `json:"checksums"`
	Keys        []DescriptorKey      `json:"keys"`
	Descriptors []DescriptorVector   `json:"descriptors"`
	Combo       []DescriptorVector   `json:"combo"`
	Invalid     []DescriptorVector   `json:"invalid"`
	BIP86       BIP86Vectors         `json:"bip86"`
}

// DescriptorChecksum is a descriptor whose '#' checksum is valid or not.
// Checksum, when given, is the correct checksum of the part before '#'
// (for an invalid one, the value Bitcoin Core's error message states).
type DescriptorChecksum struct {
	Name       string `json:"name"`
	Descriptor string `json:"descriptor"`
	Valid      bool   `json:"valid"`
	Checksum   string `json:"checksum"`
}

// DescriptorKey is a BIP380 key expression, valid or not as the BIP lists
// it. The BIP gives no scripts for them.
type DescriptorKey struct {
	Name  string `json:"name"`
	Key   string `json:"key"`
	Valid bool   `json:"valid"`
}

// DescriptorVector is a descriptor with, when published, the scripts it
// produces: Scripts[p][i] is the output script at child index i of path p
// (the multipath alternatives in order; one path otherwise). A descriptor
// that is not ranged has one script per path. Expanded lists the
// single-path descriptors a multipath descriptor stands for. CoreFlags are
// Bitcoin Core's test flags (HARDENED: deriving needs private keys).
type DescriptorVector struct {
	Name       string   `json:"name"`
	Descriptor string   `json:"descriptor"`
	Scripts    [][]Hex  `json:"scripts"`
	Expanded   []string `json:"expanded"`
	CoreFlags  []string `json:"core_flags"`
	SourceNote string   `json:"source"`
}

// BIP86Vectors are BIP86's test vectors: an account extended public key
// and the taproot keys, scripts and addresses of children of it.
type BIP86Vectors struct {
	Network     string         `json:"network"`
	AccountPath string         `json:"account_path"`
	AccountXpub string         `json:"account_xpub"`
	Addresses   []BIP86Address `json:"addresses"`
}

// BIP86Address is one derived address; Path is the full BIP32 path from
// the master key, of which the last two steps follow the account.
type BIP86Address struct {
	Name         string `json:"name"`
	Path         string `json:"path"`
	InternalKey  Hex    `json:"internal_key"`
	OutputKey    Hex    `json:"output_key"`
	ScriptPubKey Hex    `json:"script_pubkey"`
	Address      string `json:"address"`
}

// ParseDescriptors decodes a [Descriptor] file.
func ParseDescriptors(data []byte) (*DescriptorFile, error) {
	var f DescriptorFile
	return &f, decode(data, &f)
}

func (f *DescriptorFile) check() error {
	if len(f.Checksums)+len(f.Keys)+len(f.Descriptors)+len(f.Invalid) == 0 {
		return missing("file", "descriptors")
	}
	for i, v := range append(append(f.Descriptors, f.Combo...), f.Invalid...) {
		if v.Descriptor == "" {
			return missing(fmt.Sprintf("descriptor vector %d", i), "descriptor")
		}
	}
	for i, k := range f.Keys {
		if k.Key == "" {
			return missing(fmt.Sprintf("key %d", i), "key")
		}
	}
	for i, a := range f.BIP86.Addresses {
		if len(a.ScriptPubKey) == 0 || a.Path == "" {
			return missing(fmt.Sprintf("bip86 address %d", i), "script_pubkey and path")
		}
	}
	return nil
}
