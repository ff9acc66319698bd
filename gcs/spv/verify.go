package spv

import (
	"fmt"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// view is the chain up to fork followed by a branch of headers being
// verified: what btcd's contextual checks see as a header's ancestors.
// Ancestors below the chain's window are read from the store; a read that
// fails is kept in err and fails the header.
type view struct {
	c      *Chain
	fork   int32
	branch []link
	err    error
}

func (v *view) tip() int32 { return v.fork + int32(len(v.branch)) }

func (v *view) link(h int32) link {
	if h > v.fork {
		return v.branch[h-v.fork-1]
	}
	if l, ok := v.c.recentAt(h); ok {
		return l
	}
	hdr, hash, err := v.c.st.Header(h)
	if err != nil && v.err == nil {
		v.err = err
	}
	return link{hdr, hash}
}

// verify checks h as the header after v's tip.
func (v *view) verify(h *wire.BlockHeader) error {
	tip := v.tip()
	if prev := v.link(tip).hash; h.PrevBlock != prev {
		return fmt.Errorf("previous block is %s, want %s (height %d)", h.PrevBlock, prev, tip)
	}
	if err := v.c.net.checkProofOfWork(h); err != nil {
		return err
	}
	params := v.c.net.Params
	if err := blockchain.CheckBlockHeaderSanity(h, params.PowLimit, v.c.clock, blockchain.BFNoPoWCheck); err != nil {
		return err
	}
	err := blockchain.CheckBlockHeaderContext(h, node{v, tip}, blockchain.BFNone, chainRules{params}, false)
	if v.err != nil {
		return fmt.Errorf("reading its ancestors: %w", v.err)
	}
	return err
}

// checkProofOfWork checks that h's target is positive and within the
// network's limit, and that its proof-of-work hash does not exceed it.
func (n *Network) checkProofOfWork(h *wire.BlockHeader) error {
	target := blockchain.CompactToBig(h.Bits)
	if target.Sign() <= 0 || target.Cmp(n.Params.PowLimit) > 0 {
		return fmt.Errorf("target %064x (bits %08x) is outside (0, %064x]", target, h.Bits, n.Params.PowLimit)
	}
	pow := n.powHash(h)
	if blockchain.HashToBig(&pow).Cmp(target) > 0 {
		return fmt.Errorf("proof-of-work hash %s exceeds the target %064x (bits %08x)", pow, target, h.Bits)
	}
	return nil
}

// node is the header at height h of a view, as btcd's HeaderCtx. Heights
// below the chain's first header have no node: an anchor keeps enough
// headers below it that the rules never ask for one.
type node struct {
	v *view
	h int32
}

func (n node) Height() int32    { return n.h }
func (n node) Bits() uint32     { return n.v.link(n.h).header.Bits }
func (n node) Timestamp() int64 { return n.v.link(n.h).header.Timestamp.Unix() }

func (n node) Parent() blockchain.HeaderCtx { return n.RelativeAncestorCtx(1) }

func (n node) RelativeAncestorCtx(distance int32) blockchain.HeaderCtx {
	if distance < 0 || n.h-distance < n.v.c.Base() {
		return nil // an untyped nil: btcd compares the interface with nil
	}
	return node{n.v, n.h - distance}
}

// chainRules is a network's retargeting rules and checkpoints, as btcd's
// ChainCtx.
type chainRules struct{ p *chaincfg.Params }

func (r chainRules) ChainParams() *chaincfg.Params { return r.p }

func (r chainRules) BlocksPerRetarget() int32 {
	return int32(r.p.TargetTimespan / r.p.TargetTimePerBlock)
}

func (r chainRules) MinRetargetTimespan() int64 {
	return int64(r.p.TargetTimespan/time.Second) / r.p.RetargetAdjustmentFactor
}

func (r chainRules) MaxRetargetTimespan() int64 {
	return int64(r.p.TargetTimespan/time.Second) * r.p.RetargetAdjustmentFactor
}

// VerifyCheckpoint reports whether hash is the checkpointed block at
// height, or height has no checkpoint.
func (r chainRules) VerifyCheckpoint(height int32, hash *chainhash.Hash) bool {
	for _, cp := range r.p.Checkpoints {
		if cp.Height == height {
			return *cp.Hash == *hash
		}
	}
	return true
}

// FindPreviousCheckpoint returns nil: a Chain refuses forks below its
// anchor and below its window, and verifies every checkpoint it passes.
func (r chainRules) FindPreviousCheckpoint() (blockchain.HeaderCtx, error) { return nil, nil }
