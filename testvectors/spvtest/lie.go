package spvtest

import (
	"context"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// FilterLie returns an [Edit] with which a peer lies consistently about
// the basic filter of the block target at height on node n: its cfilter
// carries data instead, and every cfheaders message commits to data (the
// filter hash at that height, and for ranges that start above it the
// previous filter header of a chain built on the lie), so that the peer's
// messages agree with one another whatever ranges a client asks for. Only
// a second opinion, or the block itself, can show the lie. The honest
// filters above the lie come from n over RPC; if target leaves n's chain,
// the peer stops lying.
func FilterLie(n *livenode.Node, target chainhash.Hash, height int32, data []byte) Edit {
	lie := gcs.FilterHash(data)
	return func(msg wire.Message) []wire.Message {
		switch m := msg.(type) {
		case *wire.MsgCFilter:
			if m.BlockHash == target {
				m.Data = data
			}
		case *wire.MsgCFHeaders:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if prev, start, ok := rewrite(ctx, n, m, target, height, lie); ok {
				if start <= height {
					m.FilterHashes[height-start] = &lie
				} else {
					m.PrevFilterHeader = prev
				}
			}
		}
		return Keep(msg)
	}
}

// rewrite works out where m starts and, when it starts above the lie, the
// previous filter header of the lying chain. ok is false if m does not
// reach the lie or n's chain no longer holds target.
func rewrite(ctx context.Context, n *livenode.Node, m *wire.MsgCFHeaders, target chainhash.Hash, height int32, lie chainhash.Hash) (prev chainhash.Hash, start int32, ok bool) {
	var hdr struct {
		Height int32 `json:"height"`
	}
	if err := n.RPC.Call(ctx, &hdr, "getblockheader", m.StopHash.String(), true); err != nil || hdr.Height < height {
		return prev, 0, false
	}
	if h, err := n.BlockHash(ctx, height); err != nil || h != target {
		return prev, 0, false
	}
	start = hdr.Height - int32(len(m.FilterHashes)) + 1
	if start <= height {
		return prev, start, true
	}
	if height > 0 {
		before, err := n.BlockHash(ctx, height-1)
		if err != nil {
			return prev, 0, false
		}
		if _, prev, err = n.BasicFilter(ctx, before); err != nil {
			return prev, 0, false
		}
	}
	prev = gcs.FilterHeader(lie, prev)
	for h := height + 1; h < start; h++ {
		hash, err := n.BlockHash(ctx, h)
		if err != nil {
			return prev, 0, false
		}
		f, _, err := n.BasicFilter(ctx, hash)
		if err != nil {
			return prev, 0, false
		}
		prev = gcs.FilterHeader(gcs.FilterHash(f), prev)
	}
	return prev, start, true
}
