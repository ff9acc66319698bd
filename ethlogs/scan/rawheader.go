package scan

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
)

// rawHeaderMethod asks a node for a header's consensus RLP encoding
// (go-ethereum, Erigon, Nethermind and Reth serve it in the debug
// namespace). Its hash is then the Keccak-256 of the bytes received,
// with no JSON to decode and no re-encoding to hash: about half the
// client's time per header against eth_getHeaderByNumber.
const rawHeaderMethod = "debug_getRawHeader"

// decodeRawHeader decodes a debug_getRawHeader result, a JSON string of
// the 0x-prefixed hex of the header's RLP, into a block whose hash is the
// Keccak-256 of those bytes: what the child's parentHash and the anchor
// commit to, so a header that is not the chain's fails the links as a
// forged JSON header does. [ethlogs.DecodeHeader] accepts only an encoding
// that re-encodes to the same bytes, so the fields are exactly those
// hashed. want is the block number asked for.
func decodeRawHeader(raw json.RawMessage, want uint64) (*block, error) {
	if string(raw) == "null" {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "the node has no such block (not yet synced, or pruned)")
	}
	hexits, ok := hexDigits(raw)
	if !ok {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "%s: the answer is not a 0x-prefixed hex string", rawHeaderMethod)
	}
	if len(hexits) > 2*ethlogs.MaxHeaderSize {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "%s: %d bytes, at most %d", rawHeaderMethod, len(hexits)/2, ethlogs.MaxHeaderSize)
	}
	// The header decoded holds no part of enc: its buffer is reused.
	buf := headerBufs.Get().(*[ethlogs.MaxHeaderSize]byte)
	defer headerBufs.Put(buf)
	enc := buf[:len(hexits)/2]
	if _, err := hex.Decode(enc, hexits); err != nil {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "%s: %v", rawHeaderMethod, err)
	}
	h, hash, err := ethlogs.DecodeHeader(enc)
	if err != nil {
		return nil, &ethlogs.BlockError{Number: want, Err: fmt.Errorf("%s: %w", rawHeaderMethod, err)}
	}
	if h.Number == nil || !h.Number.IsUint64() || h.Number.Uint64() != want {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "the node answered with block %v (%s)", h.Number, hash)
	}
	return &block{header: h, hash: hash}, nil
}

// hexDigits returns the digits of a JSON string holding 0x-prefixed hex,
// as the debug namespace answers, or false for anything else.
func hexDigits(raw json.RawMessage) ([]byte, bool) {
	if len(raw) < 4 || raw[0] != '"' || raw[1] != '0' || raw[2] != 'x' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	return raw[3 : len(raw)-1], true
}

// headerBufs hold a header's RLP while it is decoded.
var headerBufs = sync.Pool{New: func() any { return new([ethlogs.MaxHeaderSize]byte) }}
