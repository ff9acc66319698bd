package ethlogs

import (
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/trie"
)

// ErrTransactionsRoot is a block's transactions not hashing to its
// header's transactionsRoot.
var ErrTransactionsRoot = errors.New("ethlogs: transactions root mismatch")

// TransactionsRoot returns the root of the transactions trie of txs, as a
// header's transactionsRoot commits to it: go-ethereum's DeriveSha over a
// stack trie of the transactions' consensus encodings.
func TransactionsRoot(txs types.Transactions) common.Hash {
	return types.DeriveSha(txs, trie.NewStackTrie(nil))
}

// VerifyTransactions checks a block's transactions against its header,
// which must already be trusted: their trie root equals h.TxHash, so each
// transaction's hash, tx.Hash(), is the hash of the transaction at its
// index in that block. The receipts root does not commit to transaction
// hashes; this is what proves a log's transactionHash. Errors are
// [*BlockError] naming the block.
func VerifyTransactions(h *types.Header, txs types.Transactions) error {
	for i, tx := range txs {
		if tx == nil {
			return blockError(numberOf(h), h.Hash(), ErrTransactionsRoot, "transaction %d is null", i)
		}
	}
	if root := TransactionsRoot(txs); root != h.TxHash {
		return blockError(numberOf(h), h.Hash(), ErrTransactionsRoot, "%d transactions give %s, the header commits to %s", len(txs), root, h.TxHash)
	}
	return nil
}

// TransactionHashes proves a block's transactions in their consensus
// encodings (a legacy transaction's RLP list, a typed one's type byte and
// payload: the values of the transactions trie) against h, which must be
// trusted: the trie of the encodings as received must have root h.TxHash.
// It returns each transaction's hash, the Keccak-256 of its encoding,
// without decoding any: a log's transactionHash needs nothing more.
// Errors are [*BlockError] naming the block.
func TransactionHashes(h *types.Header, encs [][]byte) ([]common.Hash, error) {
	if root := encodings(encs).root(); root != h.TxHash {
		return nil, blockError(numberOf(h), common.Hash{}, ErrTransactionsRoot, "%d transactions give %s, the header commits to %s", len(encs), root, h.TxHash)
	}
	hashes := make([]common.Hash, len(encs))
	for i, enc := range encs {
		hashes[i] = keccak256(enc)
	}
	return hashes, nil
}
