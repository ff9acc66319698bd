package bloomscan

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// DefaultFPRate is the filter's false-positive rate when [Config.FPRate]
// is zero: bitcoinj's historical default.
const DefaultFPRate = 0.0005

// blocksPerRequest is the number of filtered blocks one getdata asks for.
const blocksPerRequest = 500

// Config is one scan.
type Config struct {
	Session *spv.Session // the peer, which must offer wire.SFNodeBloom
	Chain   *spv.Chain   // the header chain, synced to the peer's tip first
	Watch   *spv.Watch

	// From and To bound the scanned heights, both included. A negative To
	// means the tip.
	From, To int32

	// FPRate is the filter's false-positive rate at its design load (the
	// watched addresses and coins); zero means [DefaultFPRate]. Outpoints
	// the peer inserts as outputs match raise the actual rate.
	FPRate float64

	// Tweak varies the filter's hash seeds, so that peers cannot link a
	// wallet's filters; zero picks one at random.
	Tweak uint32

	// Emit receives each wallet transaction, in block order. An error
	// stops the scan.
	Emit func(spv.Tx) error

	// Progress, if set, is called after each merkle block.
	Progress func(spv.Progress)
}

// scanner is the state of one Run.
type scanner struct {
	Config
	stats  spv.Stats
	mirror *bip37.Filter // the peer's copy of the filter, as it evolves
	col    bip37.Collector
	lo, hi int32            // the heights of the current request
	hashes []chainhash.Hash // their block hashes
	next   int32            // height of the next merkle block expected
}

// Run scans the range and returns its measurements, filled in as far as it
// came also on error. On error the session is closed: errors from the
// peer wrap spv.ErrMisbehaving or spv.ErrStalled and name the block.
func Run(ctx context.Context, cfg Config) (spv.Stats, error) {
	began := time.Now()
	r := &scanner{Config: cfg}
	r.stats.Mode = "bip37"
	err := r.run(ctx)
	r.stats.Finish(r.Session, r.Chain, began, err)
	if r.mirror != nil {
		r.stats.FilterSize, r.stats.FilterFill = r.mirror.Size(), r.mirror.Fill()
	}
	return r.stats, err
}

func (r *scanner) run(ctx context.Context) error {
	if r.Session == nil || r.Chain == nil || r.Watch == nil || r.Emit == nil {
		return errors.New("bloomscan: Config needs a Session, a Chain, a Watch and Emit")
	}
	if err := spv.SyncHeaders(ctx, r.Session, r.Chain); err != nil {
		return err
	}
	if err := r.bounds(); err != nil {
		return err
	}
	if err := r.load(ctx); err != nil {
		return err
	}
	for lo := r.From; lo <= r.To; lo += blocksPerRequest {
		if err := r.batch(ctx, lo, min(lo+blocksPerRequest-1, r.To)); err != nil {
			return err
		}
	}
	return nil
}

// bounds settles To and checks the range against the chain.
func (r *scanner) bounds() (err error) {
	r.From, r.To, err = r.Chain.Range(r.From, r.To)
	r.stats.From, r.stats.To = r.From, r.To
	return err
}

// load builds the wallet filter and sends it with filterload.
func (r *scanner) load(ctx context.Context) error {
	fp := r.FPRate
	if fp == 0 {
		fp = DefaultFPRate
	}
	tweak := r.Tweak
	for tweak == 0 {
		var b [4]byte
		rand.Read(b[:])
		tweak = binary.LittleEndian.Uint32(b[:])
	}
	f, err := bip37.NewWalletFilter(r.Watch.Addresses(), r.Watch.Coins(), fp, tweak, bip37.UpdateAll)
	if err != nil {
		return fmt.Errorf("bloomscan: %w", err)
	}
	if err := r.Session.Send(ctx, f.MsgFilterLoad()); err != nil {
		return err
	}
	r.mirror = f
	return nil
}

// misbehaving returns an error about the block at height that wraps
// spv.ErrMisbehaving.
func (r *scanner) misbehaving(height int32, format string, args ...any) error {
	name := fmt.Sprint(height)
	if hash, err := r.Chain.Hash(height); err == nil {
		name = fmt.Sprintf("%d (%s)", height, hash)
	}
	return fmt.Errorf("bloomscan: block %s: %s: %w", name, fmt.Sprintf(format, args...), spv.ErrMisbehaving)
}
