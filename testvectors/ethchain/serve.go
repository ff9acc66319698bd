package ethchain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/filtermaps"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"
)

// Server serves blocks 0 to Head of a chain over JSON-RPC on HTTP at
// 127.0.0.1, with the methods a light client's scan and a plain client
// use, answered as go-ethereum answers them (internal/ethapi): blocks,
// headers and receipts in JSON, their consensus encodings in the debug
// namespace, and eth_getLogs from eth/filters over the log index given.
// Blocks after Head do not exist for it; Head is also its finalized block.
// The chain's generator builds no state, so nothing needing state is
// served.
type Server struct {
	URL  string
	Head uint64

	sent atomic.Int64
	srv  *http.Server
	rpc  *rpc.Server
}

// Serve starts a Server for blocks 0 to head of c, with fm (from
// [Chain.FilterMaps]) behind eth_getLogs. Close stops it.
func (c *Chain) Serve(head uint64, fm *filtermaps.FilterMaps) (*Server, error) {
	if head > c.Head {
		return nil, fmt.Errorf("ethchain: serve to block %d of a chain of %d", head, c.Head)
	}
	short := *c
	short.Head = head
	r := rpc.NewServer()
	api := &rpcAPI{c: &short}
	filterAPI := filters.NewFilterAPI(filters.NewFilterSystem(short.Backend(fm), filters.Config{}))
	for _, s := range []struct {
		ns  string
		api any
	}{{"eth", api}, {"debug", &debugAPI{api}}, {"eth", filterAPI}} {
		if err := r.RegisterName(s.ns, s.api); err != nil {
			return nil, fmt.Errorf("ethchain: %w", err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("ethchain: %w", err)
	}
	s := &Server{URL: "http://" + l.Addr().String(), Head: head, rpc: r}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.ServeHTTP(&countingWriter{w, &s.sent}, req)
	})}
	go s.srv.Serve(l)
	return s, nil
}

// Sent returns the bytes of the answers' bodies sent so far.
func (s *Server) Sent() int64 { return s.sent.Load() }

// Close stops the server.
func (s *Server) Close() error {
	s.rpc.Stop()
	return s.srv.Close()
}

type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	return w.ResponseWriter.Write(p)
}

type rpcAPI struct{ c *Chain }

type debugAPI struct{ *rpcAPI }

// hash resolves a block by number, tag (all of them the head) or hash;
// false for a block it does not serve.
func (a *rpcAPI) hash(b rpc.BlockNumberOrHash) (common.Hash, uint64, bool) {
	if h, ok := b.Hash(); ok {
		n, ok := rawdb.ReadHeaderNumber(a.c.DB, h)
		return h, n, ok && n <= a.c.Head
	}
	n, _ := b.Number()
	if n < 0 {
		return a.c.GetCanonicalHash(a.c.Head), a.c.Head, true
	}
	if uint64(n) > a.c.Head {
		return common.Hash{}, 0, false
	}
	return a.c.GetCanonicalHash(uint64(n)), uint64(n), true
}

func byNumber(n rpc.BlockNumber) rpc.BlockNumberOrHash { return rpc.BlockNumberOrHashWithNumber(n) }

func (a *rpcAPI) ChainId() *hexutil.Big { return (*hexutil.Big)(a.c.Config.ChainID) }

func (a *rpcAPI) BlockNumber() hexutil.Uint64 { return hexutil.Uint64(a.c.Head) }

// GetHeaderByNumber answers null for a block it does not serve (a nil
// *types.Header cannot be marshalled: its MarshalJSON is a value method).
func (a *rpcAPI) GetHeaderByNumber(n rpc.BlockNumber) any {
	h, number, ok := a.hash(byNumber(n))
	if !ok {
		return nil
	}
	if header := a.c.GetHeader(h, number); header != nil {
		return header
	}
	return nil
}

func (a *rpcAPI) GetBlockByNumber(n rpc.BlockNumber, full bool) (map[string]any, error) {
	return a.block(byNumber(n), full)
}

func (a *rpcAPI) GetBlockByHash(h common.Hash, full bool) (map[string]any, error) {
	return a.block(rpc.BlockNumberOrHashWithHash(h, false), full)
}

// block is a block object as go-ethereum's RPCMarshalBlock gives it, with
// the transactions' hashes only (full ones are not served).
func (a *rpcAPI) block(b rpc.BlockNumberOrHash, full bool) (map[string]any, error) {
	if full {
		return nil, errors.New("ethchain: full transactions are not served")
	}
	h, n, ok := a.hash(b)
	if !ok {
		return nil, nil
	}
	blk := rawdb.ReadBlock(a.c.DB, h, n)
	if blk == nil {
		return nil, nil
	}
	enc, err := json.Marshal(blk.Header())
	if err != nil {
		return nil, err
	}
	var fields map[string]any
	if err := json.Unmarshal(enc, &fields); err != nil {
		return nil, err
	}
	txs := make([]common.Hash, len(blk.Transactions()))
	for i, tx := range blk.Transactions() {
		txs[i] = tx.Hash()
	}
	fields["transactions"], fields["uncles"], fields["size"] = txs, []common.Hash{}, hexutil.Uint64(blk.Size())
	return fields, nil
}

func (a *rpcAPI) GetBlockReceipts(b rpc.BlockNumberOrHash) (types.Receipts, error) {
	h, _, ok := a.hash(b)
	if !ok {
		return nil, nil
	}
	return a.c.GetReceiptsByHash(h), nil
}

func (a *debugAPI) GetRawHeader(b rpc.BlockNumberOrHash) (hexutil.Bytes, error) {
	h, n, ok := a.hash(b)
	if !ok {
		return nil, fmt.Errorf("header %v not found", b)
	}
	return hexutil.Bytes(rawdb.ReadHeaderRLP(a.c.DB, h, n)), nil
}

func (a *debugAPI) GetRawBlock(b rpc.BlockNumberOrHash) (hexutil.Bytes, error) {
	h, n, ok := a.hash(b)
	if !ok {
		return nil, fmt.Errorf("block %v not found", b)
	}
	return rlp.EncodeToBytes(rawdb.ReadBlock(a.c.DB, h, n))
}

func (a *debugAPI) GetRawReceipts(ctx context.Context, b rpc.BlockNumberOrHash) ([]hexutil.Bytes, error) {
	h, _, ok := a.hash(b)
	if !ok {
		return nil, fmt.Errorf("block %v not found", b)
	}
	rs := a.c.GetReceiptsByHash(h)
	out := make([]hexutil.Bytes, len(rs))
	for i, r := range rs {
		enc, err := r.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out[i] = enc
	}
	return out, nil
}
