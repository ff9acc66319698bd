package scan

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// The debug namespace's raw answers, where a node serves them: consensus
// encodings instead of JSON, so the node encodes no JSON and the client
// decodes none. A receipt's consensus encoding has no transaction hash:
// raw receipts are asked only when the scan proves transaction hashes
// from the block's transactions anyway (see proveTxHashes).
const (
	rawReceiptsMethod = "debug_getRawReceipts" // a block's receipts: a JSON array of hex strings
	rawBlockMethod    = "debug_getRawBlock"    // a whole block: one hex string
)

// decodeRawReceipts decodes a debug_getRawReceipts result, a compact JSON
// array of 0x-prefixed hex strings, each a receipt's consensus encoding,
// without encoding/json: one pass over the answer, the hex of each
// receipt decoded in place into one buffer. The encodings as received are
// then proven against h's receiptsRoot ([ethlogs.DecodeProvenReceipts]),
// h being the block's verified header.
func decodeRawReceipts(raw json.RawMessage, h *types.Header) (types.Receipts, error) {
	encs, err := splitHexArray(raw)
	if err != nil {
		return nil, blockError(h.Number.Uint64(), common.Hash{}, ethlogs.ErrReceipt, "%s: %v", rawReceiptsMethod, err)
	}
	rs, err := ethlogs.DecodeProvenReceipts(h, encs)
	if err != nil {
		var be *ethlogs.BlockError
		if errors.As(err, &be) {
			return nil, &ethlogs.BlockError{Number: be.Number, Hash: be.Hash, Err: fmt.Errorf("%s: %w", rawReceiptsMethod, be.Err)}
		}
		return nil, err
	}
	return rs, nil
}

// splitHexArray decodes a compact JSON array of 0x-prefixed hex strings
// (no whitespace: the client's reader removes it) into byte slices that
// share one buffer. Anything else is an error naming the byte offset.
func splitHexArray(raw []byte) ([][]byte, error) {
	if string(raw) == "null" {
		return nil, fmt.Errorf("the node has no receipts for it (pruned?)")
	}
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return nil, fmt.Errorf("the answer is not an array of hex strings")
	}
	body := raw[1 : len(raw)-1]
	buf := make([]byte, len(body)/2)
	var out [][]byte
	for at := 0; at < len(body); {
		if len(out) > 0 {
			if body[at] != ',' {
				return nil, fmt.Errorf("byte %d: ',' expected", 1+at)
			}
			at++
		}
		if len(body)-at >= 2 && body[at] == '"' && body[at+1] == '"' { // as go-ethereum reads it: no bytes
			out = append(out, nil)
			at += 2
			continue
		}
		if len(body)-at < 4 || body[at] != '"' || body[at+1] != '0' || body[at+2]|0x20 != 'x' {
			return nil, fmt.Errorf("byte %d: a 0x-prefixed hex string expected", 1+at)
		}
		end := bytes.IndexByte(body[at+3:], '"')
		if end < 0 {
			return nil, fmt.Errorf("byte %d: unterminated string", 1+at)
		}
		hexits := body[at+3 : at+3+end]
		n, err := hex.Decode(buf, hexits)
		if err != nil {
			return nil, fmt.Errorf("byte %d: %v", 1+at, err)
		}
		out = append(out, buf[:n:n])
		buf = buf[n:]
		at += 3 + end + 1
	}
	return out, nil
}

// decodeRawBlockTxs decodes a debug_getRawBlock result, the hex of a
// block's RLP, and returns its transactions. Their hashes are proven by
// the caller against the trusted header's transactionsRoot; the block's
// own header is not read.
func decodeRawBlockTxs(raw json.RawMessage, number uint64) (types.Transactions, error) {
	hexits, ok := hexDigits(raw)
	if !ok {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrTransactionsRoot, "%s: the answer is not a 0x-prefixed hex string", rawBlockMethod)
	}
	enc := make([]byte, len(hexits)/2)
	if _, err := hex.Decode(enc, hexits); err != nil {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrTransactionsRoot, "%s: %v", rawBlockMethod, err)
	}
	var b types.Block
	if err := rlp.DecodeBytes(enc, &b); err != nil {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrTransactionsRoot, "%s: %v", rawBlockMethod, err)
	}
	return b.Transactions(), nil
}
