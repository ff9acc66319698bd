package spv

import (
	"fmt"
	"strings"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Network is a chain a [Session] talks to and a [Chain] verifies. Params
// holds btcd's chain parameters, which carry all that chainsieve needs to
// know of a network: its name, consensus rules (genesis block, proof-of-work
// limit, difficulty rules, checkpoints), address encodings, and P2P settings
// (message magic, DefaultPort, DNSSeeds and whether each seed serves nodes
// by service bit). A light client asks a peer for the services its filter
// protocol needs (wire.SFNodeCF for BIP157, wire.SFNodeBloom for BIP37;
// see [Config.Services]); DNS seeds that answer by service bit are those
// with HasFiltering.
//
// [Networks] is chainsieve's one table of networks: the CLI and the
// privacy report name and parse networks and addresses through it.
type Network struct {
	Params *chaincfg.Params

	// PoWHash returns the hash compared with a header's target. Nil means
	// the block hash (double SHA-256), as on every Bitcoin network; a
	// chain of another proof-of-work function (Litecoin's scrypt) sets it.
	PoWHash func(*wire.BlockHeader) chainhash.Hash
}

// The Bitcoin networks chainsieve knows.
var (
	Mainnet  = &Network{Params: &chaincfg.MainNetParams}
	Testnet3 = &Network{Params: &chaincfg.TestNet3Params}
	Testnet4 = &Network{Params: &chaincfg.TestNet4Params}
	Signet   = &Network{Params: &chaincfg.SigNetParams}
	Regtest  = &Network{Params: &chaincfg.RegressionNetParams}
)

// Networks returns the Bitcoin networks chainsieve knows: mainnet,
// testnet3, testnet4, signet and regtest, in that order.
func Networks() []*Network { return []*Network{Mainnet, Testnet3, Testnet4, Signet, Regtest} }

// testnetAlias is the name Bitcoin Core's -testnet option gives testnet3.
const testnetAlias = "testnet"

// ParseNetwork returns the network of [Networks] whose [Network.Name] is
// name ("mainnet", "testnet3", "testnet4", "signet" or "regtest"), or
// testnet3 for "testnet", as Bitcoin Core names it.
func ParseNetwork(name string) (*Network, error) {
	if name == testnetAlias {
		return Testnet3, nil
	}
	for _, n := range Networks() {
		if n.Name() == name {
			return n, nil
		}
	}
	return nil, fmt.Errorf("spv: unknown network %q (want %s)", name, NetworkNames())
}

// NetworkNames lists the names [ParseNetwork] accepts, for help texts and
// messages: "mainnet, testnet (testnet3), testnet4, signet or regtest".
func NetworkNames() string {
	var names []string
	for _, n := range Networks() {
		name := n.Name()
		if n == Testnet3 {
			name = testnetAlias + " (" + name + ")"
		}
		names = append(names, name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Known returns the network of [Networks] that n is, or copies: the one
// with n's genesis block. It returns nil for a chain chainsieve does not
// know (Litecoin's regtest, in tests). Tables of values published per
// network ([Anchors], cfscan's filter-header checkpoints) are keyed by it.
func (n *Network) Known() *Network {
	for _, k := range Networks() {
		if *k.Params.GenesisHash == *n.Params.GenesisHash {
			return k
		}
	}
	return nil
}

// Name returns the network's name from its parameters.
func (n *Network) Name() string { return n.Params.Name }

// ParseAddress decodes an address of network n: base58 P2PKH and P2SH,
// bech32 and bech32m segwit addresses, or a hex public key (P2PK). An
// address of another network is an error.
func (n *Network) ParseAddress(s string) (address.Address, error) {
	a, err := address.DecodeAddress(s, n.Params)
	if err != nil {
		return nil, fmt.Errorf("spv: address %q: %w", s, err)
	}
	if !a.IsForNet(n.Params) {
		return nil, fmt.Errorf("spv: address %q is not for %s", s, n.Name())
	}
	return a, nil
}

// powHash returns the hash h's proof of work is measured on.
func (n *Network) powHash(h *wire.BlockHeader) chainhash.Hash {
	if n.PoWHash != nil {
		return n.PoWHash(h)
	}
	return h.BlockHash()
}
