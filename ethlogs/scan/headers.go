package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// block is a header as eth_getBlockByNumber, eth_getBlockByHash or
// eth_getHeaderByNumber returns it: the header, its hash computed from the
// header's fields, and the transaction hashes the node lists (none from
// eth_getHeaderByNumber; not proven: see the package doc).
type block struct {
	header *types.Header
	hash   common.Hash
	txs    []common.Hash
}

// decodeBlock decodes a block object with transaction hashes only and
// checks that its fields hash to the hash the node claims, so that a field
// this build does not know is caught here rather than as a broken link.
// want is the block number asked for.
func decodeBlock(raw json.RawMessage, want uint64) (*block, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "the node has no such block (not yet synced, or pruned)")
	}
	var bj blockJSON
	if err := json.Unmarshal(raw, &bj); err != nil {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "block object: %v", err)
	}
	return blockOf(&bj, want)
}

// decodeHeaderCall decodes the answer to a header call, raw
// (debug_getRawHeader) or a JSON header or block object, as the call's
// method says. want is the block number asked for.
func decodeHeaderCall(c Call, want uint64) (*block, error) {
	if c.Method == rawHeaderMethod {
		return decodeRawHeader(c.Result, want)
	}
	return decodeBlock(c.Result, want)
}

// blockOf checks a decoded block object; nil is the JSON null of a block
// the node does not have.
func blockOf(bj *blockJSON, want uint64) (*block, error) {
	if bj == nil {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "the node has no such block (not yet synced, or pruned)")
	}
	h, err := bj.header()
	if err != nil {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "%v", err)
	}
	b := &block{header: h}
	if h.Number == nil || !h.Number.IsUint64() || h.Number.Uint64() != want {
		return nil, blockError(want, common.Hash{}, ethlogs.ErrHeaderRLP, "the node answered with block %v", h.Number)
	}
	b.hash, b.txs = h.Hash(), bj.Transactions
	if b.hash != bj.Hash {
		return nil, blockError(want, bj.Hash, ethlogs.ErrHeaderHash, "the node says %s, the header's fields hash to %s", bj.Hash, b.hash)
	}
	return b, nil
}

func blockError(number uint64, hash common.Hash, reason error, format string, args ...any) error {
	return &ethlogs.BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: "+format, append([]any{reason}, args...)...)}
}

// span is a run of consecutive block numbers, lo to hi inclusive.
type span struct{ lo, hi uint64 }

// fetchHeaders fetches the headers of sp in as few requests as the
// provider allows: their RLP with debug_getRawHeader(n) where the node
// serves it (no JSON, and the hash is the Keccak-256 of the bytes),
// else eth_getHeaderByNumber(n) (geth: the node then reads no block
// body, which halves its work), else eth_getBlockByNumber(n, false).
func (s *scanner) fetchHeaders(ctx context.Context, sp span) ([]*block, error) {
	raw, blockMethod := !s.noRawHeader.Load(), s.noHeaderMethod.Load()
	calls := make([]Call, sp.hi-sp.lo+1)
	for i := range calls {
		n := hexutil.Uint64(sp.lo + uint64(i))
		switch {
		case raw:
			calls[i] = Call{Method: rawHeaderMethod, Params: []any{n}}
		case blockMethod:
			calls[i] = Call{Method: "eth_getBlockByNumber", Params: []any{n, false}}
		default:
			calls[i] = Call{Method: "eth_getHeaderByNumber", Params: []any{n}}
		}
	}
	if err := s.send(ctx, calls, s.headerBatch); err != nil {
		return nil, fmt.Errorf("scan: headers %d to %d: %w", sp.lo, sp.hi, err)
	}
	// Providers refuse the debug namespace in many ways (-32601, -32600
	// "not allowed", -32000 "disabled"): any error object to a raw header
	// turns to JSON for the rest of the run, which then reports a real
	// error about the block in its own words.
	var re *RPCError
	if raw && errors.As(calls[0].Err, &re) {
		s.noRawHeader.Store(true)
		return s.fetchHeaders(ctx, sp)
	}
	if !raw && !blockMethod && isUnsupported(calls[0].Err) {
		s.noHeaderMethod.Store(true)
		return s.fetchHeaders(ctx, sp)
	}
	blocks := make([]*block, len(calls))
	for i, c := range calls {
		n := sp.lo + uint64(i)
		if c.Err != nil {
			return nil, fmt.Errorf("scan: block %d: %s: %w", n, c.Method, c.Err)
		}
		b, err := decodeHeaderCall(c, n)
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
		blocks[i] = b
	}
	return blocks, nil
}

// headerBlock fetches one block by number ("latest" allowed) or by hash.
func (s *scanner) headerBlock(ctx context.Context, method string, arg any, want uint64) (*block, error) {
	calls := []Call{{Method: method, Params: []any{arg, false}}}
	err := s.send(ctx, calls, s.headerBatch)
	if err == nil {
		err = calls[0].Err
	}
	if err != nil {
		return nil, fmt.Errorf("scan: %s(%v): %w", method, arg, err)
	}
	raw := calls[0].Result
	if want == anyNumber {
		var n struct {
			Number *hexutil.Uint64 `json:"number"`
		}
		if json.Unmarshal(raw, &n) != nil || n.Number == nil {
			return nil, fmt.Errorf("scan: %s(%v): no block number in the answer %.100s", method, arg, raw)
		}
		want = uint64(*n.Number)
	}
	b, err := decodeBlock(raw, want)
	if err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}
	return b, nil
}

// anyNumber asks headerBlock to accept the number the node answers with.
const anyNumber = ^uint64(0)
