package ethlogs

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// hasher is a Keccak-256 state with its own output buffer, so that reading
// the digest does not make a stack array escape (crypto.Keccak256Hash
// allocates once per call; this path allocates nothing once the pool is warm).
type hasher struct {
	state crypto.KeccakState
	sum   common.Hash
}

var hashers = sync.Pool{New: func() any { return &hasher{state: crypto.NewKeccakState()} }}

// keccak256 returns the Keccak-256 digest of data (Ethereum's hash, not
// FIPS SHA3-256).
func keccak256(data []byte) common.Hash {
	h := hashers.Get().(*hasher)
	h.state.Reset()
	h.state.Write(data)
	h.state.Read(h.sum[:])
	sum := h.sum
	hashers.Put(h)
	return sum
}

// keccakPrefix returns the first six bytes of the Keccak-256 digest of data:
// all a bloom uses. Squeezing six bytes instead of 32 saves a copy.
func keccakPrefix(data []byte) [6]byte {
	h := hashers.Get().(*hasher)
	h.state.Reset()
	h.state.Write(data)
	h.state.Read(h.sum[:6])
	var out [6]byte
	copy(out[:], h.sum[:6])
	hashers.Put(h)
	return out
}
