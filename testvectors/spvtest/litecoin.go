package spvtest

import (
	"bytes"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"golang.org/x/crypto/scrypt"
)

// LitecoinRegtest is Litecoin Core's regtest chain as package spv sees it:
// Bitcoin's regtest message magic and difficulty rules (no retargeting),
// Litecoin's genesis block, and scrypt proof of work. litecoind is a Bitcoin
// Core code base that serves BIP37 and BIP157 as Core does.
var LitecoinRegtest = litecoinRegtest()

// litecoinGenesis is the header of Litecoin's regtest genesis block
// (chainparams.cpp: CreateGenesisBlock(1296688602, 0, 0x207fffff, 1,
// 50 * COIN)); its hash is 530827f3…c416f9, which a node test checks
// against litecoind's getblockhash 0.
var litecoinGenesis = wire.BlockHeader{
	Version:    1,
	MerkleRoot: mustHash("97ddfbbae6be97fd6cdf3e7ca13232a3afff2353e29badfab7f73011edd4ced9"),
	Timestamp:  time.Unix(1296688602, 0),
	Bits:       0x207fffff,
	Nonce:      0,
}

func litecoinRegtest() *spv.Network {
	p := chaincfg.RegressionNetParams
	p.Name = "litecoin-regtest"
	hash := litecoinGenesis.BlockHash()
	p.GenesisHash = &hash
	p.GenesisBlock = &wire.MsgBlock{Header: litecoinGenesis}
	p.Checkpoints = nil
	return &spv.Network{Params: &p, PoWHash: scryptHash}
}

// scryptHash is Litecoin's proof-of-work hash: scrypt with N = 1024, r = 1,
// p = 1 of the 80-byte header, salted with itself.
func scryptHash(h *wire.BlockHeader) chainhash.Hash {
	var buf bytes.Buffer
	h.Serialize(&buf)
	key, err := scrypt.Key(buf.Bytes(), buf.Bytes(), 1024, 1, 1, chainhash.HashSize)
	if err != nil {
		panic(err) // only invalid parameters fail, and these are constants
	}
	return chainhash.Hash(key)
}

func mustHash(display string) chainhash.Hash {
	h, err := chainhash.NewHashFromStr(display)
	if err != nil {
		panic(err)
	}
	return *h
}
