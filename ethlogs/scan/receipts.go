package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// candidate is a block whose receipts are to be fetched: its number and
// the hash the verified header chain gives it.
type candidate struct {
	number uint64
	hash   common.Hash
}

// found is what a candidate block yields: its matching logs.
type found struct {
	number uint64
	logs   []*types.Log
}

// candidateWindow is how many blocks of the range receipts looks up in the
// index at a time, so that the candidate list stays bounded however many
// blocks pass the bloom (every block does in bloom-untrusted mode).
var candidateWindow uint64 = 1 << 16

// receipts fetches the receipts of the candidate blocks of the range,
// verifies them, and emits the matching logs in order.
func (s *scanner) receipts(ctx context.Context) error {
	var numbers []uint64
	var cands []candidate
	for lo := s.stats.From; lo <= s.stats.To; {
		hi := s.stats.To
		if hi-lo >= candidateWindow {
			hi = lo + candidateWindow - 1
		}
		var err error
		if numbers, cands, err = s.candidates(numbers[:0], cands[:0], lo, hi); err != nil {
			return err
		}
		s.stats.Candidates += uint64(len(cands))
		if err := s.receiptsOf(ctx, cands, lo); err != nil {
			return err
		}
		if hi == s.stats.To {
			break
		}
		lo = hi + 1
	}
	return nil
}

// receiptsOf fetches, verifies and emits the candidates of one window of
// the range, which starts at block lo.
func (s *scanner) receiptsOf(ctx context.Context, cands []candidate, lo uint64) error {
	next := 0
	return ordered(ctx, s.cfg.Concurrency,
		func() ([]candidate, bool) {
			if next == len(cands) {
				return nil, false
			}
			n := min(len(cands)-next, s.receiptsBatch.get())
			next += n
			return cands[next-n : next], true
		},
		s.fetchReceipts,
		func(blocks []found) error {
			var logs []*types.Log
			for _, f := range blocks {
				s.forget(f.number)
				if len(f.logs) > 0 {
					s.stats.Matched++
					logs = append(logs, f.logs...)
				}
				if f.number > s.stats.AnchorNumber {
					s.stats.UnfinalizedLogs += uint64(len(f.logs))
				}
			}
			if len(logs) > 0 {
				if err := s.cfg.Emit(logs); err != nil {
					return err
				}
				s.stats.Logs += uint64(len(logs))
				if err := s.saveCheckpoint(blocks[len(blocks)-1].number); err != nil {
					return err
				}
			}
			last := blocks[len(blocks)-1].number
			s.progress("receipts", last-s.stats.From+1, s.stats.To-s.stats.From+1)
			return nil
		})
}

// candidates appends to cands the blocks lo to hi whose bloom passes, with
// the hashes the index holds; every block in bloom-untrusted mode. numbers
// is scratch space, returned for reuse.
func (s *scanner) candidates(numbers []uint64, cands []candidate, lo, hi uint64) ([]uint64, []candidate, error) {
	if s.cfg.Mode == BloomUntrusted {
		for n := lo; n <= hi; n++ {
			numbers = append(numbers, n)
		}
	} else {
		var err error
		if numbers, err = s.x.Candidates(numbers, s.matcher, lo, hi); err != nil {
			return numbers, cands, fmt.Errorf("scan: %w", err)
		}
	}
	for _, n := range numbers {
		h, err := s.x.Hash(n)
		if err != nil {
			return numbers, cands, fmt.Errorf("scan: %w", err)
		}
		cands = append(cands, candidate{n, h})
	}
	return numbers, cands, nil
}

// fetchReceipts fetches, for each block, its receipts (their consensus
// encodings with debug_getRawReceipts where the node serves them and the
// scan proves transaction hashes, else eth_getBlockReceipts, else one
// eth_getTransactionReceipt per transaction) and, unless this run fetched
// it already, its header by hash (raw where the node serves it); it
// verifies them and keeps the logs that match.
func (s *scanner) fetchReceipts(ctx context.Context, blocks []candidate) ([]found, error) {
	perTx := s.perTx.Load()
	raw := s.rawReceipts()
	rawHeader := !perTx && !s.noRawHeader.Load() // perTx needs the block's transaction list
	var calls []Call
	at := make([][2]int, len(blocks)) // the header's and the receipts' call, -1 for none
	for i, c := range blocks {
		at[i] = [2]int{-1, -1}
		if b := s.recall(c.number); b == nil || b.hash != c.hash || perTx {
			at[i][0] = len(calls)
			if rawHeader {
				calls = append(calls, Call{Method: rawHeaderMethod, Params: []any{c.hash}})
			} else {
				calls = append(calls, Call{Method: "eth_getBlockByHash", Params: []any{c.hash, false}})
			}
		}
		switch {
		case raw:
			at[i][1] = len(calls)
			calls = append(calls, Call{Method: rawReceiptsMethod, Params: []any{c.hash}})
		case !perTx:
			at[i][1] = len(calls)
			calls = append(calls, Call{Method: "eth_getBlockReceipts", Params: []any{c.hash}})
		}
	}
	if err := s.send(ctx, calls, s.receiptsBatch); err != nil {
		return nil, fmt.Errorf("scan: receipts of blocks %d to %d: %w", blocks[0].number, blocks[len(blocks)-1].number, err)
	}
	var re *RPCError
	if rawHeader && at[0][0] >= 0 && errors.As(calls[at[0][0]].Err, &re) { // refused: see fetchHeaders
		s.noRawHeader.Store(true)
		return s.fetchReceipts(ctx, blocks)
	}
	if raw && errors.As(calls[at[0][1]].Err, &re) { // refused: see fetchHeaders
		s.noRawReceipts.Store(true)
		return s.fetchReceipts(ctx, blocks)
	}
	if !raw && !perTx && calls[at[0][1]].Err != nil && isUnsupported(calls[at[0][1]].Err) {
		s.perTx.Store(true)
		return s.fetchReceipts(ctx, blocks)
	}
	out := make([]found, len(blocks))
	var withLogs []matched
	for i, c := range blocks {
		b, rs, rootProven, err := s.blockReceipts(ctx, c, calls, at[i])
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
		logs, err := s.verify(b, rs, rootProven)
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
		out[i] = found{c.number, logs}
		if len(logs) > 0 && s.proves() {
			withLogs = append(withLogs, matched{b, rs, logs})
		}
	}
	return out, s.proveTxHashes(ctx, withLogs)
}

