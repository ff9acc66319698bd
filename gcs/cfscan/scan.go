package cfscan

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Config is one scan.
type Config struct {
	Session *spv.Session // the peer, which must offer wire.SFNodeCF
	Chain   *spv.Chain   // the header chain, synced to the peer's tip first
	Watch   *spv.Watch

	// Source serves the scan's BIP157 messages; nil means Peer(Session).
	// Run syncs the header chain from Session alone.
	Source Source

	// From and To bound the scanned heights, both included. A negative To
	// means the tip.
	From, To int32

	// Checkpoint is a filter header the wallet trusts; nil verifies the
	// filter-header chain from genesis.
	Checkpoint *gcs.Checkpoint

	// Emit receives each wallet transaction, in block order. An error
	// stops the scan.
	Emit func(spv.Tx) error

	// Progress, if set, is called after each block's filter.
	Progress func(spv.Progress)

	// match, if set, replaces the reused gcs.Query: benchmarks compare
	// other matchers.
	match func(f *gcs.Filter, data []byte) bool
}

// scanner is the state of one Run.
type scanner struct {
	Config
	stats    spv.Stats
	query    *gcs.Query // the wallet's scripts
	lo       int32      // first height of the batch of filters
	hashes   []chainhash.Hash
	fheaders []chainhash.Hash // filter headers of lo-1 to the batch's end, from the store
	set      gcs.Set          // a candidate block's filter, decoded
}

// Run syncs the header chain from Session, then scans the range ([Scan]),
// and returns its measurements, filled in as far as it came also on
// error. On error the session is closed: errors from the peer wrap
// spv.ErrMisbehaving or spv.ErrStalled and name the block
// ([*BlockError]).
func Run(ctx context.Context, cfg Config) (spv.Stats, error) {
	began := time.Now()
	r := &scanner{Config: cfg}
	err := r.check(cfg.Session == nil)
	if err == nil {
		err = spv.SyncHeaders(ctx, r.Session, r.Chain)
	}
	if err == nil {
		err = r.scan(ctx)
	}
	r.stats.Finish(r.Session, r.Chain, began, err)
	return r.stats, err
}

// Scan scans the range of a chain already synced, asking Source (or
// Session) for filter headers, filters and blocks, and returns its
// measurements as [Run] does. With a Session it closes it on error; a
// Source of its own is left to its owner, along with the traffic counts.
func Scan(ctx context.Context, cfg Config) (spv.Stats, error) {
	began := time.Now()
	r := &scanner{Config: cfg}
	err := r.check(cfg.Session == nil && cfg.Source == nil)
	if err == nil {
		err = r.scan(ctx)
	}
	r.stats.Finish(r.Session, r.Chain, began, err)
	return r.stats, err
}

// check refuses an incomplete Config.
func (r *scanner) check(noPeer bool) error {
	r.stats.Mode = "bip157"
	if noPeer || r.Chain == nil || r.Watch == nil || r.Emit == nil {
		return errors.New("cfscan: Config needs a Session (or for Scan a Source), a Chain, a Watch and Emit")
	}
	if r.Source == nil {
		r.Source = Peer(r.Session)
	}
	return nil
}

func (r *scanner) scan(ctx context.Context) error {
	if err := r.bounds(); err != nil {
		return err
	}
	r.query = gcs.NewQuery(r.Watch.Scripts())
	if err := r.filterHeaders(ctx); err != nil {
		return err
	}
	return r.filters(ctx)
}

// bounds settles To and checks the range and the checkpoint against the
// chain.
func (r *scanner) bounds() (err error) {
	r.From, r.To, err = r.Chain.Range(r.From, r.To)
	r.stats.From, r.stats.To = r.From, r.To
	switch base := r.Chain.Base(); {
	case err != nil:
	case base > 0 && r.From <= base:
		err = fmt.Errorf("cfscan: range starts at %d, but the chain holds headers from %d only: scan from %d", r.From, base, base+1)
	case r.Checkpoint != nil && int64(r.Checkpoint.Height) > int64(r.Chain.Height()):
		err = fmt.Errorf("cfscan: checkpoint at height %d is above the peer's tip %d", r.Checkpoint.Height, r.Chain.Height())
	case r.Checkpoint != nil && int64(r.Checkpoint.Height) < int64(base):
		err = fmt.Errorf("cfscan: checkpoint at height %d is below the chain's first header %d", r.Checkpoint.Height, base)
	}
	return err
}

// misbehaving returns a *BlockError about the block at height that wraps
// spv.ErrMisbehaving.
func (r *scanner) misbehaving(height int32, format string, args ...any) error {
	return errorf(height, r.hash(height), format, args...)
}

// blockError names the block at height in err, which already wraps
// spv.ErrMisbehaving.
func (r *scanner) blockError(height int32, err error) error {
	return &BlockError{height, r.hash(height), err}
}

// unexpected returns the error for msg, which does not answer request,
// naming a reject's reason (clipped and escaped: it is the peer's text).
func (r *scanner) unexpected(height int32, msg wire.Message, request string) error {
	if rj, ok := msg.(*wire.MsgReject); ok {
		return r.misbehaving(height, "the peer rejected %s: %.200q (code %v)", rj.Cmd, rj.Reason, rj.Code)
	}
	return r.misbehaving(height, "the peer answered %s with an unexpected %s", request, msg.Command())
}

// hash returns the hash of the block at height, zero if the chain lacks it.
func (r *scanner) hash(height int32) chainhash.Hash {
	hash, _ := r.Chain.Hash(height)
	return hash
}

// matches reports whether f, verified, may hold a watched script.
func (r *scanner) matches(f *gcs.Filter, data []byte) bool {
	if r.match != nil {
		g := *f // a copy, so that f does not escape through the func value
		return r.match(&g, data)
	}
	return r.query.MatchAny(f)
}
