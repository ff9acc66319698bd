package bloomscan

import (
	"context"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// batch runs one getdata round trip for the filtered blocks lo..hi and
// returns the height to ask for next. Merkle blocks must arrive in height
// order, each followed by the transactions it proves. If the filter comes
// due after a block, the blocks after it are still verified as they
// arrive, since the peer owes them, but dropped: the peer matched them
// with the old filter, which a fresh one must replace before they are
// asked for again (bitcoinj parks them the same way).
func (r *scanner) batch(ctx context.Context, lo, hi int32) (int32, error) {
	var err error
	if r.hashes, err = r.Chain.Hashes(r.hashes[:0], lo, hi); err != nil {
		return 0, err
	}
	gd := wire.NewMsgGetDataSizeHint(uint(hi - lo + 1))
	for i := range r.hashes {
		gd.AddInvVect(wire.NewInvVect(wire.InvTypeFilteredBlock, &r.hashes[i]))
	}
	nonce, err := r.Session.Request(ctx, gd)
	if err != nil {
		return 0, err
	}
	r.lo, r.hi, r.next, r.resume = lo, hi, lo, 0
	err = r.Session.Replies(ctx, nonce, func(msg wire.Message) error {
		switch m := msg.(type) {
		case *wire.MsgMerkleBlock:
			return r.merkleBlock(m)
		case *wire.MsgTx:
			return r.tx(m)
		case *wire.MsgNotFound:
			if r.next <= hi {
				return r.misbehaving(r.next, "notfound, though the peer served its header")
			}
		}
		return spv.Unexpected(r.Session, msg, "getdata")
	})
	if err != nil {
		return 0, err
	}
	if err := r.withheld(); err != nil {
		return 0, err
	}
	if r.next <= hi {
		return 0, r.misbehaving(r.next, "getdata for filtered blocks %d to %d answered with %d merkle blocks", lo, hi, r.next-lo)
	}
	if r.resume != 0 {
		return r.resume, nil
	}
	return hi + 1, nil
}

// withheld reports the transactions the last merkle block proves that
// have not arrived.
func (r *scanner) withheld() error {
	if missing := r.col.Missing(); len(missing) > 0 {
		return r.misbehaving(r.next-1, "the merkle block proves %d transactions the peer withheld, first %s", len(missing), missing[0])
	}
	return nil
}

// merkleBlock checks that m is the next block of the chain and verifies
// its proof.
func (r *scanner) merkleBlock(m *wire.MsgMerkleBlock) error {
	if err := r.withheld(); err != nil {
		return err
	}
	if r.next > r.hi {
		return r.misbehaving(r.hi, "a merkle block beyond the request arrived")
	}
	h := r.next
	if got, want := m.Header.BlockHash(), r.hashes[h-r.lo]; got != want {
		return r.misbehaving(h, "merkle block for block %s arrived in its place", got)
	}
	r.next++
	fb, err := r.col.MerkleBlock(m)
	if err != nil {
		return r.misbehaving(h, "%v", err)
	}
	if fb != nil {
		return r.block(fb, h)
	}
	return nil
}

// tx passes a transaction to the collector: it belongs to the last merkle
// block, and any other is one the peer was not asked for.
func (r *scanner) tx(m *wire.MsgTx) error {
	if r.col.Missing() == nil {
		return r.misbehaving(min(r.next, r.hi), "transaction %s arrived while no merkle block was pending (its merkle block withheld, or one it does not belong to)", m.TxHash())
	}
	fb, err := r.col.Tx(m)
	if err != nil {
		return r.misbehaving(r.next-1, "%v", err)
	}
	if fb != nil {
		return r.block(fb, r.next-1)
	}
	return nil
}

// block reports the wallet transactions of a verified filtered block and
// updates the filter's copy as the peer updated its own, or drops the
// block if the filter came due before it.
func (r *scanner) block(fb *bip37.FilteredBlock, height int32) error {
	if r.resume != 0 {
		r.stats.Refetched++
		r.stats.RefetchedTxs += len(fb.Matches)
		return nil
	}
	r.stats.MerkleBlocks++
	r.stats.Blocks++
	r.stats.Transactions += int(fb.Transactions)
	hash := r.hashes[height-r.lo]
	for i, m := range fb.Matches {
		tx := fb.Txs[i]
		r.stats.TxsReceived++
		if !r.mirror.MatchTx(tx, m.TxID) {
			r.stats.Unfiltered++
		}
		ins, outs := r.Watch.Check(tx, m.TxID)
		if len(ins)+len(outs) == 0 {
			r.stats.FalsePositives++
			continue
		}
		r.stats.WalletTxs++
		if err := r.Emit(spv.Tx{Msg: tx, ID: m.TxID, Block: hash, Height: height, Position: m.Index, Inputs: ins, Outputs: outs}); err != nil {
			return err
		}
	}
	if r.Progress != nil {
		r.Progress(spv.Progress{Height: height, From: r.From, To: r.To})
	}
	if r.filled(height) {
		r.resume = height + 1
	}
	return nil
}
