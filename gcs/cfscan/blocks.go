package cfscan

import (
	"context"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// blocksPerRequest bounds the blocks one getdata asks for, and so the
// memory the replies may take (4 MB each at most).
const blocksPerRequest = 16

// opReturn marks an output script that BIP158 filters leave out.
const opReturn = 0x6a

// blocks fetches the candidate blocks, checks each, and reports its wallet
// transactions, in height order.
func (r *scanner) blocks(ctx context.Context, cands []candidate) error {
	for len(cands) > 0 {
		n := min(len(cands), blocksPerRequest)
		if err := r.fetch(ctx, cands[:n]); err != nil {
			return err
		}
		cands = cands[n:]
	}
	return nil
}

// fetch runs one getdata round trip for cands. Blocks must arrive in the
// order asked.
func (r *scanner) fetch(ctx context.Context, cands []candidate) error {
	hashes := make([]chainhash.Hash, len(cands))
	for i := range cands {
		hashes[i] = cands[i].hash
	}
	i := 0
	err := r.Source.Blocks(ctx, hashes, func(msg wire.Message) error {
		if i == len(cands) {
			return r.unexpected(cands[i-1].height, msg, "getdata")
		}
		switch m := msg.(type) {
		case *wire.MsgBlock:
			if err := r.block(cands[i], m); err != nil {
				return err
			}
			i++
			return nil
		case *wire.MsgNotFound:
			return r.misbehaving(cands[i].height, "notfound, though the peer served its header and filter")
		}
		return r.unexpected(cands[i].height, msg, "getdata")
	})
	if err == nil && i < len(cands) {
		err = r.misbehaving(cands[i].height, "getdata for %d blocks answered with %d", len(cands), i)
	}
	return err
}

// block checks b against the chain and its filter, and reports its wallet
// transactions.
func (r *scanner) block(c candidate, b *wire.MsgBlock) error {
	hash := c.hash
	txids, err := spv.VerifyBlock(b, hash)
	if err != nil {
		return r.blockError(c.height, err)
	}
	if err := r.set.Reset(&c.filter); err != nil {
		return r.misbehaving(c.height, "filter: %v", err)
	}
	r.stats.BlocksFetched++
	for _, tx := range b.Transactions { // all checked before any is reported
		if err := r.inFilter(c.height, tx); err != nil {
			return err
		}
	}
	found := 0
	for i, tx := range b.Transactions {
		ins, outs := r.Watch.Check(tx, txids[i])
		if len(ins)+len(outs) == 0 {
			continue
		}
		found++
		r.stats.WalletTxs++
		t := spv.Tx{Msg: tx, ID: txids[i], Block: hash, Height: c.height, Position: uint32(i), Inputs: ins, Outputs: outs}
		if err := r.Emit(t); err != nil {
			return err
		}
	}
	if found == 0 {
		r.stats.FalsePositives++
	}
	return nil
}

// inFilter checks that the block's filter holds every output script of tx
// that BIP158 puts in it. It cannot check the spent scripts: the block does
// not carry them.
func (r *scanner) inFilter(height int32, tx *wire.MsgTx) error {
	for i, out := range tx.TxOut {
		s := out.PkScript
		if len(s) == 0 || s[0] == opReturn || r.set.Match(s) {
			continue
		}
		return falsef(height, r.hash(height), "its filter lacks the output script of %s:%d", tx.TxHash(), i)
	}
	return nil
}
