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
		txs, err := decodeTxs(c.Result, m.b, raw)
		if err == nil {
			err = proveBlockTxs(m, txs)
		}
		if err != nil {
			return fmt.Errorf("scan: %w", err)
		}
	}
	s.txProven.Add(uint64(len(blocks)))
	return nil
}

// decodeTxs decodes a block's transactions from debug_getRawBlock's
// answer (raw) or eth_getBlockByHash's.
func decodeTxs(result json.RawMessage, b *block, raw bool) (types.Transactions, error) {
	number := b.header.Number.Uint64()
	if raw {
		return decodeRawBlockTxs(result, number)
	}
	var body struct {
		Transactions []*types.Transaction `json:"transactions"`
	}
	if err := json.Unmarshal(result, &body); err != nil {
		return nil, blockError(number, b.hash, ethlogs.ErrTransactionsRoot, "transactions: %s (on a chain with transaction types go-ethereum does not know, transaction hashes cannot be proven: turn the proof off)", untrusted.Text(err.Error()))
	}
	return body.Transactions, nil
}

// proveBlockTxs checks one block's transactions against its header and
// sets its receipts' and logs' transaction hashes. A receipt from
// debug_getRawReceipts carries none (the zero hash); one from JSON must
// name the transaction proven at its index.
func proveBlockTxs(m matched, txs types.Transactions) error {
	h := m.b.header
	number := h.Number.Uint64()
	if err := ethlogs.VerifyTransactions(h, txs); err != nil {
		return err
	}
	if len(txs) != len(m.rs) {
		return blockError(number, m.b.hash, ethlogs.ErrTransactionsRoot, "%d transactions, %d receipts", len(txs), len(m.rs))
	}
	for i, r := range m.rs {
		hash := txs[i].Hash()
		if r.TxHash != hash && r.TxHash != (common.Hash{}) {
			return blockError(number, m.b.hash, ethlogs.ErrReceipt, "receipt %d names transaction %s; the transaction at index %d, proven by transactionsRoot, is %s", i, r.TxHash, i, hash)
		}
		r.TxHash = hash
	}
	for _, l := range m.logs {
		l.TxHash = txs[l.TxIndex].Hash()
	}
	return nil
}
