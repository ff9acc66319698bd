package cfscan

import (
	"context"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// candidate is a block whose filter matched the wallet's scripts.
type candidate struct {
	height int32
	hash   chainhash.Hash
	filter gcs.Filter // verified against the filter-header chain
}

// filters fetches the range's filters, 1,000 a round trip, matches each,
// and fetches and checks the blocks that matched before the next batch, so
// that wallet transactions come out in block order.
func (r *scanner) filters(ctx context.Context) error {
	for lo := r.From; lo <= r.To; lo += wire.MaxGetCFiltersReqRange {
		hi := min(lo+wire.MaxGetCFiltersReqRange-1, r.To)
		if err := r.batch(lo, hi); err != nil {
			return err
		}
		matched, err := r.cfilters(ctx, lo, hi)
		if err != nil {
			return err
		}
		if err := r.blocks(ctx, matched); err != nil {
			return err
		}
	}
	return nil
}

// batch reads the block hashes of heights lo..hi and the filter headers
// of lo-1..hi (the one before the genesis block is all zeros).
func (r *scanner) batch(lo, hi int32) (err error) {
	r.lo = lo
	if r.hashes, err = r.Chain.Hashes(r.hashes[:0], lo, hi); err != nil {
		return err
	}
	r.fheaders = r.fheaders[:0]
	if lo == 0 {
		r.fheaders = append(r.fheaders, chainhash.Hash{})
		lo++
	}
	r.fheaders, err = r.Chain.Store().FilterHeaders(r.fheaders, lo-1, hi)
	return err
}

// cfilters runs one getcfilters round trip for heights lo..hi and returns
// the blocks whose filter matched. The filters must arrive in height order.
func (r *scanner) cfilters(ctx context.Context, lo, hi int32) ([]candidate, error) {
	var matched []candidate
	next := lo
	err := r.Source.CFilters(ctx, lo, hi, r.hashes[hi-lo], func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgCFilter)
		if !ok || next > hi {
			return r.unexpected(min(next, hi), msg, "getcfilters")
		}
		f, err := r.verify(next, m)
		if err != nil {
			return err
		}
		if r.matches(&f, m.Data) {
			matched = append(matched, candidate{next, m.BlockHash, f})
		}
		r.stats.Filters++
		r.stats.Blocks++
		if r.Progress != nil {
			r.Progress(spv.Progress{Height: next, From: r.From, To: r.To})
		}
		next++
		return nil
	})
	if err == nil && next <= hi {
		err = r.misbehaving(next, "getcfilters for heights %d to %d answered with %d filters", lo, hi, next-lo)
	}
	return matched, err
}

// verify checks that m is the filter of the block at height, as the
// verified filter-header chain commits to it.
func (r *scanner) verify(height int32, m *wire.MsgCFilter) (gcs.Filter, error) {
	if want := r.hashes[height-r.lo]; m.BlockHash != want {
		return gcs.Filter{}, r.misbehaving(height, "cfilter for block %s arrived in its place", m.BlockHash)
	}
	prev, want := r.fheaders[height-r.lo], r.fheaders[height-r.lo+1]
	hash := gcs.FilterHash(m.Data)
	if got := gcs.FilterHeader(hash, prev); got != want {
		return gcs.Filter{}, r.misbehaving(height, "cfilter has filter header %s, but the filter-header chain has %s", got, want)
	}
	f, err := gcs.FromCFilter(m, hash)
	if err != nil {
		return gcs.Filter{}, r.misbehaving(height, "%v", err)
	}
	return f, nil
}
