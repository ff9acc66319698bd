package ethchain

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/filtermaps"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/event"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// FilterMaps builds go-ethereum's log index over every block of the chain
// into db, with the parameters and settings a geth node uses by default
// (filtermaps.DefaultParams; the chain is shorter than the default
// 2,350,000-block history, so all of it is indexed), and returns it
// running once the indexer is idle. disabled gives the index of a node
// started with --history.logs.disable: it indexes nothing and
// eth_getLogs reads every block. Stop it when done.
func (c *Chain) FilterMaps(db ethdb.KeyValueStore, disabled bool) (*filtermaps.FilterMaps, error) {
	view := c.view()
	if view == nil {
		return nil, fmt.Errorf("ethchain: no chain view at head %d", c.Head)
	}
	fm, err := filtermaps.NewFilterMaps(db, view, 0, c.Head, filtermaps.DefaultParams, filtermaps.Config{Disabled: disabled})
	if err != nil {
		return nil, fmt.Errorf("ethchain: %w", err)
	}
	fm.Start()
	fm.WaitIdle()
	return fm, nil
}

func (c *Chain) view() *filtermaps.ChainView {
	return filtermaps.NewChainView(c, c.Head, c.GetCanonicalHash(c.Head))
}

// Backend returns what eth/filters needs of a node, serving the chain's
// blocks and fm as go-ethereum's own node backend (eth.EthAPIBackend)
// does: receipts and logs read from the database on each request.
func (c *Chain) Backend(fm *filtermaps.FilterMaps) filters.Backend { return &backend{c: c, fm: fm} }

type backend struct {
	c  *Chain
	fm *filtermaps.FilterMaps
}

func (b *backend) ChainDb() ethdb.Database { return b.c.DB }

func (b *backend) HeaderByNumber(_ context.Context, n rpc.BlockNumber) (*types.Header, error) {
	if n < 0 { // latest, safe, finalized: the head, which is final
		return b.c.Header(b.c.Head), nil
	}
	return b.c.Header(uint64(n)), nil
}

func (b *backend) HeaderByHash(_ context.Context, hash common.Hash) (*types.Header, error) {
	n, ok := rawdb.ReadHeaderNumber(b.c.DB, hash)
	if !ok {
		return nil, nil
	}
	return b.c.GetHeader(hash, n), nil
}

func (b *backend) GetBody(_ context.Context, hash common.Hash, n rpc.BlockNumber) (*types.Body, error) {
	return rawdb.ReadBody(b.c.DB, hash, uint64(n)), nil
}

func (b *backend) GetReceipts(_ context.Context, hash common.Hash) (types.Receipts, error) {
	return b.c.GetReceiptsByHash(hash), nil
}

func (b *backend) GetLogs(_ context.Context, hash common.Hash, n uint64) ([][]*types.Log, error) {
	return rawdb.ReadLogs(b.c.DB, hash, n), nil
}

func (b *backend) CurrentHeader() *types.Header                 { return b.c.Header(b.c.Head) }
func (b *backend) ChainConfig() *params.ChainConfig             { return b.c.Config }
func (b *backend) HistoryPruningCutoff() uint64                 { return 0 }
func (b *backend) CurrentView() *filtermaps.ChainView           { return b.c.view() }
func (b *backend) NewMatcherBackend() filtermaps.MatcherBackend { return b.fm.NewMatcherBackend() }

// The chain never changes: subscriptions never deliver.
func (b *backend) SubscribeNewTxsEvent(chan<- core.NewTxsEvent) event.Subscription { return idle() }
func (b *backend) SubscribeChainEvent(chan<- core.ChainEvent) event.Subscription   { return idle() }
func (b *backend) SubscribeRemovedLogsEvent(chan<- core.RemovedLogsEvent) event.Subscription {
	return idle()
}
func (b *backend) SubscribeLogsEvent(chan<- []*types.Log) event.Subscription { return idle() }

func idle() event.Subscription {
	return event.NewSubscription(func(quit <-chan struct{}) error { <-quit; return nil })
}
