package scan

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/chainsieve/chainsieve/ethlogs"
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
// (eth_getBlockByHash with full transactions, batched), checks them
// against each trusted header's transactionsRoot, and sets every log's
// transactionHash from them. The receipts root does not commit to
// transaction hashes, so without this one field of each log is the node's
// word. A receipt naming another transaction than the one proven at its
// index is the node lying: an error naming the block.
func (s *scanner) proveTxHashes(ctx context.Context, blocks []matched) error {
	if len(blocks) == 0 {
		return nil
	}
	calls := make([]Call, len(blocks))
	for i, m := range blocks {
		calls[i] = Call{Method: "eth_getBlockByHash", Params: []any{m.b.hash, true}}
	}
	if err := s.send(ctx, calls, s.receiptsBatch); err != nil {
		return fmt.Errorf("scan: transactions of blocks %d to %d: %w", blocks[0].b.header.Number, blocks[len(blocks)-1].b.header.Number, err)
	}
	for i, m := range blocks {
		c := calls[i]
		if c.Err != nil {
			return fmt.Errorf("scan: block %d: eth_getBlockByHash with transactions: %w", m.b.header.Number, c.Err)
		}
		s.txBytes.Add(int64(len(c.Result)))
		if err := proveBlockTxs(m, c.Result); err != nil {
			return fmt.Errorf("scan: %w", err)
		}
	}
	s.txProven.Add(uint64(len(blocks)))
	return nil
}

// proveBlockTxs checks one block's transactions, as the node's block
// object lists them, and sets its logs' transaction hashes.
func proveBlockTxs(m matched, raw json.RawMessage) error {
	h := m.b.header
	number := h.Number.Uint64()
	var body struct {
		Transactions []*types.Transaction `json:"transactions"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return blockError(number, m.b.hash, ethlogs.ErrTransactionsRoot, "transactions: %s (on a chain with transaction types go-ethereum does not know, transaction hashes cannot be proven: turn the proof off)", untrusted.Text(err.Error()))
	}
	txs := types.Transactions(body.Transactions)
	if err := ethlogs.VerifyTransactions(h, txs); err != nil {
		return err
	}
	if len(txs) != len(m.rs) {
		return blockError(number, m.b.hash, ethlogs.ErrTransactionsRoot, "%d transactions, %d receipts", len(txs), len(m.rs))
	}
	for i, r := range m.rs {
		if hash := txs[i].Hash(); r.TxHash != hash {
			return blockError(number, m.b.hash, ethlogs.ErrReceipt, "receipt %d names transaction %s; the transaction at index %d, proven by transactionsRoot, is %s", i, r.TxHash, i, hash)
		}
	}
	for _, l := range m.logs {
		l.TxHash = txs[l.TxIndex].Hash()
	}
	return nil
}
