package scan

import (
	"context"
	"errors"
	"fmt"
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

// resolve finds the chain (its genesis hash names the index), the anchor
// and the range.
func (s *scanner) resolve(ctx context.Context) error {
	genesis, err := s.headerBlock(ctx, "eth_getBlockByNumber", hexutil.Uint64(0), 0)
	if err != nil {
		return err
	}
	s.stats.Genesis = genesis.hash
	var anchor *block
	if s.cfg.Anchor != nil {
		anchor, err = s.headerBlock(ctx, "eth_getBlockByHash", *s.cfg.Anchor, anyNumber)
		if err == nil && anchor.hash != *s.cfg.Anchor {
			err = fmt.Errorf("scan: %w", blockError(anchor.header.Number.Uint64(), *s.cfg.Anchor, ethlogs.ErrHeaderHash, "asked for the anchor, the node answered with block %s", anchor.hash))
		}
	} else {
		anchor, err = s.headerBlock(ctx, "eth_getBlockByNumber", "latest", anyNumber)
		s.stats.AnchorFromNode = true
	}
	if err != nil {
		return err
	}
	s.stats.AnchorNumber, s.stats.AnchorHash = anchor.header.Number.Uint64(), anchor.hash
	s.stats.From, s.stats.To = s.cfg.From, s.stats.AnchorNumber
	if s.cfg.To != nil {
		s.stats.To = *s.cfg.To
	}
	if s.stats.To > s.stats.AnchorNumber {
		return fmt.Errorf("scan: the range ends at block %d, above the anchor, block %d", s.stats.To, s.stats.AnchorNumber)
	}
	if s.stats.From > s.stats.To {
		return fmt.Errorf("scan: the range starts at block %d, after its end, block %d", s.stats.From, s.stats.To)
	}
	return nil
}

// anchorHash is the hash block AnchorNumber must have.
func (s *scanner) anchorHash() common.Hash { return s.stats.AnchorHash }

func (s *scanner) progress(phase string, done, total uint64) {
	if s.cfg.Progress != nil {
		s.cfg.Progress(Progress{Phase: phase, Done: done, Total: total, Elapsed: time.Since(s.began)})
	}
}
