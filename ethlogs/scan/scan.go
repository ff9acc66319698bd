package scan

import (
	"context"
	"errors"
	"sync"
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
	noRawHeader                atomic.Bool // the node does not serve debug_getRawHeader
	noRawReceipts              atomic.Bool // the node does not serve debug_getRawReceipts
	noRawBlock                 atomic.Bool // the node does not serve debug_getRawBlock
	splits                     atomic.Int64

	knownMu    sync.Mutex
	known      map[uint64]*block // candidates' headers fetched by this run, at most maxKnown
	knownPeak  int               // the most headers known held at once
	tags       map[Tag]*block    // the node's tagged blocks, asked once
	tip        *block            // the node's block at To, when To is after the anchor
	txBytes    atomic.Int64
	txProven   atomic.Uint64
	x          *index.Index
	writing    bool   // x is the writer, not a snapshot
	indexFirst uint64 // the first block of the index directory used
	chainDir   string
	waited     string    // the last wait reported to Config.Waiting
	follow     *follower // set by Follow
}

// Run scans the headers of cfg.From to cfg.To, verifies them up to the
// anchor, updates the index, fetches and verifies the receipts of the
// blocks whose bloom passes, and emits the matching logs in order. The
// returned stats are filled in as far as the scan came, also on error.
// Verification failures are errors wrapping an [*ethlogs.BlockError] that
// names the block; nothing from that block or after it is emitted.
func Run(ctx context.Context, cfg Config) (Stats, error) {
	if cfg.Resume != nil && cfg.Resume.Follow != nil {
		return Stats{}, errors.New("scan: Resume is a checkpoint of a follow: resume it with Follow")
	}
	s, err := newScanner(cfg)
	if err != nil {
		return Stats{}, err
	}
	return s.finish(s.run(ctx))
}

// finish closes the index and completes the stats of a run that ended
// with err.
func (s *scanner) finish(err error) (Stats, error) {
	if s.x != nil {
		err = errors.Join(err, s.x.Close())
	}
	s.stats.Requests, s.stats.Calls, s.stats.Retries = s.counters()
	s.stats.Splits = s.splits.Load()
	s.stats.PerTransaction = s.perTx.Load()
	s.stats.TxProven, s.stats.TxBytes = s.txProven.Load(), s.txBytes.Load()
	s.stats.Elapsed = time.Since(s.began)
	s.stats.knownPeak = s.knownPeak
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
	s := &scanner{
		cfg: cfg, client: cfg.Client, matcher: q.Compile(), began: time.Now(), known: map[uint64]*block{},
		headerBatch:   newLimit(100, orDefault(cfg.HeaderBatch, 500)),
		receiptsBatch: newLimit(orDefault(cfg.ReceiptsBatch, 16), orDefault(cfg.ReceiptsBatch, 16)),
	}
	return s, s.checkResume()
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
	if r := s.cfg.Resume; r != nil && r.Done() {
		s.stats.Resumed, s.stats.ResumedLogs = true, r.Logs
		s.stats.From, s.stats.To, s.stats.Next = r.Next, r.To, r.Next
		return nil // nothing left to do
	}
	if err := s.resolve(ctx); err != nil {
		return err
	}
	if err := s.openIndex(ctx); err != nil {
		return err
	}
	s.stats.Next = s.stats.From
	if s.cfg.Started != nil {
		s.cfg.Started(s.stats)
	}
	if err := s.report(); err != nil {
		return err
	}
	bytes0, _, _, _ := s.client.Counters()
	err := s.headers(ctx)
	bytes1, _, _, _ := s.client.Counters()
	s.stats.HeaderBytes = bytes1 - bytes0
	if err != nil {
		return err
	}
	s.stats.Linked = true
	if s.follow != nil { // known now: a checkpoint of the range's last block carries it
		if s.follow.window, err = s.rangeWindow(); err != nil {
			return err
		}
	}
	err = s.receipts(ctx)
	bytes2, _, _, _ := s.client.Counters()
	s.stats.ReceiptBytes = bytes2 - bytes1
	if err != nil {
		return err
	}
	s.stats.Next = s.stats.To + 1
	return s.report()
}

// resolve finds the chain (its genesis hash names the index), the anchor,
// its confirmations and the range; for a resumed scan, the stopped scan's.
func (s *scanner) resolve(ctx context.Context) error {
	genesis, err := s.headerBlock(ctx, "eth_getBlockByNumber", hexutil.Uint64(0), 0)
	if err != nil {
		return err
	}
	s.stats.Genesis = genesis.hash
	if s.cfg.Resume != nil {
		return s.resume(ctx)
	}
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
