package demo

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/rpc"
)

// Chain is the demo chain served by a running in-process node.
type Chain struct {
	URL       string // JSON-RPC over HTTP on 127.0.0.1
	Head      uint64 // number of the last block
	Finalized uint64 // number of the block the node reports finalized: Head − FinalityDepth
	Genesis   common.Hash
	Contracts Contracts

	stack *node.Node
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
	if txs < 0 || txs > 300 {
		return nil, fmt.Errorf("demo: %d transactions a block: 0 to 300", txs)
	}
	gspec, chain, contracts, err := generate(blocks, txs)
	if err != nil {
		return nil, err
	}
	conf := node.DefaultConfig
	conf.DataDir = "" // in memory
	conf.P2P = p2p.Config{NoDiscovery: true, ListenAddr: ""}
	conf.HTTPHost, conf.HTTPPort, conf.HTTPModules = "127.0.0.1", 0, []string{"eth", "debug"}
	conf.AuthAddr, conf.AuthPort = "127.0.0.1", 0
	conf.WSHost, conf.IPCPath = "", ""
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
	if err := stack.Start(); err != nil {
		stack.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	if _, err := backend.BlockChain().InsertChain(chain); err != nil {
		stack.Close()
		return nil, fmt.Errorf("demo: %w", err)
	}
	// Finality as a consensus client would report it: the head is safe,
	// and finality trails it by FinalityDepth blocks.
	bc := backend.BlockChain()
	finalized := uint64(max(blocks-FinalityDepth, 0))
	bc.SetFinalized(bc.GetHeaderByNumber(finalized))
	bc.SetSafe(bc.CurrentBlock())
	c := &Chain{URL: stack.HTTPEndpoint(), Head: uint64(blocks), Finalized: finalized, Genesis: bc.Genesis().Hash(), Contracts: contracts, stack: stack}
	return c, c.waitHTTP()
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
