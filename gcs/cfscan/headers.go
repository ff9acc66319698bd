package cfscan

import (
	"context"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// filterHeaders fetches the filter hashes from the trust anchor to the end
// of the range, verifies the filter-header chain they form, and keeps the
// hashes of From..To. The anchor is the checkpoint if it lies below From
// (the chain continues from it), otherwise the chain must pass through it;
// without a checkpoint the chain starts at genesis, whose previous header
// is all zeros.
func (r *scanner) filterHeaders(ctx context.Context) error {
	start, end := int32(0), r.To
	var prev chainhash.Hash // the header before start, if known
	known, checked := true, 0
	if cp := r.Checkpoint; cp != nil {
		if h := int32(cp.Height); h < r.From {
			start, prev, checked = h+1, cp.Header, 1
		} else {
			start, end, known = r.From, max(end, h), false
		}
	}
	r.fhashes = make([]chainhash.Hash, 0, r.To-r.From+1)
	for lo := start; lo <= end; lo += wire.MaxCFHeadersPerMsg {
		hi := min(lo+wire.MaxCFHeadersPerMsg-1, end)
		msg, err := r.cfheaders(ctx, lo, hi)
		if err != nil {
			return err
		}
		if known && msg.PrevFilterHeader != prev {
			return r.misbehaving(lo, "cfheaders starts after filter header %s, but the chain has %s", msg.PrevFilterHeader, prev)
		}
		headers, err := gcs.CFHeaders(nil, msg)
		if err != nil {
			return r.misbehaving(lo, "%v", err)
		}
		if r.Checkpoint != nil {
			n, err := gcs.VerifyHeaders(uint32(lo), headers, *r.Checkpoint)
			if err != nil {
				return fmt.Errorf("cfscan: %w: %w", spv.ErrMisbehaving, err)
			}
			checked += n
		}
		r.keep(lo, msg.FilterHashes)
		prev, known = headers[len(headers)-1], true
	}
	if r.Checkpoint != nil && checked == 0 {
		return fmt.Errorf("cfscan: checkpoint at height %d was not checked", r.Checkpoint.Height)
	}
	return nil
}

// cfheaders runs one getcfheaders round trip for heights lo..hi and checks
// that the reply covers exactly them.
func (r *scanner) cfheaders(ctx context.Context, lo, hi int32) (*wire.MsgCFHeaders, error) {
	stop := r.Chain.Hash(hi)
	nonce, err := r.Session.Request(ctx, wire.NewMsgGetCFHeaders(wire.GCSFilterRegular, uint32(lo), &stop))
	if err != nil {
		return nil, err
	}
	var got *wire.MsgCFHeaders
	err = r.Session.Replies(ctx, nonce, func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgCFHeaders)
		if !ok || got != nil {
			return spv.Unexpected(r.Session, msg, "getcfheaders")
		}
		got = m
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case got == nil:
		return nil, r.misbehaving(hi, "no answer to getcfheaders for heights %d to %d", lo, hi)
	case got.StopHash != stop:
		return nil, r.misbehaving(hi, "cfheaders ends at block %s", got.StopHash)
	case got.FilterType != wire.GCSFilterRegular:
		return nil, r.misbehaving(hi, "cfheaders for filter type %d", got.FilterType)
	case len(got.FilterHashes) != int(hi-lo+1):
		return nil, r.misbehaving(hi, "cfheaders holds %d filter hashes for heights %d to %d", len(got.FilterHashes), lo, hi)
	}
	r.stats.FilterHeaders += len(got.FilterHashes)
	return got, nil
}

// keep stores the filter hashes of heights From..To among those of lo...
func (r *scanner) keep(lo int32, hashes []*chainhash.Hash) {
	for i, h := range hashes {
		if height := lo + int32(i); height >= r.From && height <= r.To {
			r.fhashes = append(r.fhashes, *h)
		}
	}
}
