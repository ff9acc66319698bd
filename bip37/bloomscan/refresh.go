package bloomscan

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/bip37"
)

// The filter's life in a scan. The peer inserts the outpoint of every
// output that matches (UpdateAll), so the filter fills as the wallet is
// paid; the local copy fills the same way, and its bits give the
// false-positive rate the peer applies. A fresh filter of the wallet's
// addresses and unspent coins replaces it:
//
//   - before a request, when the filter has less room than the most
//     elements the peer inserted in one block so far: nothing is in
//     flight, so the swap costs one filterload;
//   - after a block that made it due in the middle of a request (a burst
//     of payments faster than any before): the peer has matched the rest
//     of the request with the old filter, so those blocks are verified,
//     dropped, and asked for again once the fresh filter is loaded.
//
// Requests are sized so that the second case stays rare: they start at
// firstRequest blocks and double, but never ask for more blocks than the
// filter has room for at the fastest insert rate seen.

// start settles the filter policy: the rate, the tweak (random unless
// given) and the least capacity.
func (r *scanner) start() error {
	fp := r.FPRate
	if fp == 0 {
		fp = DefaultFPRate
	}
	if !(fp > 0 && fp <= 1) || !(r.RefreshAt >= 0) {
		return fmt.Errorf("bloomscan: false-positive rate %v or refresh rate %v out of range", fp, r.RefreshAt)
	}
	tweak := r.Tweak
	for tweak == 0 {
		var b [4]byte
		rand.Read(b[:])
		tweak = binary.LittleEndian.Uint32(b[:])
	}
	r.policy = bip37.WalletPolicy{FPRate: fp, Limit: r.RefreshAt, Tweak: tweak, Flags: bip37.UpdateAll, Capacity: r.Capacity}
	return nil
}

// load builds a filter of the watched addresses and the coins not spent
// yet, and sends it with filterload. The peer applies it to the requests
// that follow.
func (r *scanner) load(ctx context.Context) error {
	f, err := r.policy.Build(r.Watch.Addresses(), r.Watch.Coins())
	if err != nil {
		return fmt.Errorf("bloomscan: %w", err)
	}
	if err := r.Session.Send(ctx, f.MsgFilterLoad()); err != nil {
		return err
	}
	r.mirror, r.count = f, f.EstimatedCount()
	r.hopeless = r.policy.Due(f) || r.policy.Room(f) < r.inserts
	r.stats.FilterLoads++
	return nil
}

// filled records what the block at height inserted into the filter and
// reports whether the filter must be replaced before the next block.
func (r *scanner) filled(height int32) bool {
	r.stats.FilterPeakRate = max(r.stats.FilterPeakRate, r.mirror.FilledFalsePositiveRate())
	if n := r.mirror.EstimatedCount(); !math.IsInf(n, 1) {
		r.inserts = max(r.inserts, n-r.count)
		r.count = n
	}
	if r.refreshAfter != nil {
		return r.refreshAfter(height)
	}
	return !r.hopeless && r.policy.Due(r.mirror)
}

// tight reports whether the filter has less room than one block took at
// the fastest insert rate seen, so that it is best replaced now.
func (r *scanner) tight() bool {
	return !r.hopeless && r.inserts > 0 && r.policy.Room(r.mirror) < r.inserts
}

// nextWindow returns how many blocks to ask for next: twice the last
// request, firstRequest at first, at most blocksPerRequest, and no more
// than the filter has room for at the fastest insert rate seen. A filter
// that is never refreshed (RefreshAt 1, or a wallet too large) gets
// blocksPerRequest at once.
func (r *scanner) nextWindow() int32 {
	room := r.policy.Room(r.mirror)
	w := int32(firstRequest)
	switch {
	case r.hopeless || math.IsInf(room, 1):
		w = blocksPerRequest
	case r.window > 0:
		w = min(2*r.window, blocksPerRequest)
	}
	if !r.hopeless && r.inserts > 0 && room < float64(w)*r.inserts {
		w = int32(max(1, room/r.inserts))
	}
	r.window = w
	return w
}
