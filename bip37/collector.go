package bip37

import (
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// ErrUnexpectedTx reports a tx message that no pending merkle block proves.
// Callers branch on it: with transaction relay on, a peer also announces
// mempool transactions that match the filter, and those arrive as tx
// messages too.
var ErrUnexpectedTx = errors.New("bip37: transaction not proven by a pending merkle block")

// FilteredBlock is a verified merkle block with the transactions it proves.
type FilteredBlock struct {
	Header       wire.BlockHeader
	Transactions uint32        // transactions in the whole block
	Matches      []Match       // proven transactions, in block order
	Txs          []*wire.MsgTx // Txs[i] is the transaction Matches[i] names
}

// Collector pairs each merkleblock message from a peer with the tx messages
// that follow it. A node answers a filtered-block request with the merkle
// block, then every transaction the block proves as a tx message, with no
// end marker (current Core and btcd; Core's comments allow duplicates, and
// very old Core versions skipped transactions the peer already knew). Feed
// the peer's merkleblock and tx messages in arrival order; a block is
// returned once every transaction it proves has arrived.
//
// A Collector is not safe for concurrent use. The zero value is ready.
type Collector struct {
	block   *FilteredBlock
	missing int
}

// MerkleBlock verifies msg ([VerifyMerkleBlock]) and starts waiting for the
// transactions it proves. It returns the block at once if it proves none.
// A merkle block that arrives while transactions of the previous one are
// still missing is an error (the peer withheld them); the incomplete block
// is dropped.
func (c *Collector) MerkleBlock(msg *wire.MsgMerkleBlock) (*FilteredBlock, error) {
	if c.block != nil {
		prev, missing := c.block.Header.BlockHash(), c.missing
		c.block, c.missing = nil, 0
		return nil, fmt.Errorf("bip37: merkle block %s arrived while %d transactions of block %s were missing",
			msg.Header.BlockHash(), missing, prev)
	}
	matches, err := VerifyMerkleBlock(msg)
	if err != nil {
		return nil, err
	}
	b := &FilteredBlock{Header: msg.Header, Transactions: msg.Transactions, Matches: matches,
		Txs: make([]*wire.MsgTx, len(matches))}
	if len(matches) == 0 {
		return b, nil
	}
	c.block, c.missing = b, len(matches)
	return nil, nil
}

// Tx accepts a tx message. It returns the pending block once tx completes
// it, nil while more are missing or when tx repeats one already received.
// A transaction the pending block does not prove is [ErrUnexpectedTx]
// (wrapped, naming its txid). A 64-byte transaction is rejected: its bytes
// could be an inner node of the tree, so the proof would not tell them
// apart.
func (c *Collector) Tx(tx *wire.MsgTx) (*FilteredBlock, error) {
	txid := tx.TxHash()
	if c.block == nil {
		return nil, fmt.Errorf("%w: %s (no merkle block pending)", ErrUnexpectedTx, txid)
	}
	if tx.SerializeSizeStripped() == 64 {
		return nil, fmt.Errorf("bip37: transaction %s is 64 bytes long, indistinguishable from an inner merkle node", txid)
	}
	found := false
	for i, m := range c.block.Matches {
		if m.TxID != txid {
			continue
		}
		found = true
		if c.block.Txs[i] == nil {
			c.block.Txs[i] = tx
			c.missing--
		}
	}
	if !found {
		return nil, fmt.Errorf("%w: %s (block %s)", ErrUnexpectedTx, txid, c.block.Header.BlockHash())
	}
	if c.missing > 0 {
		return nil, nil
	}
	b := c.block
	c.block = nil
	return b, nil
}

// Missing returns the txids the pending merkle block proves that have not
// arrived yet, in block order, or nil when no block is pending. Callers
// bound their wait for them: the protocol has no end marker.
func (c *Collector) Missing() []chainhash.Hash {
	if c.block == nil {
		return nil
	}
	var out []chainhash.Hash
	for i, m := range c.block.Matches {
		if c.block.Txs[i] == nil {
			out = append(out, m.TxID)
		}
	}
	return out
}
