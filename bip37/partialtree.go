package bip37

import (
	"crypto/sha256"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// maxBlockTransactions bounds the transaction count a merkle block may
// claim: MAX_BLOCK_WEIGHT / MIN_TRANSACTION_WEIGHT = 4,000,000 / (4·60), the
// bound Core's ExtractMatches applies.
const maxBlockTransactions = 4_000_000 / 240

// PartialTree is a partial merkle tree (Core's CPartialMerkleTree): the
// proof in a merkleblock message that some transactions are in a block.
//
// The tree over a block's txids is walked depth first from the root. Each
// visited node spends one flag bit: 1 if a matched transaction lies below
// it, 0 if not. A node whose bit is 0, and every leaf, contributes its hash
// and is not descended into; a node whose bit is 1 is descended into, left
// child first. A node without a right child pairs its left child with
// itself.
type PartialTree struct {
	Transactions uint32           // transactions in the block
	Hashes       []chainhash.Hash // in visiting order, internal byte order
	Flags        []byte           // one bit per visited node, least significant bit first
}

// Match is a transaction that a merkle block proves: its position in the
// block and its txid.
type Match struct {
	Index uint32
	TxID  chainhash.Hash
}

// NewPartialTree builds the tree that proves the transactions whose matched
// entry is true, exactly as Core's CPartialMerkleTree(vTxid, vMatch). It
// panics if txids is empty or matched has another length.
func NewPartialTree(txids []chainhash.Hash, matched []bool) *PartialTree {
	if len(txids) == 0 || len(matched) != len(txids) {
		panic(fmt.Sprintf("bip37: NewPartialTree with %d txids and %d match flags", len(txids), len(matched)))
	}
	n, height := uint32(len(txids)), treeHeight(uint32(len(txids)))
	// Each match adds at most one hash per level (Core's size bound), so
	// the slices are allocated once.
	matches := 0
	for _, m := range matched {
		if m {
			matches++
		}
	}
	hashes := min(int(n), 1+matches*int(height))
	b := treeBuilder{txids: txids, matched: matched, t: &PartialTree{Transactions: n,
		Hashes: make([]chainhash.Hash, 0, hashes), Flags: make([]byte, 0, (2*hashes+7)/8)}}
	b.build(height, 0)
	return b.t
}

// treeWidth returns the number of nodes at height h of the tree over n
// leaves (height 0 holds the leaves).
func treeWidth(n, h uint32) uint32 { return (n + 1<<h - 1) >> h }

// treeHeight returns the height of the root of the tree over n leaves.
func treeHeight(n uint32) uint32 {
	h := uint32(0)
	for treeWidth(n, h) > 1 {
		h++
	}
	return h
}

type treeBuilder struct {
	txids   []chainhash.Hash
	matched []bool
	t       *PartialTree
	bits    int
}

func (b *treeBuilder) build(height, pos uint32) {
	parent := b.anyMatched(height, pos)
	b.pushBit(parent)
	if height == 0 || !parent {
		b.t.Hashes = append(b.t.Hashes, b.subtreeHash(height, pos))
		return
	}
	b.build(height-1, pos*2)
	if pos*2+1 < treeWidth(uint32(len(b.txids)), height-1) {
		b.build(height-1, pos*2+1)
	}
}

func (b *treeBuilder) anyMatched(height, pos uint32) bool {
	lo := int(pos) << height
	hi := min(int(pos+1)<<height, len(b.matched))
	for _, m := range b.matched[lo:hi] {
		if m {
			return true
		}
	}
	return false
}

func (b *treeBuilder) pushBit(v bool) {
	if b.bits%8 == 0 {
		b.t.Flags = append(b.t.Flags, 0)
	}
	if v {
		b.t.Flags[b.bits/8] |= 1 << (b.bits % 8)
	}
	b.bits++
}

// subtreeHash returns the merkle hash of the node at (height, pos).
func (b *treeBuilder) subtreeHash(height, pos uint32) chainhash.Hash {
	if height == 0 {
		return b.txids[pos]
	}
	left := b.subtreeHash(height-1, pos*2)
	if pos*2+1 >= treeWidth(uint32(len(b.txids)), height-1) {
		return hashPair(&left, &left)
	}
	right := b.subtreeHash(height-1, pos*2+1)
	return hashPair(&left, &right)
}

// hashPair is the merkle node hash: double SHA-256 of left ‖ right.
func hashPair(left, right *chainhash.Hash) chainhash.Hash {
	var buf [64]byte
	copy(buf[:32], left[:])
	copy(buf[32:], right[:])
	first := sha256.Sum256(buf[:])
	return sha256.Sum256(first[:])
}

// Extract walks the tree as Core's CPartialMerkleTree::ExtractMatches and
// returns the merkle root it commits to and the proven transactions in block
// order. It rejects, naming where: no transactions or more than a block can
// hold (16,666); more hashes than transactions or fewer flag bits than
// hashes; running out of flag bits or hashes; two identical children
// (the CVE-2012-2459 duplicate mutation); and flag bytes or hashes left
// unused.
//
// The root proves nothing until it is compared with the block header's merkle
// root: [VerifyMerkleBlock] does both.
func (t *PartialTree) Extract() (chainhash.Hash, []Match, error) {
	switch n := t.Transactions; {
	case n == 0:
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree of 0 transactions")
	case n > maxBlockTransactions:
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree of %d transactions exceeds %d", n, maxBlockTransactions)
	case uint64(len(t.Hashes)) > uint64(n):
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree has %d hashes for %d transactions", len(t.Hashes), n)
	case len(t.Flags)*8 < len(t.Hashes):
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree has %d flag bits for %d hashes", len(t.Flags)*8, len(t.Hashes))
	}
	e := extractor{t: t, matches: make([]Match, 0, len(t.Hashes))}
	root := e.walk(treeHeight(t.Transactions), 0)
	switch {
	case e.err != nil:
		return chainhash.Hash{}, nil, e.err
	case (e.bits+7)/8 != len(t.Flags):
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree uses %d flag bits, leaving flag bytes %d to %d unused", e.bits, (e.bits+7)/8, len(t.Flags)-1)
	case e.hashes != len(t.Hashes):
		return chainhash.Hash{}, nil, fmt.Errorf("bip37: partial merkle tree uses %d of %d hashes", e.hashes, len(t.Hashes))
	}
	return root, e.matches, nil
}

type extractor struct {
	t       *PartialTree
	bits    int // flag bits consumed
	hashes  int // hashes consumed
	matches []Match
	err     error
}

func (e *extractor) walk(height, pos uint32) chainhash.Hash {
	if e.err != nil {
		return chainhash.Hash{}
	}
	if e.bits >= len(e.t.Flags)*8 {
		e.err = fmt.Errorf("bip37: partial merkle tree runs out of flag bits at bit %d (height %d, position %d)", e.bits, height, pos)
		return chainhash.Hash{}
	}
	parent := e.t.Flags[e.bits/8]>>(e.bits%8)&1 == 1
	e.bits++
	if height == 0 || !parent {
		if e.hashes >= len(e.t.Hashes) {
			e.err = fmt.Errorf("bip37: partial merkle tree runs out of hashes at hash %d (height %d, position %d)", e.hashes, height, pos)
			return chainhash.Hash{}
		}
		h := e.t.Hashes[e.hashes]
		e.hashes++
		if height == 0 && parent {
			e.matches = append(e.matches, Match{Index: pos, TxID: h})
		}
		return h
	}
	left := e.walk(height-1, pos*2)
	if pos*2+1 >= treeWidth(e.t.Transactions, height-1) {
		return hashPair(&left, &left)
	}
	right := e.walk(height-1, pos*2+1)
	if e.err == nil && right == left {
		e.err = fmt.Errorf("bip37: partial merkle tree has identical children under height %d, position %d (CVE-2012-2459 mutation)", height, pos)
	}
	return hashPair(&left, &right)
}
