package spv

import (
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// VerifyBlock checks that b is the block whose hash is want: its header
// hashes to want, and its transactions hash to the header's merkle root
// without the duplicate-subtree mutation of CVE-2012-2459 (a block with
// its last transactions repeated has the same root) and without a 64-byte
// transaction, which could pass for an inner node of the tree. It returns
// the txids in block order. Errors wrap [ErrMisbehaving].
func VerifyBlock(b *wire.MsgBlock, want chainhash.Hash) ([]chainhash.Hash, error) {
	if got := b.Header.BlockHash(); got != want {
		return nil, fmt.Errorf("spv: block %s arrived for %s: %w", got, want, ErrMisbehaving)
	}
	if len(b.Transactions) == 0 {
		return nil, fmt.Errorf("spv: block %s has no transactions: %w", want, ErrMisbehaving)
	}
	txids := make([]chainhash.Hash, len(b.Transactions))
	for i, tx := range b.Transactions {
		if tx.SerializeSizeStripped() == 64 {
			return nil, fmt.Errorf("spv: block %s: transaction %d is 64 bytes long, indistinguishable from an inner merkle node: %w", want, i, ErrMisbehaving)
		}
		txids[i] = tx.TxHash()
	}
	root, mutated := merkleRoot(append([]chainhash.Hash(nil), txids...))
	if mutated {
		return nil, fmt.Errorf("spv: block %s repeats a subtree of transactions (CVE-2012-2459): %w", want, ErrMisbehaving)
	}
	if root != b.Header.MerkleRoot {
		return nil, fmt.Errorf("spv: block %s: transactions hash to merkle root %s, header has %s: %w", want, root, b.Header.MerkleRoot, ErrMisbehaving)
	}
	return txids, nil
}

// merkleRoot returns the merkle root of the leaves, computed in place, and
// whether two siblings were equal anywhere (Core's ComputeMerkleRoot).
func merkleRoot(level []chainhash.Hash) (root chainhash.Hash, mutated bool) {
	var buf [2 * chainhash.HashSize]byte
	for len(level) > 1 {
		next := level[:0]
		for i := 0; i < len(level); i += 2 {
			right := level[len(level)-1] // an odd last node pairs with itself
			if i+1 < len(level) {
				right = level[i+1]
				mutated = mutated || level[i] == right
			}
			copy(buf[:], level[i][:])
			copy(buf[chainhash.HashSize:], right[:])
			next = append(next, chainhash.DoubleHashH(buf[:]))
		}
		level = next
	}
	return level[0], mutated
}
