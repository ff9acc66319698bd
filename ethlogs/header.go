package ethlogs

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// MaxHeaderSize bounds a header's RLP; mainnet headers are 500 to 700 bytes.
const MaxHeaderSize = 4096

// DecodeHeader decodes a header's consensus RLP and returns it with its
// hash, keccak256(enc). An encoding that does not re-encode to the same
// bytes is rejected, so that the hash commits to exactly the fields
// returned.
func DecodeHeader(enc []byte) (*types.Header, common.Hash, error) {
	if len(enc) > MaxHeaderSize {
		return nil, common.Hash{}, fmt.Errorf("ethlogs: header: %w", errorf(ErrHeaderRLP, "%d bytes, at most %d", len(enc), MaxHeaderSize))
	}
	// The fast path takes only canonical encodings (FuzzDecodeHeaderFields
	// holds it to re-encoding to the same bytes): the check is for the rest.
	h, ok := decodeHeaderFields(enc)
	if !ok {
		h = new(types.Header)
		if err := rlp.DecodeBytes(enc, h); err != nil {
			return nil, common.Hash{}, fmt.Errorf("ethlogs: header: %w", errorf(ErrHeaderRLP, "%v", err))
		}
		if !reencodes(h, enc) {
			return nil, common.Hash{}, &BlockError{Number: numberOf(h), Err: errorf(ErrHeaderRLP, "not canonical")}
		}
	}
	return h, keccak256(enc), nil
}

// reencodes reports whether h encodes to enc. It encodes into a pooled
// buffer (rlp.EncoderBuffer) and compares there, so that the check
// allocates nothing per header.
func reencodes(h *types.Header, enc []byte) bool {
	w := rlp.NewEncoderBuffer(nil)
	defer w.Flush()
	if h.EncodeRLP(w) != nil {
		return false
	}
	scratch := scratches.Get().(*[]byte)
	defer scratches.Put(scratch)
	*scratch = w.AppendToBytes((*scratch)[:0])
	return bytes.Equal(*scratch, enc)
}

var scratches = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// VerifyHeader checks that h hashes to want: keccak256(rlp(h)) == want.
func VerifyHeader(h *types.Header, want common.Hash) error {
	if got := h.Hash(); got != want {
		return blockError(numberOf(h), want, ErrHeaderHash, "keccak256(rlp(header)) = %s", got)
	}
	return nil
}

// VerifyLink checks that child follows the block (number, hash): its number
// is one more and its parentHash is hash.
func VerifyLink(number uint64, hash common.Hash, child *types.Header) error {
	n := numberOf(child)
	if child.Number == nil || !child.Number.IsUint64() || n != number+1 {
		return blockError(n, common.Hash{}, ErrParentLink, "number %v follows block %d", child.Number, number)
	}
	if child.ParentHash != hash {
		return blockError(n, common.Hash{}, ErrParentLink, "parentHash %s, block %d is %s", child.ParentHash, number, hash)
	}
	return nil
}

// VerifyChain checks a run of headers in ascending order against a trusted
// anchor: each links to the one before, and the last hashes to anchor, so
// every header is as trusted as the anchor. It returns the headers' hashes.
func VerifyChain(headers []*types.Header, anchor common.Hash) ([]common.Hash, error) {
	hashes := make([]common.Hash, len(headers))
	for i, h := range headers {
		hashes[i] = h.Hash()
		if i > 0 {
			if err := VerifyLink(numberOf(headers[i-1]), hashes[i-1], h); err != nil {
				return nil, err
			}
		}
	}
	if len(headers) == 0 {
		return hashes, nil
	}
	last := headers[len(headers)-1]
	if hashes[len(hashes)-1] != anchor {
		return nil, blockError(numberOf(last), anchor, ErrHeaderHash, "the anchor is %s, the header hashes to %s", anchor, hashes[len(hashes)-1])
	}
	return hashes, nil
}

// numberOf returns h's number, 0 when missing or out of range (a hostile
// header's; verification then fails on the hash or link).
func numberOf(h *types.Header) uint64 {
	if h.Number == nil || !h.Number.IsUint64() {
		return 0
	}
	return h.Number.Uint64()
}
