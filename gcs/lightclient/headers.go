package lightclient

import (
	"context"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Every run of headers a peer sends, reply or announcement (they cannot
// always be told apart, see spv.Session.SendHeaders), is handled alike:
// connected if it links to a block the chain knows, otherwise the peer is
// asked for headers from a locator. A competing branch accumulates across
// messages in the chain's side branches (spv.Chain.Connect) and wins once
// it carries more work; the next catch-up then reports the
// reorganisation.

// maxStale bounds the getheaders round trips in a row that connect
// nothing new while the peer keeps sending headers. Such a peer is
// dropped, not banned: it may be a liar, or serve a branch forking deeper
// than the chain keeps (spv.DefaultWindow, 4,032 headers), which the
// client cannot follow.
const maxStale = 8

// onNotify takes what every peer announced.
func (c *Client) onNotify(ctx context.Context) {
	for {
		select {
		case <-c.pool.notify:
			continue // one pass serves every signal queued
		default:
		}
		break
	}
	for _, p := range slices.Clone(c.pool.peers) {
		if !c.pool.alive(p) {
			continue
		}
		if err := c.announced(ctx, p, p.s.Announced()); err != nil {
			c.blame(p, err)
		}
	}
}

// announced connects what p announced, and asks it for headers if that
// does not link or something was dropped.
func (c *Client) announced(ctx context.Context, p *peer, a spv.Announcement) error {
	more, _, err := c.connectRuns(p, a)
	if err != nil {
		return err
	}
	if more {
		return c.syncFrom(ctx, p)
	}
	return nil
}

// connectRuns connects the runs of headers and the block hashes p
// announced. It reports whether to ask p for more (a run did not link,
// filled a message, an announced block is unknown, or some were dropped),
// and the last header of a full run that went to a side branch, to ask
// from.
func (c *Client) connectRuns(p *peer, a spv.Announcement) (more bool, branch *chainhash.Hash, err error) {
	more = a.Dropped
	for _, run := range a.Headers {
		if len(run) == 0 {
			continue
		}
		if !c.chain.Knows(run[0].PrevBlock) {
			more = true
			continue
		}
		tip := c.chain.Tip()
		if _, err := c.chain.Connect(run); err != nil {
			return false, nil, fmt.Errorf("peer %s: %w", p.addr, err)
		}
		last := run[len(run)-1].BlockHash()
		p.saw(last)
		if len(run) == wire.MaxBlockHeadersPerMsg {
			more = true
			if c.chain.Tip() == tip {
				branch = &last
			}
		}
	}
	for _, hash := range a.Blocks {
		if c.chain.Knows(hash) {
			p.saw(hash)
		} else {
			more = true
		}
	}
	return more, branch, c.chain.Commit()
}

// syncFrom asks p for headers from the chain's locator (led by the tip
// of a branch being accumulated) until it has no more. A peer that
// ignores getheaders (btcd does while its tip is over 24 hours old) is
// left alone.
func (c *Client) syncFrom(ctx context.Context, p *peer) error {
	var branch *chainhash.Hash
	for stale := 0; stale < maxStale; {
		loc, err := c.chain.Locator()
		if err != nil {
			return err
		}
		if branch != nil {
			loc = append([]*chainhash.Hash{branch}, loc...)
		}
		gh := wire.NewMsgGetHeaders()
		for _, h := range loc[:min(len(loc), wire.MaxBlockLocatorsPerMsg)] {
			gh.AddBlockLocatorHash(h)
		}
		nonce, err := p.s.Request(ctx, gh)
		if err != nil {
			return err
		}
		var got spv.Announcement
		err = p.s.Replies(ctx, nonce, func(msg wire.Message) error {
			m, ok := msg.(*wire.MsgHeaders)
			if !ok {
				return spv.Unexpected(p.s, msg, "getheaders")
			}
			got.Headers = append(got.Headers, m.Headers)
			return nil
		})
		if err != nil {
			return err
		}
		// The reply may have passed for an announcement (see
		// spv.Session.SendHeaders): take those too.
		later := p.s.Announced()
		got.Headers, got.Blocks, got.Dropped = append(got.Headers, later.Headers...), later.Blocks, later.Dropped
		if len(got.Headers) == 0 {
			return nil
		}
		before, best := c.chain.Tip(), p.best(c.chain)
		more, next, err := c.connectRuns(p, got)
		if err != nil || !more {
			return err
		}
		if c.chain.Tip() == before && p.best(c.chain) == best && (next == nil || branch != nil && *next == *branch) {
			stale++
		}
		branch = next
	}
	return fmt.Errorf("lightclient: peer %s: %d rounds of headers that connect nothing new (a fork deeper than the chain keeps, or a liar)", p.addr, maxStale)
}
