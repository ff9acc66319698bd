package cfscan

import (
	"context"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Source serves the BIP157 messages a scan asks for: one peer's ([Peer]),
// or those of a client that spreads the requests over several peers and
// compares their filter headers (package gcs/lightclient). A scan verifies
// whatever a Source passes it, so a Source only carries messages.
type Source interface {
	// CFHeaders returns the answer to getcfheaders for the basic filters
	// of heights lo to hi, stop being the hash of the block at hi, or nil
	// if the peer sent none.
	CFHeaders(ctx context.Context, lo, hi int32, stop chainhash.Hash) (*wire.MsgCFHeaders, error)

	// CFilters asks for the basic filters of heights lo to hi and passes
	// handle each message of the answer, in the order they come, stopping
	// at handle's first error.
	CFilters(ctx context.Context, lo, hi int32, stop chainhash.Hash, handle func(wire.Message) error) error

	// Blocks asks for the blocks (getdata, without witness data) and
	// passes handle each message of the answer, stopping at handle's first
	// error.
	Blocks(ctx context.Context, hashes []chainhash.Hash, handle func(wire.Message) error) error
}

// Peer returns the [Source] of one peer: each call is one round trip on s.
func Peer(s *spv.Session) Source { return peer{s} }

type peer struct{ s *spv.Session }

func (p peer) CFHeaders(ctx context.Context, lo, hi int32, stop chainhash.Hash) (*wire.MsgCFHeaders, error) {
	var got *wire.MsgCFHeaders
	err := p.ask(ctx, wire.NewMsgGetCFHeaders(wire.GCSFilterRegular, uint32(lo), &stop), func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgCFHeaders)
		if !ok || got != nil {
			return spv.Unexpected(p.s, msg, "getcfheaders")
		}
		got = m
		return nil
	})
	return got, err
}

func (p peer) CFilters(ctx context.Context, lo, _ int32, stop chainhash.Hash, handle func(wire.Message) error) error {
	return p.ask(ctx, wire.NewMsgGetCFilters(wire.GCSFilterRegular, uint32(lo), &stop), handle)
}

func (p peer) Blocks(ctx context.Context, hashes []chainhash.Hash, handle func(wire.Message) error) error {
	gd := wire.NewMsgGetDataSizeHint(uint(len(hashes)))
	for i := range hashes {
		gd.AddInvVect(wire.NewInvVect(wire.InvTypeBlock, &hashes[i]))
	}
	return p.ask(ctx, gd, handle)
}

// ask runs one round trip.
func (p peer) ask(ctx context.Context, req wire.Message, handle func(wire.Message) error) error {
	nonce, err := p.s.Request(ctx, req)
	if err != nil {
		return err
	}
	return p.s.Replies(ctx, nonce, handle)
}

// CheckCFHeaders checks that msg answers getcfheaders for the basic filters
// of heights lo to hi ending at block stop: the filter type, the stop hash
// and one filter hash per block. Errors wrap spv.ErrMisbehaving.
func CheckCFHeaders(msg *wire.MsgCFHeaders, lo, hi int32, stop chainhash.Hash) error {
	switch {
	case msg.StopHash != stop:
		return errorf(hi, stop, "cfheaders ends at block %s", msg.StopHash)
	case msg.FilterType != wire.GCSFilterRegular:
		return errorf(hi, stop, "cfheaders for filter type %d", msg.FilterType)
	case len(msg.FilterHashes) != int(hi-lo+1):
		return errorf(hi, stop, "cfheaders holds %d filter hashes for heights %d to %d", len(msg.FilterHashes), lo, hi)
	}
	for i, h := range msg.FilterHashes {
		if h == nil {
			return errorf(hi, stop, "cfheaders lacks filter hash %d", i)
		}
	}
	return nil
}
