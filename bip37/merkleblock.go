package bip37

import (
	"bytes"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// NewMerkleBlock returns the merkleblock message that Core's
// CMerkleBlock(block, filter) builds, and the transactions it proves. Each
// transaction, in block order, goes through [Filter.MatchTx], which may
// update f, so a later transaction can match through an outpoint an earlier
// one inserted. A node sends the message, then each matched transaction as a
// tx message (without witness). It panics on a block without transactions.
func NewMerkleBlock(block *wire.MsgBlock, f *Filter) (*wire.MsgMerkleBlock, []Match) {
	txids := make([]chainhash.Hash, len(block.Transactions))
	matched := make([]bool, len(block.Transactions))
	var matches []Match
	var buf bytes.Buffer // reused: tx.TxHash() allocates a hasher per call
	buf.Grow(512)
	for i, tx := range block.Transactions {
		buf.Reset()
		tx.SerializeNoWitness(&buf) // cannot fail on a bytes.Buffer
		txids[i] = chainhash.DoubleHashH(buf.Bytes())
		if f.MatchTx(tx, txids[i]) {
			matched[i] = true
			matches = append(matches, Match{Index: uint32(i), TxID: txids[i]})
		}
	}
	t := NewPartialTree(txids, matched)
	msg := &wire.MsgMerkleBlock{
		Header:       block.Header,
		Transactions: t.Transactions,
		Hashes:       make([]*chainhash.Hash, len(t.Hashes)),
		Flags:        t.Flags,
	}
	for i := range t.Hashes {
		msg.Hashes[i] = &t.Hashes[i]
	}
	return msg, matches
}

// VerifyMerkleBlock checks a merkleblock message as a client must before
// trusting it (see [PartialTree.Extract]) and compares the root the tree
// commits to with the header's merkle root. It returns the proven
// transactions in block order; the peer should send each as a tx message
// next (see [Collector]). It does not check the header itself (its proof of
// work and place in the chain).
func VerifyMerkleBlock(msg *wire.MsgMerkleBlock) ([]Match, error) {
	t := PartialTree{Transactions: msg.Transactions, Hashes: make([]chainhash.Hash, len(msg.Hashes)), Flags: msg.Flags}
	for i, h := range msg.Hashes {
		if h == nil {
			return nil, fmt.Errorf("bip37: merkle block %s: hash %d is nil", msg.Header.BlockHash(), i)
		}
		t.Hashes[i] = *h
	}
	root, matches, err := t.Extract()
	if err != nil {
		return nil, fmt.Errorf("%w (merkle block %s)", err, msg.Header.BlockHash())
	}
	if root != msg.Header.MerkleRoot {
		return nil, fmt.Errorf("bip37: merkle block %s: tree root %s is not the header's merkle root %s",
			msg.Header.BlockHash(), root, msg.Header.MerkleRoot)
	}
	return matches, nil
}
