package livenode

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Node is a running Bitcoin-family node in regtest: btcd ([StartBtcd]) or
// litecoind ([StartLitecoind]). Its methods wrap the RPC calls that both
// answer and decode the answers into wire types. Hashes come back in
// internal byte order.
type Node struct {
	Name    string // "btcd" or "litecoind"
	RPC     *RPC   // JSON-RPC with basic auth
	P2PAddr string // 127.0.0.1:port, for [ConnectPeer]
	Dir     string // data directory, removed after the test

	mining []byte // output script Generate pays to
	proc   *process
}

// Generate mines n blocks paying the mining address given at start and
// returns their hashes in chain order.
func (n *Node) Generate(ctx context.Context, count int) ([]chainhash.Hash, error) {
	var hexes []string
	var err error
	if n.Name == btcdName {
		err = n.RPC.Call(ctx, &hexes, "generate", count)
	} else {
		// A raw() descriptor takes any script, so every wallet address type
		// can receive coinbases even where Litecoin encodes it differently.
		desc := "raw(" + hex.EncodeToString(n.mining) + ")"
		err = n.RPC.Call(ctx, &hexes, "generatetodescriptor", count, desc)
	}
	if err != nil {
		return nil, err
	}
	hashes, err := parseHashes("generate", hexes)
	if err == nil {
		err = n.WaitIndexes(ctx)
	}
	return hashes, err
}

// indexTimeout bounds the wait for litecoind's indexes after mining.
const indexTimeout = 30 * time.Second

