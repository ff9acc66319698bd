package scan

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// scanner is one run of [Run].
type scanner struct {
	cfg     Config
	client  *Client
	matcher *ethlogs.Matcher
	stats   Stats
	began   time.Time

	headerBatch, receiptsBatch *limit
	perTx                      atomic.Bool // the node lacks eth_getBlockReceipts
	noHeaderMethod             atomic.Bool // the node lacks eth_getHeaderByNumber
	splits                     atomic.Int64

	known      map[uint64]*block // candidates' headers fetched by this run
	tags       map[Tag]*block    // the node's tagged blocks, asked once
	tip        *block            // the node's block at To, when To is after the anchor
	txBytes    atomic.Int64
	txProven   atomic.Uint64
	x          *index.Index
	chainDir   string
	checkpoint string // file, "" when not resuming
	key        string
}

// Run scans the headers of cfg.From to cfg.To, verifies them up to the
// anchor, updates the index, fetches and verifies the receipts of the
// blocks whose bloom passes, and emits the matching logs in order. The
// returned stats are filled in as far as the scan came, also on error.
// Verification failures are errors wrapping an [*ethlogs.BlockError] that
// names the block; nothing from that block or after it is emitted.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	s, err := newScanner(cfg)
	if err != nil {
		return Stats{}, err
	}
	err = s.run(ctx)
	if s.x != nil {
		err = errors.Join(err, s.x.Close())
	}
	s.stats.Requests, s.stats.Calls, s.stats.Retries = s.counters()
	s.stats.Splits = s.splits.Load()
	s.stats.PerTransaction = s.perTx.Load()
	s.stats.TxProven, s.stats.TxBytes = s.txProven.Load(), s.txBytes.Load()
	s.stats.Elapsed = time.Since(s.began)
	return s.stats, err
}

func newScanner(cfg Config) (*scanner, error) {
	if cfg.Client == nil || cfg.IndexDir == "" || cfg.Emit == nil {
		return nil, errors.New("scan: Config needs a Client, an IndexDir and Emit")
	}
	q := ethlogs.Query{Addresses: cfg.Query.Addresses, Topics: cfg.Query.Topics}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.Anchor.validate(); err != nil {
		return nil, err
	}
	cfg.Query = q
	cfg.Concurrency = orDefault(cfg.Concurrency, 4)
	return &scanner{
		cfg: cfg, client: cfg.Client, matcher: q.Compile(), began: time.Now(), known: map[uint64]*block{},
		headerBatch:   newLimit(100, orDefault(cfg.HeaderBatch, 500)),
		receiptsBatch: newLimit(orDefault(cfg.ReceiptsBatch, 16), orDefault(cfg.ReceiptsBatch, 16)),
	}, nil
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

func (s *scanner) counters() (requests, calls, retries int64) {
	_, requests, calls, retries = s.client.Counters()
	return
}

func (s *scanner) run(ctx context.Context) error {
	if err := s.resolve(ctx); err != nil {
		return err
	}
	if err := s.openIndex(); err != nil {
		return err
	}
	s.loadCheckpoint()
	if s.cfg.Started != nil {
		s.cfg.Started(s.stats)
	}
	bytes0, _, _, _ := s.client.Counters()
	err := s.chain(ctx)
	bytes1, _, _, _ := s.client.Counters()
	s.stats.HeaderBytes = bytes1 - bytes0
	if err != nil {
		return err
	}
	err = s.receipts(ctx)
	bytes2, _, _, _ := s.client.Counters()
	s.stats.ReceiptBytes = bytes2 - bytes1
	if err != nil {
		return err
	}
	return s.finishCheckpoint()
}

// resolve finds the chain (its genesis hash names the index), the anchor,
// its confirmations and the range.
func (s *scanner) resolve(ctx context.Context) error {
	genesis, err := s.headerBlock(ctx, "eth_getBlockByNumber", hexutil.Uint64(0), 0)
	if err != nil {
		return err
	}
	s.stats.Genesis = genesis.hash
	anchor, err := s.anchor(ctx)
	if err != nil {
		return err
	}
	if err := s.confirm(ctx, anchor); err != nil {
		return err
	}
	if err := s.resolveRange(ctx, anchor.header.Number.Uint64()); err != nil {
		return err
	}
	// Set last: a summary is printed only for a scan whose anchor and
	// range were known.
	s.stats.AnchorNumber, s.stats.AnchorHash = anchor.header.Number.Uint64(), anchor.hash
	s.stats.AnchorFromNode = s.stats.AnchorSource <= NodeBlock
	return nil
}

// anchorHash is the hash block AnchorNumber must have.
func (s *scanner) anchorHash() common.Hash { return s.stats.AnchorHash }

func (s *scanner) progress(phase string, done, total uint64) {
	if s.cfg.Progress != nil {
		s.cfg.Progress(Progress{Phase: phase, Done: done, Total: total, Elapsed: time.Since(s.began)})
	}
}
