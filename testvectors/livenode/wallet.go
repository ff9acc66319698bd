package livenode

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/btcsuite/btcd/btcec/v2/schnorr"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// AddrType is a kind of output script the [Wallet] can receive and spend.
type AddrType int

// The address types, each with a single-key script.
const (
	P2PKH  AddrType = iota // pay to public key hash (compressed key)
	P2WPKH                 // pay to witness public key hash, segwit v0
	P2TR                   // pay to taproot, BIP86 key-path spend (no script tree)
)

func (k AddrType) String() string {
	switch k {
	case P2PKH:
		return "P2PKH"
	case P2WPKH:
		return "P2WPKH"
	case P2TR:
		return "P2TR"
	}
	return fmt.Sprintf("AddrType(%d)", int(k))
}

// Addr is one address of a [Wallet] and the key that spends it.
type Addr struct {
	Type    AddrType
	Index   uint32            // key index within the wallet
	Key     *btcec.PrivateKey // for a P2TR address, the internal key
	Address address.Address   // encoded with the wallet's chain parameters
	Script  []byte            // the output script (scriptPubKey)
}

// Pay returns a payment of value satoshis to a.
func (a *Addr) Pay(value int64) Payment { return Payment{Script: a.Script, Value: value} }

func (a *Addr) String() string { return a.Address.EncodeAddress() }

// Wallet is a deterministic regtest wallet for tests: the same seed gives
// the same keys and addresses, a different seed unrelated ones (use a
// second wallet as the "unrelated" party). It learns its coins from blocks
// ([Wallet.Sync]) and from what it sends ([Wallet.Send]), and records
// every transaction that pays or spends one of its addresses ([Tx]).
//
// A Wallet is not safe for concurrent use. It assumes the chain it syncs
// never reorganizes, which holds for a regtest node only one test mines.
type Wallet struct {
	params   *chaincfg.Params
	seed     string
	addrs    []*Addr
	byScript map[string]*Addr
	coins    map[wire.OutPoint]Coin
	txs      map[chainhash.Hash]*Tx
	order    []*Tx // txs in the order first seen
	tip      int32 // height of the last block synced, -1 before any
	tipHash  chainhash.Hash
}

// NewWallet returns an empty wallet whose keys derive from seed; params
// encodes its addresses (chaincfg.RegressionNetParams for both btcd and
// litecoind, whose scripts are the same).
func NewWallet(seed string, params *chaincfg.Params) *Wallet {
	return &Wallet{
		params:   params,
		seed:     seed,
		byScript: make(map[string]*Addr),
		coins:    make(map[wire.OutPoint]Coin),
		txs:      make(map[chainhash.Hash]*Tx),
		tip:      -1,
	}
}

// NewAddress returns a new address of type k with its own key. Keys are
// derived in the order addresses are made, so a test that makes them in
// the same order gets the same addresses.
func (w *Wallet) NewAddress(k AddrType) *Addr {
	idx := uint32(len(w.addrs))
	key := w.key(idx)
	a, err := newAddr(k, idx, key, w.params)
	if err != nil {
		panic(err) // only an unknown AddrType or broken params get here
	}
	w.addrs = append(w.addrs, a)
	w.byScript[string(a.Script)] = a
	return a
}

// Addresses returns the wallet's addresses in the order they were made.
func (w *Wallet) Addresses() []*Addr { return append([]*Addr(nil), w.addrs...) }

// Owner returns the wallet address whose output script is script, or nil.
func (w *Wallet) Owner(script []byte) *Addr { return w.byScript[string(script)] }

// key derives key idx as SHA-256(tag || seed || idx). A zero scalar is as
// likely as guessing a private key, so it is not handled.
func (w *Wallet) key(idx uint32) *btcec.PrivateKey {
	h := sha256.New()
	h.Write([]byte("chainsieve/livenode wallet key\x00"))
	h.Write([]byte(w.seed))
	h.Write(binary.BigEndian.AppendUint32(nil, idx))
	priv, _ := btcec.PrivKeyFromBytes(h.Sum(nil))
	return priv
}

// newAddr builds the address of type k for key.
func newAddr(k AddrType, idx uint32, key *btcec.PrivateKey, params *chaincfg.Params) (*Addr, error) {
	pub := key.PubKey()
	var addr address.Address
	var err error
	switch k {
	case P2PKH:
		addr, err = address.NewAddressPubKeyHash(address.Hash160(pub.SerializeCompressed()), params)
	case P2WPKH:
		addr, err = address.NewAddressWitnessPubKeyHash(address.Hash160(pub.SerializeCompressed()), params)
	case P2TR:
		out := txscript.ComputeTaprootKeyNoScript(pub)
		addr, err = address.NewAddressTaproot(schnorr.SerializePubKey(out), params)
	default:
		return nil, fmt.Errorf("livenode: unknown address type %v", k)
	}
	if err != nil {
		return nil, fmt.Errorf("livenode: %v address: %v", k, err)
	}
	script, err := txscript.PayToAddrScript(addr)
	if err != nil {
		return nil, fmt.Errorf("livenode: %v script: %v", k, err)
	}
	return &Addr{Type: k, Index: idx, Key: key, Address: addr, Script: script}, nil
}
