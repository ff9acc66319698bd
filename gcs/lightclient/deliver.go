package lightclient

import (
	"context"
	"crypto/sha256"
	"fmt"
)

// Delivery and commits. The engine puts events and states to keep on one
// queue, in the order they happen; deliver hands the events to the
// consumer on an unbuffered channel and writes each state once every
// event before it was handled. An event counts as handled once the
// consumer has taken the next one: a consumer that reads the stream in
// one loop (for ev := range c.Events()) takes the next only after it is
// done with the last. A Synced event carries nothing to handle, so once
// it is taken everything before it was handled.
//
// So after a crash the wallet's file holds a state whose events were all
// handled, and a restart reports again, in the same order, those that
// came after it: the crash window.

// item is an entry of the delivery queue: an event, or a state to keep.
type item struct {
	ev   Event
	keep []byte
}

// deliver runs until the engine closes the queue: it delivers the events,
// or after ctx ends drops them (nothing is committed after a dropped
// event), and commits the states.
func (c *Client) deliver(ctx context.Context) {
	var ready []byte // a state waiting for the consumer to take the next event
	lastData, dropping := false, false
	for it := range c.queue {
		if it.keep != nil {
			c.markers.Add(-1)
			select {
			case c.taken <- struct{}{}:
			default:
			}
			switch {
			case dropping:
			case lastData:
				ready = it.keep // what it covers waits on the same event as what it replaces
			default:
				c.commit(it.keep)
				ready = nil
			}
			continue
		}
		if dropping {
			continue
		}
		select {
		case c.events <- it.ev:
		case <-ctx.Done():
			dropping = true
			continue
		}
		if ready != nil {
			c.commit(ready)
			ready = nil
		}
		lastData = it.ev.Kind != Synced
	}
}

// commit writes a state to the wallet's file; the first failure stops
// the client (Client.keepFailed).
func (c *Client) commit(b []byte) {
	if err := c.chain.Store().PutFile(c.walletFile, b); err != nil {
		c.mu.Lock()
		if c.keepErr == nil {
			c.keepErr = fmt.Errorf("lightclient: keeping the wallet's state: %w", err)
		}
		c.mu.Unlock()
	}
}

// keepFailed returns why a commit failed, if one did.
func (c *Client) keepFailed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.keepErr
}

// maxMarkers bounds the states waiting on the queue, each a copy of the
// wallet's state: two, so that the state before a step's last block and
// the one after it both get there.
const maxMarkers = 2

// save queues the wallet's state to be kept, if it changed since the last
// one queued and fewer than maxMarkers wait on the queue (a later save
// point, or the deliverer taking one, saves what this one skipped). The
// headers and filter headers it refers to are committed first. force
// queues it whatever waits (the last).
func (c *Client) save(ctx context.Context, force bool) error {
	if !c.keep {
		return nil
	}
	if c.markers.Load() >= maxMarkers && !force {
		c.unsaved = true
		return nil
	}
	b, err := c.encodeState()
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	c.unsaved = false
	if sum == c.lastKept {
		return nil
	}
	if err := c.chain.Commit(); err != nil {
		return err
	}
	c.markers.Add(1)
	select {
	case c.queue <- item{keep: b}:
	case <-ctx.Done():
		c.markers.Add(-1)
		return ctx.Err()
	}
	c.lastKept = sum
	return nil
}

// emit queues ev for the consumer, waiting while the queue is full.
func (c *Client) emit(ctx context.Context, ev Event) error {
	select {
	case c.queue <- item{ev: ev}:
		if ev.Kind != Synced {
			c.emitted++
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
