package cfscan

import (
	"context"
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Claim is what one peer's cfheaders say of a block's basic filter.
type Claim struct {
	Session    *spv.Session
	FilterHash chainhash.Hash // the filter hash its cfheaders hold for the block
}

// Verdict is what [Judge] found of a [Claim]. At most one of False and
// Failed is set; neither means the claim fits the block as far as the
// block shows.
type Verdict struct {
	Claim
	// False says why the claim is proven false; it wraps
	// spv.ErrMisbehaving.
	False error
	// Failed says why nothing could be proven: the peer did not serve
	// its filter (stalled, closed, or has none to serve).
	Failed error
}

// Judge decides which of several peers' conflicting claims about the basic
// filter of the block at height are false. It asks each peer for its
// filter and one of them for the block, and proves a claim false when:
//
//   - the peer's filter does not hash to the filter hash its own cfheaders
//     hold, or does not decode;
//   - the filter lacks an output script of the block (BIP158 puts every
//     one in, but empty ones and OP_RETURN outputs);
//   - the filter holds more items than the block's distinct output scripts
//     and inputs can account for;
//   - the peer serves a block that is not the one the chain has.
//
// It cannot prove a filter false for lacking, or holding, a script an
// input spends: the block does not carry those scripts, and they are not
// all derivable from the inputs (a taproot key-path spend shows no script
// at all; guessing the others, as Neutrino does, a transaction crafted for
// the purpose could turn against an honest peer). So two filters that
// differ only there are both left standing. The error is for the chain
// lacking the block, or no peer serving it.
func Judge(ctx context.Context, c *spv.Chain, height int32, claims []Claim) ([]Verdict, error) {
	hash, err := c.Hash(height)
	if err != nil {
		return nil, err
	}
	verdicts := make([]Verdict, len(claims))
	filters := make([]gcs.Filter, len(claims))
	for i, cl := range claims {
		verdicts[i].Claim = cl
		filters[i], verdicts[i].False, verdicts[i].Failed = fetchFilter(ctx, cl, height, hash)
	}
	var block *wire.MsgBlock
	for i := range verdicts {
		if block != nil || verdicts[i].Failed != nil {
			continue
		}
		var err error
		block, err = fetchBlock(ctx, verdicts[i].Session, height, hash)
		switch {
		case errors.Is(err, spv.ErrMisbehaving):
			verdicts[i].False = err
		case err != nil && verdicts[i].False == nil:
			verdicts[i].Failed = err
		}
	}
	if block == nil {
		return verdicts, fmt.Errorf("cfscan: block %d (%s): no peer served it to settle a conflict over its filter", height, hash)
	}
	for i := range verdicts {
		if verdicts[i].False == nil && verdicts[i].Failed == nil {
			verdicts[i].False = checkFilter(&filters[i], block, height, hash)
		}
	}
	return verdicts, nil
}

// fetchFilter asks cl's peer for the block's basic filter and checks it
// against the peer's own claim.
func fetchFilter(ctx context.Context, cl Claim, height int32, hash chainhash.Hash) (f gcs.Filter, lie, failed error) {
	var got *wire.MsgCFilter
	err := Peer(cl.Session).CFilters(ctx, height, height, hash, func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgCFilter)
		if !ok || got != nil || m.BlockHash != hash {
			return errorf(height, hash, "the peer answered getcfilters with an unexpected %s", msg.Command())
		}
		got = m
		return nil
	})
	switch {
	case errors.Is(err, spv.ErrMisbehaving):
		return f, err, nil
	case err != nil:
		return f, nil, err
	case got == nil:
		return f, nil, fmt.Errorf("cfscan: block %d (%s): peer %s sent no filter", height, hash, cl.Session.Addr())
	}
	if h := gcs.FilterHash(got.Data); h != cl.FilterHash {
		return f, errorf(height, hash, "the peer's filter hashes to %s, but its own cfheaders hold %s", h, cl.FilterHash), nil
	}
	f, err = gcs.DecodeBasic(hash, got.Data)
	if err != nil {
		return f, errorf(height, hash, "the peer's filter does not decode: %v", err), nil
	}
	return f, nil, nil
}

// fetchBlock asks s for the block and verifies it against the chain's hash.
func fetchBlock(ctx context.Context, s *spv.Session, height int32, hash chainhash.Hash) (*wire.MsgBlock, error) {
	var got *wire.MsgBlock
	err := Peer(s).Blocks(ctx, []chainhash.Hash{hash}, func(msg wire.Message) error {
		m, ok := msg.(*wire.MsgBlock)
		if !ok || got != nil {
			return errorf(height, hash, "the peer answered getdata with an unexpected %s", msg.Command())
		}
		got = m
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case got == nil:
		return nil, errorf(height, hash, "the peer did not serve the block")
	}
	if _, err := spv.VerifyBlock(got, hash); err != nil {
		return nil, &BlockError{height, hash, err}
	}
	return got, nil
}

// checkFilter proves f false for block if it lacks an output script or
// holds more items than the block can account for.
func checkFilter(f *gcs.Filter, block *wire.MsgBlock, height int32, hash chainhash.Hash) error {
	var set gcs.Set
	if err := set.Reset(f); err != nil {
		return errorf(height, hash, "the peer's filter does not decode: %v", err)
	}
	outputs := make(map[string]struct{})
	inputs := 0
	for i, tx := range block.Transactions {
		if i > 0 {
			inputs += len(tx.TxIn)
		}
		for j, out := range tx.TxOut {
			s := out.PkScript
			if len(s) == 0 || s[0] == opReturn {
				continue
			}
			if !set.Match(s) {
				return errorf(height, hash, "the peer's filter lacks the output script of %s:%d", tx.TxHash(), j)
			}
			outputs[string(s)] = struct{}{}
		}
	}
	if n := f.Len(); n > len(outputs)+inputs {
		return errorf(height, hash, "the peer's filter holds %d items, but the block has %d distinct output scripts and %d inputs", n, len(outputs), inputs)
	}
	return nil
}
