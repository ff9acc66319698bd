package lightclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// maintainEvery is how often a following client tops its peers up;
// every retryEvery while it has fewer than it needs to make progress.
const (
	maintainEvery = 10 * time.Second
	retryEvery    = time.Second
)

// run is the engine: the one goroutine that owns the chain, the peers'
// sessions and the scan state.
func (c *Client) run(ctx context.Context) error {
	if err := c.connect(ctx); err != nil {
		return err
	}
	goal := c.chain.Height()
	if c.cfg.To > 0 {
		goal = c.cfg.To
		if goal > c.chain.Height() {
			return fmt.Errorf("lightclient: range ends at %d, above the peers' tip %d", goal, c.chain.Height())
		}
	}
	tick := time.NewTicker(maintainEvery)
	defer tick.Stop()
	stuck := time.Now()
	for first := true; ; first = false {
		progressed, err := c.catchUp(ctx, goal)
		c.mu.Lock()
		c.stats.Headers = c.chain.Height()
		c.mu.Unlock()
		if err != nil && !errors.Is(err, errNoPeers) {
			return err
		}
		if err := c.keepFailed(); err != nil {
			return err
		}
		if progressed || first {
			stuck = time.Now()
			tip := c.Tip()
			if err := c.emit(ctx, Event{Kind: Synced, Height: tip.Height, Hash: tip.Hash, Tip: c.chain.Height()}); err != nil {
				return err
			}
		}
		if !c.cfg.Follow && c.scanned >= goal {
			return nil // blocks short of their confirmations stay unreported
		}
		if !c.cfg.Follow && len(c.pool.peers) < c.need() {
			c.pool.retry()
			if err := c.pool.fill(ctx, c.need()); err != nil {
				return fmt.Errorf("lightclient: scanned to %d of %d: %w", c.scanned, goal, err)
			}
		}
		if !c.cfg.Follow && time.Since(stuck) > c.timeout() {
			return fmt.Errorf("lightclient: scanned to %d of %d, and no quorum of %d peers serves more within %v (%d connected): %w",
				c.scanned, goal, c.cfg.Quorum, c.timeout(), len(c.pool.peers), errNoPeers)
		}
		if len(c.pool.peers) < c.need() || err != nil { // no quorum served the last step: try again soon
			tick.Reset(retryEvery)
		} else {
			tick.Reset(maintainEvery)
		}
		if err := c.wait(ctx, tick.C); err != nil {
			return err
		}
	}
}

func (c *Client) timeout() time.Duration {
	if c.cfg.Timeout > 0 {
		return c.cfg.Timeout
	}
	return spv.DefaultTimeout
}

// need is how many peers the mode needs to make progress.
func (c *Client) need() int { return c.cfg.Quorum }

// connect connects the first peers and syncs the header chain from each.
// The first sync also fetches an anchor's headers; once it is done, the
// peers are asked to announce blocks by their headers (BIP130).
func (c *Client) connect(ctx context.Context) error {
	for tries := 0; ; tries++ {
		if err := c.pool.fill(ctx, c.need()); err != nil {
			return err
		}
		for _, p := range slices.Clone(c.pool.peers) {
			c.syncNew(ctx, p)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if len(c.pool.peers) >= c.need() {
			return nil
		}
		if tries == 3 {
			return fmt.Errorf("lightclient: %d peers left after the header sync, %d needed: %w", len(c.pool.peers), c.need(), errNoPeers)
		}
		c.pool.retry()
	}
}

// syncNew syncs the headers of a newly connected peer, then asks it for
// header announcements. The very first sync goes through spv.SyncHeaders,
// which fetches an anchor's headers; no announcement can be taken for a
// reply before that, since none was asked for.
func (c *Client) syncNew(ctx context.Context, p *peer) {
	var err error
	if !c.synced {
		if err = spv.SyncHeaders(ctx, p.s, c.chain); err == nil {
			c.synced = true
			p.saw(c.chain.Tip())
		}
	} else {
		err = c.syncFrom(ctx, p)
	}
	if err == nil {
		err = p.s.SendHeaders(ctx)
	}
	if err != nil {
		c.blame(p, err)
		return
	}
	p.synced = true
	c.pool.good(p)
}

// blame drops p for err, banning it if err proves it lied.
func (c *Client) blame(p *peer, err error) {
	if errors.Is(err, spv.ErrMisbehaving) {
		c.pool.ban(p, fmt.Errorf("peer %s: %w", p.addr, err))
		return
	}
	c.pool.drop(p, err)
}

// wait blocks until something needs the engine: announcements, a
// command, a queued rescan, or the maintenance tick.
func (c *Client) wait(ctx context.Context, tick <-chan time.Time) error {
	select {
	case <-c.pool.notify:
		c.onNotify(ctx)
	case cmd := <-c.cmds:
		c.broadcast(cmd)
	case <-c.wake:
	case <-c.taken:
		if !c.unsaved {
			return nil
		}
	case <-tick:
		c.maintain(ctx)
	case <-ctx.Done():
		return ctx.Err()
	}
	return c.saveAll(ctx)
}

// saveAll queues the wallet's state to keep and writes the peers file,
// if they changed.
func (c *Client) saveAll(ctx context.Context) error {
	if err := c.pool.savePeers(); err != nil {
		c.cfg.Logger.Error("peers file", "err", err)
	}
	return c.save(ctx, false)
}

// maintain drops dead peers and tops the pool up to its target.
func (c *Client) maintain(ctx context.Context) {
	for _, p := range slices.Clone(c.pool.peers) {
		c.pool.alive(p)
	}
	if len(c.pool.peers) >= c.cfg.TargetPeers {
		return
	}
	c.pool.retry()
	known := slices.Clone(c.pool.peers)
	c.pool.fill(ctx, 0)
	for _, p := range slices.Clone(c.pool.peers) {
		if !slices.Contains(known, p) {
			c.syncNew(ctx, p)
		}
	}
}

// broadcast runs a Broadcast command.
func (c *Client) broadcast(cmd command) {
	var sessions []*spv.Session
	for _, p := range c.pool.peers {
		sessions = append(sessions, p.s)
	}
	if len(sessions) == 0 {
		cmd.reply <- broadcastResult{err: fmt.Errorf("lightclient: no peer to broadcast to: %w", errNoPeers)}
		return
	}
	relays := spv.Broadcast(cmd.ctx, cmd.tx, 0, sessions...)
	for _, r := range relays {
		if r.Outcome == spv.Requested {
			c.mu.Lock()
			c.wallet.AddUnconfirmed(cmd.tx) // an error: not the wallet's, nothing to record
			c.mu.Unlock()
			break
		}
	}
	cmd.reply <- broadcastResult{relays: relays}
}

// msgs returns the transactions' messages.
func msgs(txs []spv.Tx) []*wire.MsgTx {
	out := make([]*wire.MsgTx, len(txs))
	for i := range txs {
		out[i] = txs[i].Msg
	}
	return out
}