// WaitIndexes waits until litecoind's block-filter and transaction indexes
// have reached the tip. Core builds them on a background thread and answers
// getcfilters, getcfheaders and getblockfilter only from them: a request for
// a block not indexed yet is ignored, which under load made tests that ask
// right after mining (or right after a peer relayed the blocks) wait for a
// reply that never came. btcd indexes as it connects a block: nothing to
// wait for.
func (n *Node) WaitIndexes(ctx context.Context) error {
	if n.Name == btcdName {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, indexTimeout)
	defer cancel()
	tip, err := n.BlockCount(ctx)
	if err != nil {
		return err
	}
	for {
		var indexes map[string]struct {
			Height int32 `json:"best_block_height"`
		}
		if err := n.RPC.Call(ctx, &indexes, "getindexinfo"); err != nil {
			return err
		}
		behind := ""
		for name, ix := range indexes {
			if ix.Height < tip {
				behind = fmt.Sprintf("%s at height %d", name, ix.Height)
			}
		}
		if behind == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("livenode: litecoind's %s, tip %d: %w", behind, tip, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// BlockCount returns the height of the best block.
func (n *Node) BlockCount(ctx context.Context) (int32, error) {
	var h int32
	err := n.RPC.Call(ctx, &h, "getblockcount")
	return h, err
}

// BlockHash returns the hash of the best-chain block at height.
func (n *Node) BlockHash(ctx context.Context, height int32) (chainhash.Hash, error) {
	return n.callHash(ctx, "getblockhash", height)
}

// BestBlockHash returns the hash of the best block.
func (n *Node) BestBlockHash(ctx context.Context) (chainhash.Hash, error) {
	return n.callHash(ctx, "getbestblockhash")
}

// RawBlock returns the serialized block (getblock with verbosity 0).
func (n *Node) RawBlock(ctx context.Context, hash chainhash.Hash) ([]byte, error) {
	return n.callHex(ctx, "getblock", hash.String(), 0)
}

// Block returns the block with the given hash, witness data included.
func (n *Node) Block(ctx context.Context, hash chainhash.Hash) (*wire.MsgBlock, error) {
	raw, err := n.RawBlock(ctx, hash)
	if err != nil {
		return nil, err
	}
	var b wire.MsgBlock
	if err := b.Deserialize(bytes.NewReader(raw)); err != nil {
		return nil, fmt.Errorf("livenode: getblock %v: %v", hash, err)
	}
	return &b, nil
}

// Blocks returns the best chain's blocks from height from to the tip.
func (n *Node) Blocks(ctx context.Context, from int32) ([]*wire.MsgBlock, error) {
	tip, err := n.BlockCount(ctx)
	if err != nil {
		return nil, err
	}
	var blocks []*wire.MsgBlock
	for h := from; h <= tip; h++ {
		hash, err := n.BlockHash(ctx, h)
		if err != nil {
			return nil, err
		}
		b, err := n.Block(ctx, hash)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// SendRawTransaction submits tx to the mempool and returns its txid.
func (n *Node) SendRawTransaction(ctx context.Context, tx *wire.MsgTx) (chainhash.Hash, error) {
	var buf bytes.Buffer
	if err := tx.Serialize(&buf); err != nil {
		return chainhash.Hash{}, fmt.Errorf("livenode: sendrawtransaction: %v", err)
	}
	return n.callHash(ctx, "sendrawtransaction", hex.EncodeToString(buf.Bytes()))
}

// BasicFilter returns the block's BIP158 basic filter (the serialized
// N || Golomb-coded set) and its BIP157 filter header, with btcd's
// getcfilter and getcfilterheader or litecoind's getblockfilter.
func (n *Node) BasicFilter(ctx context.Context, block chainhash.Hash) (filter []byte, header chainhash.Hash, err error) {
	if n.Name == btcdName {
		if filter, err = n.callHex(ctx, "getcfilter", block.String(), 0); err != nil {
			return nil, header, err
		}
		header, err = n.callHash(ctx, "getcfilterheader", block.String(), 0)
		return filter, header, err
	}
	var res struct{ Filter, Header string }
	if err := n.RPC.Call(ctx, &res, "getblockfilter", block.String(), "basic"); err != nil {
		return nil, header, err
	}
	if filter, err = hex.DecodeString(res.Filter); err != nil {
		return nil, header, fmt.Errorf("livenode: getblockfilter: filter: %v", err)
	}
	h, err := chainhash.NewHashFromStr(res.Header)
	if err != nil {
		return nil, header, fmt.Errorf("livenode: getblockfilter: header: %v", err)
	}
	return filter, *h, nil
}

// callHash calls a method whose result is one hash in display order.
func (n *Node) callHash(ctx context.Context, method string, params ...any) (chainhash.Hash, error) {
	var s string
	if err := n.RPC.Call(ctx, &s, method, params...); err != nil {
		return chainhash.Hash{}, err
	}
	h, err := chainhash.NewHashFromStr(s)
	if err != nil {
		return chainhash.Hash{}, fmt.Errorf("livenode: %s: %v", method, err)
	}
	return *h, nil
}

// callHex calls a method whose result is one hex string.
func (n *Node) callHex(ctx context.Context, method string, params ...any) ([]byte, error) {
	var s string
	if err := n.RPC.Call(ctx, &s, method, params...); err != nil {
		return nil, err
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("livenode: %s: %v", method, err)
	}
	return b, nil
}

// parseHashes converts display-order hashes to internal order.
func parseHashes(method string, hexes []string) ([]chainhash.Hash, error) {
	hs := make([]chainhash.Hash, len(hexes))
	for i, s := range hexes {
		h, err := chainhash.NewHashFromStr(s)
		if err != nil {
			return nil, fmt.Errorf("livenode: %s: hash %d: %v", method, i, err)
		}
		hs[i] = *h
	}
	return hs, nil
}

// miningScript returns the output script of a mining address.
func miningScript(addr address.Address) ([]byte, error) {
	if addr == nil {
		return nil, fmt.Errorf("livenode: a mining address is required")
	}
	s, err := txscript.PayToAddrScript(addr)
	if err != nil {
		return nil, fmt.Errorf("livenode: mining address %v: %v", addr, err)
	}
	return s, nil
}
