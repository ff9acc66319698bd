package beacontest

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"

	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/common"
)

// tree is a sparse binary Merkle tree given by a few leaves at generalized
// indices; every other subtree is a filler hash unique to the tree. A
// light client sees only the root and the branches of the leaves, which
// are all a synthetic beacon state or block body needs to be.
type tree struct {
	salt   [8]byte
	leaves map[uint64]merkle.Value
}

func newTree(salt uint64, leaves map[uint64]merkle.Value) *tree {
	t := &tree{leaves: leaves}
	binary.BigEndian.PutUint64(t.salt[:], salt)
	return t
}

func (t *tree) root() common.Hash { return common.Hash(t.node(1)) }

// branch returns the siblings of the path from leaf g to the root, bottom
// up: what merkle.VerifyProof takes.
func (t *tree) branch(g uint64) merkle.Values {
	var b merkle.Values
	for ; g > 1; g >>= 1 {
		b = append(b, t.node(g^1))
	}
	return b
}

func (t *tree) node(g uint64) merkle.Value {
	if v, ok := t.leaves[g]; ok {
		return v
	}
	if !t.above(g) {
		return t.filler(g)
	}
	l, r := t.node(2*g), t.node(2*g+1)
	return merkle.Value(sha256.Sum256(append(l[:], r[:]...)))
}

// above reports whether a leaf lies below node g.
func (t *tree) above(g uint64) bool {
	for leaf := range t.leaves {
		if d := bits.Len64(leaf) - bits.Len64(g); d > 0 && leaf>>d == g {
			return true
		}
	}
	return false
}

func (t *tree) filler(g uint64) merkle.Value {
	var b [24]byte
	copy(b[:8], "filler..")
	copy(b[8:16], t.salt[:])
	binary.BigEndian.PutUint64(b[16:], g)
	return sha256.Sum256(b[:])
}
