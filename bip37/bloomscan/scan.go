package bloomscan

import (
	"context"
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

// Requests for filtered blocks start at firstRequest blocks and double up
// to blocksPerRequest, as long as the filter has room for them
// (refresh.go).
const (
	firstRequest     = 16
	blocksPerRequest = 500
)

// Config is one scan.
type Config struct {
	Session *spv.Session // the peer, which must offer wire.SFNodeBloom
	Chain   *spv.Chain   // the header chain, synced to the peer's tip first
	Watch   *spv.Watch

	// From and To bound the scanned heights, both included. A negative To
	// means the tip.
	From, To int32

	// FPRate is the filter's false-positive rate at its capacity, and the
	// target the scan keeps it under; zero means [DefaultFPRate]. The
	// filter is sized with room for the outpoints the peer inserts as
	// payments arrive (bip37.WalletCapacity), and when the rate its bits
	// predict passes RefreshAt, the scan loads a fresh one.
	FPRate float64

	// RefreshAt is the false-positive rate, as the loaded filter's bits
	// predict it after a block, past which the scan loads a fresh filter
	// of the wallet's addresses and unspent coins (before the next
	// request, or at once, fetching the blocks after that one again).
	// Zero means FPRate; 1 never refreshes.
	RefreshAt float64

	// Tweak varies the filter's hash seeds; zero picks one at random.
	// A wallet keeps the tweak of its first scan (Stats.FilterTweak) and
	// passes it to the next, with Capacity, so that every filter it loads
	// puts its elements on the same bits: peers that compare a wallet's
	// filters of different tweaks or sizes learn its addresses
	// (docs/bip37.md).
	Tweak uint32

	// Capacity is the least number of elements the filter is sized for:
	// the Stats.FilterCapacity of the wallet's last scan. Zero sizes it by
	// bip37.WalletCapacity alone.
	Capacity uint32

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
	policy bip37.WalletPolicy
	mirror *bip37.Filter // the peer's copy of the filter, as it evolves
	// hopeless is set when a fresh filter is due at once, or has less
	// room than one block takes: the wallet is too large for a filter at
	// FPRate, and refreshing cannot help.
	hopeless bool
	count    float64 // elements the filter holds, estimated from its fill
	inserts  float64 // the most elements the peer inserted in one block
	window   int32   // blocks in the last request
	col      bip37.Collector
	lo, hi   int32            // the heights of the current request
	hashes   []chainhash.Hash // their block hashes
	next     int32            // height of the next merkle block expected
	// resume is the height after the block where the filter came due in
	// the current request: the blocks from there on are dropped, and
	// fetched again once a fresh filter is loaded. Zero while none came due.
	resume int32

	// refreshAfter, if set, forces a refresh after the blocks it names
	// (tests).
	refreshAfter func(height int32) bool

	synced bool // Scan: the caller synced the header chain
}

// Run scans the range and returns its measurements, filled in as far as it
// came also on error. On error the session is closed: errors from the
// peer wrap spv.ErrMisbehaving or spv.ErrStalled and name the block.
func Run(ctx context.Context, cfg Config) (spv.Stats, error) {
	return newScanner(cfg).scan(ctx)
}

// Scan is [Run] on a chain already synced: it asks the peer for no
// headers, so that a client that follows the chain itself (package
// gcs/lightclient) sees every reorganisation first.
func Scan(ctx context.Context, cfg Config) (spv.Stats, error) {
	r := newScanner(cfg)
	r.synced = true
	return r.scan(ctx)
}

func newScanner(cfg Config) *scanner {
	r := &scanner{Config: cfg}
	r.stats.Mode = "bip37"
	return r
}

func (r *scanner) scan(ctx context.Context) (spv.Stats, error) {
	began := time.Now()
	err := r.run(ctx)
	r.stats.Finish(r.Session, r.Chain, began, err)
	if r.mirror != nil {
		st := &r.stats
		st.FilterSize, st.FilterFill, st.FilterRate = r.mirror.Size(), r.mirror.Fill(), r.mirror.FilledFalsePositiveRate()
		st.FilterTweak, st.FilterCapacity = r.policy.Tweak, r.policy.Capacity
		if others := st.Transactions - st.WalletTxs; others > 0 {
			st.ObservedFPRate = float64(st.FalsePositives) / float64(others)
		}
	}
	return r.stats, err
}

func (r *scanner) run(ctx context.Context) error {
	if r.Session == nil || r.Chain == nil || r.Watch == nil || r.Emit == nil {
		return errors.New("bloomscan: Config needs a Session, a Chain, a Watch and Emit")
	}
	if err := r.start(); err != nil {
		return err
	}
	if !r.synced {
		if err := spv.SyncHeaders(ctx, r.Session, r.Chain); err != nil {
			return err
		}
	}
	if err := r.bounds(); err != nil {
		return err
	}
	if err := r.load(ctx); err != nil {
		return err
	}
	for lo := r.From; lo <= r.To; {
		if r.tight() {
			if err := r.load(ctx); err != nil {
				return err
			}
		}
		next, err := r.batch(ctx, lo, min(lo+r.nextWindow()-1, r.To))
		if err != nil {
			return err
		}
		if next <= r.To && r.resume != 0 {
			if err := r.load(ctx); err != nil {
				return err
			}
		}
		lo = next
	}
	return nil
}

// bounds settles To and checks the range against the chain.
func (r *scanner) bounds() (err error) {
	r.From, r.To, err = r.Chain.Range(r.From, r.To)
	r.stats.From, r.stats.To = r.From, r.To
	return err
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
