package scan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// matched is a verified block with matching logs, whose transaction
// hashes are still the node's word.
type matched struct {
	b    *block
	rs   types.Receipts
	logs []*types.Log
}

// proveTxHashes fetches the transactions of blocks with matching logs
// (their RLP with debug_getRawBlock where the node serves it, else
// eth_getBlockByHash with full transactions, batched), checks them
// against each trusted header's transactionsRoot, and sets every log's
// and receipt's transactionHash from them. The receipts root does not
// commit to transaction hashes, so without this one field of each log is
// the node's word. A receipt naming another transaction than the one
// proven at its index is the node lying: an error naming the block.
func (s *scanner) proveTxHashes(ctx context.Context, blocks []matched) error {
	if len(blocks) == 0 {
		return nil
	}
	raw := !s.noRawBlock.Load()
	calls := make([]Call, len(blocks))
	for i, m := range blocks {
		calls[i] = Call{Method: "eth_getBlockByHash", Params: []any{m.b.hash, true}}
		if raw {
			calls[i] = Call{Method: rawBlockMethod, Params: []any{m.b.hash}}
		}
	}
	if err := s.send(ctx, calls, s.receiptsBatch); err != nil {
		return fmt.Errorf("scan: transactions of blocks %d to %d: %w", blocks[0].b.header.Number, blocks[len(blocks)-1].b.header.Number, err)
	}
	var re *RPCError
	if raw && errors.As(calls[0].Err, &re) { // refused: see fetchHeaders
		s.noRawBlock.Store(true)
		return s.proveTxHashes(ctx, blocks)
	}
	for i, m := range blocks {
		c := calls[i]
		if c.Err != nil {
			return fmt.Errorf("scan: block %d: %s: %w", m.b.header.Number, c.Method, c.Err)
		}
		s.txBytes.Add(int64(len(c.Result)))
		hashes, err := txHashes(c.Result, m.b, raw)
		if err == nil {
			err = proveBlockTxs(m, hashes)
		}
		if err != nil {
			return fmt.Errorf("scan: %w", err)
		}
	}
	s.txProven.Add(uint64(len(blocks)))
	return nil
}

// txHashes proves a block's transactions against its trusted header and
// returns their hashes: from debug_getRawBlock's answer (raw), the
// encodings as received, neither decoded nor encoded again; else from
// eth_getBlockByHash's, decoded.
func txHashes(result json.RawMessage, b *block, raw bool) ([]common.Hash, error) {
	number := b.header.Number.Uint64()
	if raw {
		encs, err := rawBlockTxs(result, number)
		if err != nil {
			return nil, err
		}
		return ethlogs.TransactionHashes(b.header, encs)
	}
	var body struct {
		Transactions []*types.Transaction `json:"transactions"`
	}
	if err := json.Unmarshal(result, &body); err != nil {
		return nil, blockError(number, b.hash, ethlogs.ErrTransactionsRoot, "transactions: %s (on a chain with transaction types go-ethereum does not know, transaction hashes cannot be proven: turn the proof off)", untrusted.Text(err.Error()))
	}
	if err := ethlogs.VerifyTransactions(b.header, body.Transactions); err != nil {
		return nil, err
	}
	hashes := make([]common.Hash, len(body.Transactions))
	for i, tx := range body.Transactions {
		hashes[i] = tx.Hash()
	}
	return hashes, nil
}

// proveBlockTxs sets a block's receipts' and logs' transaction hashes
// from hashes, those of its transactions proven against its header
// (txHashes). A receipt from debug_getRawReceipts carries none (the zero
// hash); one from JSON must name the transaction proven at its index.
func proveBlockTxs(m matched, hashes []common.Hash) error {
	number := m.b.header.Number.Uint64()
	if len(hashes) != len(m.rs) {
		return blockError(number, m.b.hash, ethlogs.ErrTransactionsRoot, "%d transactions, %d receipts", len(hashes), len(m.rs))
	}
	for i, r := range m.rs {
		if r.TxHash != hashes[i] && r.TxHash != (common.Hash{}) {
			return blockError(number, m.b.hash, ethlogs.ErrReceipt, "receipt %d names transaction %s; the transaction at index %d, proven by transactionsRoot, is %s", i, r.TxHash, i, hashes[i])
		}
		r.TxHash = hashes[i]
	}
	for _, l := range m.logs {
		l.TxHash = hashes[l.TxIndex]
	}
	return nil
}
