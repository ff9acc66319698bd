package spv

import (
	"fmt"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Network is a chain a [Session] talks to and a [Chain] verifies: btcd's
// chain parameters (message magic, genesis block, proof-of-work limit,
// difficulty rules, checkpoints) and the hash that proof of work is
// measured on.
type Network struct {
	Params *chaincfg.Params

	// PoWHash returns the hash compared with a header's target. Nil means
	// the block hash (double SHA-256), as on every Bitcoin network; a
	// chain of another proof-of-work function (Litecoin's scrypt) sets it.
	PoWHash func(*wire.BlockHeader) chainhash.Hash
}

// The Bitcoin networks [ParseNetwork] knows.
var (
	Mainnet  = &Network{Params: &chaincfg.MainNetParams}
	Testnet3 = &Network{Params: &chaincfg.TestNet3Params}
	Testnet4 = &Network{Params: &chaincfg.TestNet4Params}
	Signet   = &Network{Params: &chaincfg.SigNetParams}
	Regtest  = &Network{Params: &chaincfg.RegressionNetParams}
)

// ParseNetwork returns the Bitcoin network called name: "mainnet",
// "testnet" (testnet3), "testnet3", "testnet4", "signet" or "regtest".
func ParseNetwork(name string) (*Network, error) {
	switch name {
	case "mainnet":
		return Mainnet, nil
	case "testnet", "testnet3":
		return Testnet3, nil
	case "testnet4":
		return Testnet4, nil
	case "signet":
		return Signet, nil
	case "regtest":
		return Regtest, nil
	}
	return nil, fmt.Errorf("spv: unknown network %q (want mainnet, testnet, testnet4, signet or regtest)", name)
}

// Name returns the network's name from its parameters.
func (n *Network) Name() string { return n.Params.Name }

// powHash returns the hash h's proof of work is measured on.
func (n *Network) powHash(h *wire.BlockHeader) chainhash.Hash {
	if n.PoWHash != nil {
		return n.PoWHash(h)
	}
	return h.BlockHash()
}