// proves reports whether the scan proves its logs' transaction hashes.
func (s *scanner) proves() bool { return s.cfg.Mode != None && !s.cfg.TrustTxHashes }

// rawReceipts reports whether to ask for receipts' consensus encodings,
// which carry no transaction hash: only where the scan proves them from
// the block's transactions, and the node has not refused.
func (s *scanner) rawReceipts() bool {
	return s.proves() && !s.noRawReceipts.Load() && !s.perTx.Load()
}

// blockReceipts decodes the header and receipts of one block of a batch,
// whose calls are at[0] and at[1]; rootProven says the receipts were
// proven against the header's receiptsRoot as they were decoded.
func (s *scanner) blockReceipts(ctx context.Context, c candidate, calls []Call, at [2]int) (b *block, rs types.Receipts, rootProven bool, err error) {
	b = s.recall(c.number)
	if at[0] >= 0 {
		hc := calls[at[0]]
		if hc.Err != nil {
			return nil, nil, false, fmt.Errorf("block %d: %s: %w", c.number, hc.Method, hc.Err)
		}
		if b, err = decodeHeaderCall(hc, c.number); err != nil {
			return nil, nil, false, err
		}
	}
	if b.hash != c.hash {
		return nil, nil, false, blockError(c.number, c.hash, ethlogs.ErrHeaderHash, "asked for this block by hash, the node answered with %s", b.hash)
	}
	if at[1] < 0 {
		rs, err = s.txReceipts(ctx, b)
		return b, rs, false, err
	}
	rc := calls[at[1]]
	if rc.Err != nil {
		return nil, nil, false, fmt.Errorf("block %d: %s: %w", c.number, rc.Method, rc.Err)
	}
	if rc.Method == rawReceiptsMethod {
		rs, err = decodeRawReceipts(rc.Result, b.header)
		return b, rs, true, err
	}
	rs, err = decodeReceipts(rc.Result, c.number)
	return b, rs, false, err
}

// txReceipts fetches a block's receipts one transaction at a time, in the
// order of the transaction hashes the node listed.
func (s *scanner) txReceipts(ctx context.Context, b *block) (types.Receipts, error) {
	calls := make([]Call, len(b.txs))
	for i, tx := range b.txs {
		calls[i] = Call{Method: "eth_getTransactionReceipt", Params: []any{tx}}
	}
	if err := s.send(ctx, calls, s.headerBatch); err != nil {
		return nil, fmt.Errorf("block %d: %w", b.header.Number, err)
	}
	rs := make(types.Receipts, len(calls))
	for i, c := range calls {
		if c.Err != nil {
			return nil, fmt.Errorf("block %d: eth_getTransactionReceipt(%s): %w", b.header.Number, b.txs[i], c.Err)
		}
		r, err := decodeReceipts(append(append([]byte("["), c.Result...), ']'), b.header.Number.Uint64())
		if err != nil {
			return nil, err
		}
		rs[i] = r[0]
	}
	return rs, nil
}

// decodeReceipts decodes a JSON array of receipts; null ones are refused.
func decodeReceipts(raw json.RawMessage, number uint64) (types.Receipts, error) {
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrReceipt, "the node has no receipts for it (pruned?)")
	}
	var rs types.Receipts
	if err := json.Unmarshal(raw, &rs); err != nil {
		return nil, blockError(number, common.Hash{}, ethlogs.ErrReceipt, "%v", err)
	}
	for i, r := range rs {
		if r == nil {
			return nil, blockError(number, common.Hash{}, ethlogs.ErrReceipt, "receipt %d is null", i)
		}
		for j, l := range r.Logs {
			if l == nil {
				return nil, blockError(number, common.Hash{}, ethlogs.ErrReceipt, "receipt %d: log %d is null", i, j)
			}
		}
	}
	return rs, nil
}

// verify checks a block's receipts as the mode asks (what rootProven says
// was done as they were decoded is not done again) and returns the logs
// that match, with the fields the receipts root does not commit to set
// from the verified header.
func (s *scanner) verify(b *block, rs types.Receipts, rootProven bool) ([]*types.Log, error) {
	var err error
	switch {
	case s.cfg.Mode == Full && rootProven:
		err = ethlogs.VerifyReceiptBlooms(b.header, rs)
	case s.cfg.Mode == Full:
		err = ethlogs.VerifyReceipts(b.header, rs)
	case s.cfg.Mode == BloomUntrusted && !rootProven:
		err = ethlogs.VerifyReceiptsRoot(b.header, rs)
	}
	if err != nil {
		return nil, err
	}
	return s.cfg.Query.Filter(nil, ethlogs.LogsOf(b.header, b.hash, rs)), nil
}
