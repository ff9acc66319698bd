package privacy

import (
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// bitcoinj's historical wallet policy (Wallet.getBloomFilter, PeerGroup):
// the filter is sized for twice the keys plus 100 (each key inserts its
// public key and its hash), at a false-positive rate of 0.05 %, and rebuilt
// with a fresh random tweak whenever the wallet restarts.
const (
	bitcoinjFPRate = 0.0005
	bitcoinjSlack  = 100
)

// bitcoinjElements returns the element count bitcoinj sizes a filter for:
// 2·keys + 100.
func bitcoinjElements(keys int) uint32 { return uint32(2*keys + bitcoinjSlack) }

// bitcoinjHashFuncs returns the number of hash functions bitcoinj's
// BloomFilter derives for a filter of size bytes sized for elements:
// ⌊size·8 / elements · ln 2⌋ with a floating-point division, clamped to
// [1, 50]. Core divides in integers first ([bip37.Params]) and so may derive
// one fewer.
func bitcoinjHashFuncs(size int, elements uint32) uint32 {
	k := uint32(float64(size*8) / float64(elements) * math.Ln2)
	return min(max(k, 1), bip37.MaxHashFuncs)
}

// newBitcoinjFilter returns the empty filter bitcoinj builds for elements at
// fpRate: Core's size (bitcoinj's formula is the same), bitcoinj's hash
// count, and the P2PUBKEY_ONLY update flag bitcoinj sends by default.
func newBitcoinjFilter(elements uint32, fpRate float64, tweak uint32) (*bip37.Filter, error) {
	size, _, err := bip37.Params(elements, fpRate)
	if err != nil {
		return nil, fmt.Errorf("privacy: %w", err)
	}
	return bip37.Load(make([]byte, size), bitcoinjHashFuncs(size, elements), tweak, bip37.UpdateP2PubKeyOnly)
}

// expectedFPRate returns the false-positive rate of a filter whose fill is
// the expected one, [bloom.ExpectedFill]^k. The exact mean over random
// filters, E[(X/m)^k], is larger by a Jensen gap of relative size about
// k(k-1)·Var(X/m)/(2·fill²), below 0.1 % for the filters here.
func expectedFPRate(m, k, n float64) float64 {
	return math.Pow(bloom.ExpectedFill(m, k, n), k)
}
