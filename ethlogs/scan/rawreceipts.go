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
		if len(out) == ethlogs.MaxBlockTransactions {
			return nil, fmt.Errorf("byte %d: more than %d receipts", 1+at, ethlogs.MaxBlockTransactions)
		}
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

// rawBlockTxs reads a debug_getRawBlock result, the hex of a block's RLP,
// and returns its transactions' consensus encodings, undecoded: the
// values of the transactions trie, which the caller proves against the
// trusted header's transactionsRoot ([ethlogs.TransactionHashes]). In a
// block's RLP a legacy transaction is its RLP list and a typed one an RLP
// string holding its type byte and payload. The block's own header is not
// read.
func rawBlockTxs(raw json.RawMessage, number uint64) ([][]byte, error) {
	fail := func(format string, args ...any) ([][]byte, error) {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrTransactionsRoot, "%s: "+format, append([]any{rawBlockMethod}, args...)...)
	}
	hexits, ok := hexDigits(raw)
	if !ok {
		return fail("the answer is not a 0x-prefixed hex string")
	}
	enc := make([]byte, len(hexits)/2)
	if _, err := hex.Decode(enc, hexits); err != nil {
		return fail("%v", err)
	}
	body, rest, err := rlp.SplitList(enc)
	if err != nil || len(rest) > 0 {
		return fail("not one RLP list (%v, %d bytes after it)", err, len(rest))
	}
	if _, _, body, err = rlp.Split(body); err != nil { // the header
		return fail("header: %v", err)
	}
	list, _, err := rlp.SplitList(body)
	if err != nil {
		return fail("transactions: %v", err)
	}
	var txs [][]byte
	for len(list) > 0 {
		if len(txs) == ethlogs.MaxBlockTransactions {
			return fail("more than %d transactions", ethlogs.MaxBlockTransactions)
		}
		k, content, rest, err := rlp.Split(list)
		switch {
		case err != nil:
			return fail("transaction %d: %v", len(txs), err)
		case k == rlp.List: // legacy: the list itself
			txs = append(txs, list[:len(list)-len(rest)])
		case k == rlp.String && len(content) > 0:
			txs = append(txs, content)
		default:
			return fail("transaction %d: neither a list nor a typed transaction", len(txs))
		}
		list = rest
	}
	return txs, nil
}
