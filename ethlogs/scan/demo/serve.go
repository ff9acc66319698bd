package demo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/filtermaps"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/rpc"
)

// Chain is the demo chain served by a running in-process node. Extend and
// Reorg change it; they are not safe for concurrent use, nor is reading
// Head and Finalized while they run.
type Chain struct {
	URL       string // JSON-RPC over HTTP on 127.0.0.1
	WS        string // JSON-RPC over WebSocket on 127.0.0.1, with Options.WS; else empty
	Head      uint64 // number of the last block
	Finalized uint64 // number of the block the node reports finalized: Head − FinalityDepth
	Genesis   common.Hash
	Contracts Contracts

	stack   *node.Node
	backend *eth.Ethereum
	indexed *withIndex
	plan    plan
}

// Options say what chain to build and how to serve it.
type Options struct {
	Blocks int // blocks after genesis; 0: DefaultBlocks
	// Txs is the number of transactions in every block after the first,
	// 0 to 300; 0 gives the demo's zero to three.
	Txs int
	WS  bool // serve WebSocket too (eth_subscribe), at Chain.WS
	// LogIndex has the node answer index_getLogs as eth_getLogs with
	// go-ethereum's log index (filtermaps, on by default in geth since
	// v1.15.6, with its default parameters) once Chain.IndexLogs has built
	// it. eth_getLogs itself always reads every block's bloom (geth's
	// --history.logs.disable): a go-ethereum v1.17.10 indexer left running
	// over 20,000 idle blocks took a core of CPU from 10 to 20 s after it
	// finished (2026-11-29), which would disturb any measurement beside it,
	// so the index is built on demand and stopped after use.
	LogIndex bool
}

// FinalityDepth is how far the demo node's finalized block trails its
// head: 32 blocks, one epoch of slots (on mainnet finality trails the head
// by two to three epochs; geth --dev finalizes in steps of 32 blocks).
const FinalityDepth = 32

// Start builds the demo chain with the given number of blocks after
// genesis ([DefaultBlocks] for the CLI's) and serves it on a port of
// 127.0.0.1 the kernel picks, with the eth API and the debug one (raw
// headers and receipts, as full nodes serve them). Close stops it.
func Start(blocks int) (*Chain, error) { return StartDense(blocks, 0) }

// StartDense is [Start] with txs transactions in every block after the
// first, drawn from the same mix of events, for measurements on blocks as
// full as mainnet's (about 200 transactions); 0 gives the demo's zero to
// three. Each transaction declares 100,000 gas, so a block holds at most
// 300 of them.
func StartDense(blocks, txs int) (*Chain, error) {
	return StartWith(Options{Blocks: blocks, Txs: txs})
}

// StartWith builds and serves the demo chain as o says.
func StartWith(o Options) (*Chain, error) {
	blocks, txs := o.Blocks, o.Txs
	if blocks == 0 {
		blocks = DefaultBlocks
	}
	if txs < 0 || txs > 300 || blocks < 1 {
		return nil, fmt.Errorf("demo: %d blocks of %d transactions: at least 1 block, 0 to 300 transactions", blocks, txs)
	}
	p := plan{blocks: blocks, perBlock: txs}
	gspec, chain, contracts, err := p.generateOnce()
	if err != nil {
		return nil, err
	}
	conf := node.DefaultConfig
	conf.DataDir = "" // in memory
	conf.P2P = p2p.Config{NoDiscovery: true, ListenAddr: ""}
	conf.HTTPHost, conf.HTTPPort, conf.HTTPModules = "127.0.0.1", 0, []string{"eth", "debug"}
	if o.LogIndex {
		conf.HTTPModules = append(conf.HTTPModules, "index")
	}
	conf.AuthAddr, conf.AuthPort = "127.0.0.1", 0
	conf.WSHost, conf.IPCPath = "", ""
	if o.WS {
		conf.WSHost, conf.WSPort, conf.WSModules = "127.0.0.1", 0, []string{"eth"}
	}
	stack, err := node.New(&conf)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	ethConf := ethconfig.Defaults
	ethConf.Genesis, ethConf.SyncMode = gspec, ethconfig.FullSync
	ethConf.TxPool.NoLocals = true
	ethConf.LogNoHistory = true // eth_getLogs reads blocks, no background log index
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(filters.NewFilterSystem(backend.APIBackend, filters.Config{}))}})
	indexed := &withIndex{EthAPIBackend: backend.APIBackend}
	if o.LogIndex {
		stack.RegisterAPIs([]rpc.API{{Namespace: "index", Service: filters.NewFilterAPI(filters.NewFilterSystem(indexed, filters.Config{}))}})
	}
	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	if _, err := backend.BlockChain().InsertChain(chain); err != nil {
		stack.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	c := &Chain{URL: stack.HTTPEndpoint(), Genesis: backend.BlockChain().Genesis().Hash(), Contracts: contracts,
		stack: stack, backend: backend, plan: p}
	if o.WS {
		c.WS = stack.WSEndpoint()
	}
	c.setHead()
	c.indexed = indexed
	return c, c.waitHTTP()
}

