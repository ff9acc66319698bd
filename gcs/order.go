package gcs

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// Bitcoin hashes have two hex spellings. Internal order is the SHA-256 output
// as hashed, stored on the wire and held by chainhash.Hash; display order is
// its byte reversal, which bitcoind and btcd RPCs, block explorers and the
// BIP158 vectors print for block hashes and filter headers (chainhash's
// String and NewHashFromStr use it too). Filters themselves are never
// reversed. These helpers name the order explicitly.

// ParseDisplayHash parses 64 hex digits in display order.
func ParseDisplayHash(s string) (chainhash.Hash, error) {
	h, err := ParseInternalHash(s)
	slices.Reverse(h[:])
	return h, err
}

// ParseInternalHash parses 64 hex digits in internal order.
func ParseInternalHash(s string) (chainhash.Hash, error) {
	var h chainhash.Hash
	if len(s) != 2*chainhash.HashSize {
		return h, fmt.Errorf("gcs: hash %q has %d hex digits, want 64", s, len(s))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return chainhash.Hash{}, fmt.Errorf("gcs: hash %q: %w", s, err)
	}
	return h, nil
}

// DisplayString returns h as 64 hex digits in display order, as h.String()
// does.
func DisplayString(h chainhash.Hash) string {
	slices.Reverse(h[:])
	return hex.EncodeToString(h[:])
}

// InternalString returns h as 64 hex digits in internal order.
func InternalString(h chainhash.Hash) string { return hex.EncodeToString(h[:]) }
