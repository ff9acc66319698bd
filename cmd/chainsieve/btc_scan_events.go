package main

import (
	"fmt"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// btcScanOutput prints a running client's stream: the wallet's
// transactions on stdout, bans and (in follow mode) each catch-up on
// stderr, the progress line on a terminal.
type btcScanOutput struct {
	e        *env
	f        *btcScanFlags
	c        *lightclient.Client
	line     *progress.Line
	began    time.Time
	resumed  *wallet.Block   // the last block the wallet the store kept had reported
	reported int32           // the last block printed; birthday-1 before any
	caughtUp bool            // a Synced event reached the tip less the confirmations
	txs      int             // transactions printed
	removed  int             // of those, printed as removed
	tip      int32           // the header chain's height at the last event
	banned   map[string]bool // bans printed, by key and expiry
}

func newBTCScanOutput(e *env, f *btcScanFlags, c *lightclient.Client, began time.Time) *btcScanOutput {
	return &btcScanOutput{e: e, f: f, c: c, line: progress.NewAfter(e.stderr, 500*time.Millisecond), began: began,
		reported: f.birthday - 1, tip: -1, banned: make(map[string]bool)}
}

// from is the first block of the range the run covers: the birthday, or
// the block after those the kept wallet had reported.
func (o *btcScanOutput) from() int32 {
	if o.resumed != nil {
		return o.resumed.Height + 1
	}
	return o.f.birthday
}

// events prints the stream until it closes, and returns the first error
// writing stdout, after which it stops the client: output that cannot be
// delivered ends the run.
func (o *btcScanOutput) events() error {
	for ev := range o.c.Events() {
		if err := o.event(ev); err != nil {
			o.c.Stop()
			return fmt.Errorf("stdout: %w", err)
		}
		o.printBans()
	}
	return nil
}

func (o *btcScanOutput) event(ev lightclient.Event) error {
	o.tip = ev.Tip
	switch ev.Kind {
	case lightclient.Connected:
		if len(ev.Txs) > 0 {
			o.line.Clear()
		}
		for _, tx := range ev.Txs {
			if err := writeBTCTx(o.e.stdout, tx, o.f.asJSON, false); err != nil {
				return err
			}
			o.txs++
		}
		if !ev.Rescan {
			o.reported = ev.Height
		}
		goal := ev.Tip - (o.f.confirmations - 1)
		if o.f.to > 0 {
			goal = o.f.to
		}
		o.line.Draw(ev.Height >= goal, func() string { return btcProgress(o.from(), ev.Height, goal) })
	case lightclient.Disconnected:
		o.line.Clear()
		for _, tx := range ev.Txs {
			if err := writeBTCTx(o.e.stdout, tx, o.f.asJSON, true); err != nil {
				return err
			}
			o.removed++
		}
		o.reported = ev.Height - 1
		fmt.Fprintf(o.e.stderr, "btc scan: block %d %s left the chain\n", ev.Height, ev.Hash)
	case lightclient.Synced:
		o.caughtUp = o.caughtUp || ev.Height >= ev.Tip-(o.f.confirmations-1)
		if o.f.follow {
			o.line.Clear()
			fmt.Fprintf(o.e.stderr, "btc scan: synced to block %d (tip %d, %d peers)\n", ev.Height, ev.Tip, len(o.c.Peers()))
		}
	}
	return nil
}

// printBans prints the bans not printed yet, with their reasons: those
// made in this run, and those the store kept from earlier ones.
func (o *btcScanOutput) printBans() {
	for _, b := range o.c.Bans() {
		key := b.Key + " " + b.Until.String()
		if o.banned[key] {
			continue
		}
		o.banned[key] = true
		o.line.Clear()
		until := b.Until.UTC().Format(time.RFC3339)
		if b.Since.Before(o.began.Truncate(time.Second)) {
			fmt.Fprintf(o.e.stderr, "btc scan: %s stays banned until %s (since %s, kept in the store): %s\n",
				peerText(b.Peer), until, b.Since.UTC().Format(time.RFC3339), peerText(b.Reason))
			continue
		}
		fmt.Fprintf(o.e.stderr, "btc scan: banned %s until %s: %s\n", peerText(b.Peer), until, peerText(b.Reason))
	}
}

// finish erases the progress line and prints the bans left.
func (o *btcScanOutput) finish() {
	o.line.Clear()
	o.printBans()
}