// withIndex is the node's API backend with a log index of its own, once
// built.
type withIndex struct {
	*eth.EthAPIBackend
	fm atomic.Pointer[filtermaps.FilterMaps]
}

func (b *withIndex) NewMatcherBackend() filtermaps.MatcherBackend {
	fm := b.fm.Load()
	if fm == nil {
		fm = disabledIndex()
	}
	return fm.NewMatcherBackend()
}

// disabledIndex stands for an index not built: eth/filters then reads
// every block's bloom.
var disabledIndex = sync.OnceValue(func() *filtermaps.FilterMaps {
	fm, err := filtermaps.NewFilterMaps(rawdb.NewMemoryDatabase(), nil, 0, 0, filtermaps.DefaultParams, filtermaps.Config{Disabled: true})
	if err != nil {
		panic("demo: " + err.Error())
	}
	fm.Start()
	return fm
})

// IndexLogs builds go-ethereum's log index over the chain, in memory, for
// index_getLogs (Options.LogIndex), and returns once it covers every block,
// at most ten minutes later (20,000 demo blocks take seconds). stop stops
// its indexer; index_getLogs then waits for it until its request's
// deadline. The index does not follow Extend or Reorg.
func (c *Chain) IndexLogs() (stop func(), err error) {
	bc := c.backend.BlockChain()
	head := bc.CurrentBlock()
	view := filtermaps.NewChainView(bc, head.Number.Uint64(), head.Hash())
	fm, err := filtermaps.NewFilterMaps(rawdb.NewMemoryDatabase(), view, 0, c.Finalized, filtermaps.DefaultParams, filtermaps.Config{})
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	fm.Start()
	if err := waitLogIndex(fm, c.Head); err != nil {
		fm.Stop()
		return nil, err
	}
	c.indexed.fm.Store(fm)
	return func() { c.indexed.fm.CompareAndSwap(fm, nil); fm.Stop() }, nil
}

// waitLogIndex waits until fm covers blocks 0 to head, at most ten minutes.
func waitLogIndex(fm *filtermaps.FilterMaps, head uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	mb := fm.NewMatcherBackend()
	defer mb.Close()
	for {
		r, err := mb.SyncLogIndex(ctx)
		if err != nil {
			return fmt.Errorf("demo: log index: %w", err)
		}
		if !r.IndexedBlocks.IsEmpty() && r.IndexedBlocks.First() == 0 && r.IndexedBlocks.Last() >= head {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo: the log index covers %d of blocks 0 to %d after 10 minutes", r.IndexedBlocks.Count(), head)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// setHead reads the node's head and reports finality as a consensus
// client would: the head is safe, and finality trails it by
// FinalityDepth blocks.
func (c *Chain) setHead() {
	bc := c.backend.BlockChain()
	c.Head = bc.CurrentBlock().Number.Uint64()
	c.Finalized = uint64(max(int64(c.Head)-FinalityDepth, 0))
	bc.SetFinalized(bc.GetHeaderByNumber(c.Finalized))
	bc.SetSafe(bc.CurrentBlock())
}

// Extend adds n blocks to the chain, drawn from the same mix of events.
func (c *Chain) Extend(n int) error {
	if n < 1 {
		return fmt.Errorf("demo: Extend(%d): at least one block", n)
	}
	next := c.plan
	next.blocks += n
	return c.insert(next, c.plan.blocks)
}

// Reorg replaces the last depth blocks with a branch of length blocks
// (shorter, as long or longer), whose blocks all differ from the ones
// replaced and carry other events. The node reorganises as it does when
// its consensus client picks another head: eth_subscribe("logs") sends
// the removed logs, then the new ones.
func (c *Chain) Reorg(depth, length int) error {
	if depth < 1 || uint64(depth) >= c.Head || length < 1 {
		return fmt.Errorf("demo: Reorg(%d, %d) of a chain of %d blocks: depth 1 to %d, length at least 1", depth, length, c.Head, c.Head-1)
	}
	fork := c.Head - uint64(depth) // the last block kept
	next := c.plan
	next.branches = append(slices.Clone(next.branches), fork+1)
	next.blocks = int(fork) + length
	return c.insert(next, int(fork))
}

// insert builds the chain p plans and inserts its blocks after block from.
func (c *Chain) insert(p plan, from int) error {
	_, chain, _, err := p.generate()
	if err != nil {
		return err
	}
	if _, err := c.backend.BlockChain().InsertChain(chain[from:]); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	c.plan = p
	c.setHead()
	return nil
}

// waitHTTP waits until the HTTP server answers, at most five seconds.
func (c *Chain) waitHTTP() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.URL, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			c.Close()
			return errors.New("demo: the node's HTTP server did not answer within 5 s")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Close stops the node.
func (c *Chain) Close() error { return c.stack.Close() }
