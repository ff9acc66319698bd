package privacy

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcec/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Key is one wallet entry as the elements its BIP37 filter holds: a public
// key and its hash160, as bitcoinj inserts them, or, for an address given
// without its key, the single element its output scripts push.
type Key struct {
	Name     string
	Elements [][]byte
}

// Paired reports whether the key's public key and its hash are both in the
// filter, so that an adversary testing a candidate key against both
// elements sees the wallet's key match.
func (k Key) Paired() bool { return len(k.Elements) == 2 }

// syntheticWallet returns n fresh compressed public keys from r, each with
// its hash160: the keys of a new bitcoinj wallet.
func syntheticWallet(r *rand.Rand, n int) []Key {
	keys := make([]Key, n)
	for i := range keys {
		_, pub := btcec.PrivKeyFromBytes(randomBytes(r, 32))
		pk := pub.SerializeCompressed()
		keys[i] = Key{Name: fmt.Sprintf("key %d", i), Elements: [][]byte{pk, address.Hash160(pk)}}
	}
	return keys
}

// ParseWallet reads a wallet file: one entry per line, either a hex public
// key (33 or 65 bytes; both the key and its hash160 go into the filter, as
// bitcoinj inserts them) or an address of any network (P2PKH, P2SH, P2WPKH,
// P2WSH, P2TR; its one filter element). Blank lines and lines starting with
// # are skipped. Errors name the line.
func ParseWallet(r io.Reader) ([]Key, error) {
	var keys []Key
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		k, err := parseKey(s)
		if err != nil {
			return nil, fmt.Errorf("privacy: wallet line %d: %w", line, err)
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("privacy: wallet: %w", err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("privacy: wallet has no keys or addresses")
	}
	return keys, nil
}

func parseKey(s string) (Key, error) {
	var err error
	// Testnet, signet and regtest share base58 versions, so the first
	// network that decodes the address is as good as any.
	for _, net := range spv.Networks() {
		var a address.Address
		if a, err = net.ParseAddress(s); err != nil {
			continue
		}
		e, err := bip37.AddressElement(a)
		if err != nil {
			return Key{}, err
		}
		if _, ok := a.(*address.AddressPubKey); ok {
			return Key{Name: s, Elements: [][]byte{e, address.Hash160(e)}}, nil
		}
		return Key{Name: s, Elements: [][]byte{e}}, nil
	}
	return Key{}, err
}
