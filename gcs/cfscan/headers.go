package cfscan

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// filterHeaders makes the chain's store hold the verified filter headers
// from the one before From to To, fetching what it lacks: it resumes after
// the stored ones, or starts at the genesis block (whose previous filter
// header is all zeros), at a trusted checkpoint at or below From-1, or
// else at From itself, from a previous header the peer names, which the
// chain must then carry to a checkpoint above. Every checkpoint a fetched
// or stored header passes must match; stored headers that contradict one
// (a liar served them in an earlier run) are dropped and fetched anew.
func (r *scanner) filterHeaders(ctx context.Context) error {
	st := r.Chain.Store()
	pins := r.pins()
	if err := r.dropContradicted(st, pins); err != nil {
		return err
	}
	s := st.State()
	var prev chainhash.Hash // the header before start, once known
	known, start := true, int32(0)
	switch {
	case s.FilterTip >= s.FilterBase:
		start, prev = s.FilterTip+1, s.TipFilter
	case r.Chain.Base() == 0:
	default:
		start, known = max(r.From, r.Chain.Base()+1), false
		for _, p := range pins {
			if int32(p.Height) < start {
				start, prev, known = int32(p.Height)+1, p.Header, true
			}
		}
		if known {
			if err := st.AppendFilters(start-1, []chainhash.Hash{prev}); err != nil {
				return err
			}
		}
	}
	end := r.To
	if cp := r.Checkpoint; cp != nil {
		end = max(end, int32(cp.Height)) // an explicit checkpoint is always checked
	}
	if !known {
		if i := slices.IndexFunc(pins, func(p gcs.Checkpoint) bool { return int32(p.Height) >= start-1 }); i >= 0 {
			end = max(end, int32(pins[i].Height))
		}
	}
	committed := time.Now()
	for lo := start; lo <= end; lo += wire.MaxCFHeadersPerMsg {
		hi := min(lo+wire.MaxCFHeadersPerMsg-1, end)
		msg, err := r.cfheaders(ctx, lo, hi)
		if err != nil {
			return err
		}
		if known && msg.PrevFilterHeader != prev {
			return falsef(lo, r.hash(lo), "cfheaders starts after filter header %s, but the chain has %s", msg.PrevFilterHeader, prev)
		}
		headers, err := gcs.CFHeaders(nil, msg)
		if err != nil {
			return r.misbehaving(lo, "%v", err)
		}
		if !known && st.State().FilterTip < st.State().FilterBase {
			if err := st.AppendFilters(lo-1, []chainhash.Hash{msg.PrevFilterHeader}); err != nil {
				return err
			}
		}
		runStart, run := lo, headers
		if lo > 0 {
			runStart, run = lo-1, append([]chainhash.Hash{msg.PrevFilterHeader}, headers...)
		}
		n, err := gcs.VerifyHeaders(uint32(runStart), run, pins...)
		if err != nil {
			if !known { // what was stored since the start is as false as this
				st.TruncateFilters(st.State().FilterBase - 1)
			}
			return fmt.Errorf("cfscan: %w: %w: %w", ErrFalseFilterHeaders, spv.ErrMisbehaving, err)
		}
		known = known || n > 0
		if err := st.AppendFilters(lo, headers); err != nil {
			return err
		}
		prev = headers[len(headers)-1]
		if known && r.Chain.CommitDue(committed) {
			if err := st.Commit(); err != nil {
				return err
			}
			committed = time.Now()
		}
	}
	if cp := r.Checkpoint; cp != nil {
		if err := r.checkStored(st, *cp); err != nil {
			return err
		}
	}
	return st.Commit()
}

// pins returns the trusted filter headers within the chain: the network's
// published ones ([Checkpoints]) and Config.Checkpoint, by height.
func (r *scanner) pins() []gcs.Checkpoint {
	var ps []gcs.Checkpoint
	all := Checkpoints(r.Chain.Network())
	if r.Checkpoint != nil {
		all = append(all, *r.Checkpoint)
	}
	for _, p := range all {
		if h := int64(p.Height); h >= int64(r.Chain.Base()) && h <= int64(r.Chain.Height()) {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, func(a, b gcs.Checkpoint) int { return int(a.Height) - int(b.Height) })
	return ps
}

// dropContradicted drops the stored filter headers from the first that
// contradicts a pin, and all of them if they do not reach down to the one
// before From.
func (r *scanner) dropContradicted(st *store.Store, pins []gcs.Checkpoint) error {
	s := st.State()
	if s.FilterTip < s.FilterBase {
		return nil
	}
	if need := r.From - 1; need < s.FilterBase && (need >= 0 || s.FilterBase > 0) {
		return st.TruncateFilters(s.FilterBase - 1)
	}
	for _, p := range pins {
		h := int32(p.Height)
		if h < s.FilterBase || h > s.FilterTip {
			continue
		}
		got, err := st.FilterHeaders(nil, h, h)
		if err != nil {
			return err
		}
		if got[0] != p.Header {
			r.stats.FilterHeadersDropped += int(s.FilterTip - s.FilterBase + 1)
			return st.TruncateFilters(s.FilterBase - 1)
		}
	}
	return nil
}

// checkStored checks that the store holds cp's filter header.
func (r *scanner) checkStored(st *store.Store, cp gcs.Checkpoint) error {
	got, err := st.FilterHeaders(nil, int32(cp.Height), int32(cp.Height))
	if err != nil {
		return fmt.Errorf("cfscan: checkpoint at height %d was not checked: %w", cp.Height, err)
	}
	if got[0] != cp.Header {
		return fmt.Errorf("cfscan: filter header at height %d is %s, but the checkpoint has %s: %w: %w", cp.Height, got[0], cp.Header, ErrFalseFilterHeaders, spv.ErrMisbehaving)
	}
	return nil
}

// cfheaders asks the source for the filter hashes of heights lo..hi and
// checks that the reply covers exactly them.
func (r *scanner) cfheaders(ctx context.Context, lo, hi int32) (*wire.MsgCFHeaders, error) {
	stop, err := r.Chain.Hash(hi)
	if err != nil {
		return nil, err
	}
	got, err := r.Source.CFHeaders(ctx, lo, hi, stop)
	switch {
	case err != nil:
		return nil, err
	case got == nil:
		return nil, r.misbehaving(hi, "no answer to getcfheaders for heights %d to %d", lo, hi)
	}
	if err := CheckCFHeaders(got, lo, hi, stop); err != nil {
		return nil, err
	}
	r.stats.FilterHeaders += len(got.FilterHashes)
	return got, nil
}
