package spv

import (
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/wire/v2"
)

// Connect verifies headers, consecutive headers as a headers message
// carries them, and adds them to the chain. The first must follow a block
// of the chain within its window, or of a competing branch it keeps;
// headers the chain already has are skipped. A branch that forks below the
// tip replaces the blocks above its fork only once it carries more work;
// until then it is kept in memory, and a later Connect may extend it. It
// returns how many headers were added to the chain. Nothing is added
// unless every header verifies; the error wraps [ErrMisbehaving] and names
// the header's height and hash. The headers are durable after
// [Chain.Commit].
func (c *Chain) Connect(headers []*wire.BlockHeader) (int, error) {
	if c.pending != nil {
		return 0, errors.New("spv: the chain's anchor headers are not fetched yet (SyncHeaders fetches them)")
	}
	links := make([]link, 0, len(headers))
	for _, h := range headers {
		l := link{*h, h.BlockHash()}
		if _, known := c.byHash[l.hash]; known && len(links) == 0 {
			continue // already on the chain
		}
		links = append(links, l)
	}
	if len(links) == 0 {
		return 0, nil
	}
	v, err := c.forkView(links[0])
	if err != nil {
		return 0, err
	}
	for i := range links {
		if err := v.verify(&links[i].header); err != nil {
			return 0, fmt.Errorf("spv: header %d (%s): %w: %w", v.tip()+1, links[i].hash, ErrMisbehaving, err)
		}
		v.branch = append(v.branch, links[i])
	}
	if v.fork == c.Height() {
		return len(v.branch), c.extend(v.branch)
	}
	return c.consider(&branch{fork: v.fork, links: v.branch})
}

// forkView returns the view the header after first's parent is verified
// in: the main chain up to the parent, or a kept branch up to it.
func (c *Chain) forkView(first link) (*view, error) {
	parent := first.header.PrevBlock
	if h, ok := c.byHash[parent]; ok {
		if anchor, _ := c.Anchor(); h < anchor {
			return nil, fmt.Errorf("spv: header %s forks from block %d, below the anchor %d: %w", first.hash, h, anchor, ErrMisbehaving)
		}
		return &view{c: c, fork: h}, nil
	}
	for _, b := range c.side {
		if b.fork < c.recentLo {
			continue // its fork left the window
		}
		for i := range b.links {
			if b.links[i].hash == parent {
				return &view{c: c, fork: b.fork, branch: append([]link(nil), b.links[:i+1]...)}, nil
			}
		}
	}
	return nil, fmt.Errorf("spv: header %s follows block %s, which is neither among the chain's last %d blocks nor on a branch it keeps: %w",
		first.hash, parent, len(c.recent), ErrMisbehaving)
}

// extend appends verified links after the tip.
func (c *Chain) extend(links []link) error {
	hs := make([]wire.BlockHeader, len(links))
	for i := range links {
		hs[i] = links[i].header
	}
	if err := c.st.Append(hs); err != nil {
		return err
	}
	for _, l := range links {
		c.push(l)
	}
	return nil
}

// consider keeps b, a branch below the tip, or reorganises to it if it
// carries more work than the chain above its fork. It returns how many
// headers the chain gained.
func (c *Chain) consider(b *branch) (int, error) {
	above := c.recent[b.fork+1-c.recentLo:]
	if work(b.links).Cmp(work(above)) <= 0 {
		c.keep(b)
		return 0, nil
	}
	old := &branch{fork: b.fork, links: append([]link(nil), above...)}
	if err := c.st.Truncate(b.fork); err != nil {
		return 0, err
	}
	for _, l := range above {
		delete(c.byHash, l.hash)
	}
	c.recent = c.recent[:b.fork+1-c.recentLo]
	c.dropSide(b)
	if err := c.extend(b.links); err != nil {
		return 0, err
	}
	c.keep(old)
	return len(b.links), nil
}

// keep adds b to the kept branches, replacing any it extends, and drops
// the oldest beyond maxSideBranches and those forking below the window.
func (c *Chain) keep(b *branch) {
	c.dropSide(b)
	c.side = append(c.side, b)
	kept := c.side[:0]
	for _, s := range c.side {
		if s.fork >= c.recentLo && int32(len(s.links)) <= c.window {
			kept = append(kept, s)
		}
	}
	c.side = kept[max(0, len(kept)-maxSideBranches):]
}

// dropSide removes the kept branches that are prefixes of b (b replaces
// them).
func (c *Chain) dropSide(b *branch) {
	kept := c.side[:0]
	for _, s := range c.side {
		prefix := s.fork == b.fork && len(s.links) <= len(b.links) && s.links[len(s.links)-1].hash == b.links[len(s.links)-1].hash
		if !prefix {
			kept = append(kept, s)
		}
	}
	c.side = kept
}
