package spv

import (
	"context"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Anchor is a block a header chain may start from instead of the genesis
// block: its height and hash as a source the wallet trusts published them,
// and the hash of an earlier block (also published) to ask peers for the
// headers before the anchor from. The rules after the anchor need some of
// them: the 11 timestamps of the median-time rule, and the first header of
// the anchor's retarget period (its timestamp for the next retarget, its
// bits for testnet4's BIP94; the testnet minimum-difficulty rule walks back
// to it). [SyncHeaders] downloads the headers from Locator to the anchor
// and accepts them only if they link up to Hash, so no peer can change
// them; their proof of work is checked too.
type Anchor struct {
	Height        int32
	Hash          chainhash.Hash
	LocatorHeight int32
	Locator       chainhash.Hash
}

// AnchorFor returns the highest of n's published anchors ([Anchors]) at or
// below birthday, or nil if there is none.
func AnchorFor(n *Network, birthday int32) *Anchor {
	var best *Anchor
	for _, a := range Anchors(n) {
		if a.Height <= birthday && (best == nil || a.Height > best.Height) {
			best = &a
		}
	}
	return best
}

// contextStart returns the height of the first header the chain keeps
// below an anchor at height a.
func (c *Chain) contextStart(a int32) int32 {
	lo := a - 10
	if !c.net.Params.PoWNoRetargeting {
		lo = min(lo, a-a%chainRules{c.net.Params}.BlocksPerRetarget())
	}
	return max(lo, 0)
}

// checkAnchor reports an anchor whose locator leaves out headers the
// rules after it need, or that lies above the birthday.
func (c *Chain) checkAnchor(a *Anchor, birthday int32) error {
	lo := c.contextStart(a.Height)
	switch {
	case a.Height <= 0 || a.LocatorHeight < 0:
		return fmt.Errorf("spv: anchor at height %d, locator %d: want both positive", a.Height, a.LocatorHeight)
	case a.Height > birthday:
		return fmt.Errorf("spv: anchor at height %d is above the birthday %d", a.Height, birthday)
	case a.LocatorHeight >= lo && a.LocatorHeight > 0:
		return fmt.Errorf("spv: anchor at height %d needs the headers from %d, but its locator is at %d", a.Height, lo, a.LocatorHeight)
	case a.LocatorHeight == 0 && a.Locator != *c.net.Params.GenesisHash:
		return fmt.Errorf("spv: anchor at height %d: a locator at height 0 must be the genesis block %s", a.Height, c.net.Params.GenesisHash)
	}
	return nil
}

// fetchAnchor downloads the pending anchor's headers from the peer and
// starts the store with them.
func (c *Chain) fetchAnchor(ctx context.Context, s *Session) error {
	a := c.pending
	lo := c.contextStart(a.Height)
	var kept []wire.BlockHeader
	if a.LocatorHeight == 0 && lo == 0 {
		kept = append(kept, c.net.Params.GenesisBlock.Header)
	}
	prev, h := a.Locator, a.LocatorHeight
	for h < a.Height {
		got, err := getHeaders(ctx, s, []*chainhash.Hash{&prev}, &a.Hash)
		if err != nil {
			return err
		}
		if len(got) == 0 {
			return fmt.Errorf("spv: peer %s has no headers after block %d %s toward the anchor %d %s: %w", s.Addr(), h, prev, a.Height, a.Hash, ErrMisbehaving)
		}
		for _, hdr := range got[:min(len(got), int(a.Height-h))] {
			h++
			if hdr.PrevBlock != prev {
				return fmt.Errorf("spv: peer %s sent header %d (%s) that does not link to block %d: %w", s.Addr(), h, hdr.BlockHash(), h-1, ErrMisbehaving)
			}
			prev = hdr.BlockHash()
			if h >= lo {
				kept = append(kept, *hdr)
			}
		}
	}
	if prev != a.Hash {
		return fmt.Errorf("spv: peer %s sent block %s at the anchor's height %d, not the published %s: %w", s.Addr(), prev, a.Height, a.Hash, ErrMisbehaving)
	}
	for i := range kept {
		if err := c.net.checkProofOfWork(&kept[i]); err != nil {
			return fmt.Errorf("spv: header %d below the anchor: %w: %w", lo+int32(i), ErrMisbehaving, err)
		}
	}
	if err := c.st.Init(c.id, lo, a.Height, kept); err != nil {
		return err
	}
	c.pending = nil
	return c.load()
}
