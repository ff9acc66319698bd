package scan

import (
	"context"
	"errors"
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// chain brings the index up to the anchor block, or to To where the range
// ends after it, and checks that the block there is the anchor: every
// indexed header links to the next, so this proves the whole indexed chain
// below it, and links the blocks after it forward to it. Those must also
// lead to the node's block at To (see checkTip).
//
// An index that does not lead to the anchor (a reorganisation since it was
// built, or headers an earlier node made up) is cut back and rebuilt: first
// after the anchor (a reorganised unfinalized tail), then from the scan's
// lowest block, then from its first block; only then is a mismatch an
// error.
func (s *scanner) chain(ctx context.Context) error {
	cuts := []uint64{s.low(), s.x.First()}
	tailCut := false
	for {
		err := s.extend(ctx)
		if err == nil {
			err = s.checkAnchor()
		}
		if err == nil {
			err = s.checkTip()
		}
		if err == nil || !errors.Is(err, errMismatch) {
			return err
		}
		var cut uint64
		switch {
		case !tailCut && s.holdsAnchor():
			// The node may have reorganised since the range was resolved:
			// its block at To is asked again.
			cut, tailCut = s.stats.AnchorNumber+1, true
			if s.tip != nil {
				if s.tip, err = s.fetchBlock(ctx, hexutil.Uint64(s.stats.To), s.stats.To); err != nil {
					return err
				}
			}
		case len(cuts) > 0:
			cut, cuts = cuts[0], cuts[1:]
		default:
			return err
		}
		if err := s.truncate(ctx, cut); err != nil {
			return err
		}
	}
}

// errMismatch marks an index that does not lead to the anchor.
var errMismatch = errors.New("the index does not lead to the anchor")

func (s *scanner) checkAnchor() error {
	if s.cfg.Mode == None {
		return nil
	}
	n := s.stats.AnchorNumber
	got, err := s.x.Hash(n)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if got != s.anchorHash() {
		return fmt.Errorf("scan: %w: %w", errMismatch, blockError(n, got, ethlogs.ErrHeaderHash, "the header chain leads to %s, the anchor is %s", got, s.anchorHash()))
	}
	return nil
}

// extend fetches the headers from the index's head to the anchor and
// appends them; the first must link to the head.
func (s *scanner) extend(ctx context.Context) error {
	first, top := s.x.First()+s.x.Len(), max(s.stats.AnchorNumber, s.stats.To)
	s.stats.HeadersIndexed = 0
	if lo := max(s.stats.From, s.x.First()); first > lo {
		s.stats.HeadersIndexed = min(first, s.stats.To+1) - min(lo, s.stats.To+1)
	}
	if first > top {
		return nil
	}
	next, total, done := first, top-first+1, uint64(0)
	err := ordered(ctx, s.cfg.Concurrency,
		func() (span, bool) {
			if next > top {
				return span{}, false
			}
			sp := span{next, min(top, next+uint64(s.headerBatch.get())-1)}
			next = sp.hi + 1
			return sp, true
		},
		s.fetchHeaders,
		func(blocks []*block) error {
			for _, b := range blocks {
				h := b.header
				err := s.x.AppendBloom(h.Number.Uint64(), b.hash, h.ParentHash, ethlogs.FromGeth(&h.Bloom))
				if err != nil && h.Number.Uint64() == first && first > s.x.First() {
					return fmt.Errorf("scan: %w: %w", errMismatch, err)
				}
				if err != nil {
					return fmt.Errorf("scan: %w", err)
				}
				s.remember(b)
			}
			done += uint64(len(blocks))
			s.stats.HeadersFetched += uint64(len(blocks))
			s.progress("headers", done, total)
			return nil
		})
	if syncErr := s.x.Sync(); err == nil && syncErr != nil {
		err = fmt.Errorf("scan: %w", syncErr)
	}
	return err
}

// maxKnown bounds how many candidates' headers a run keeps from its header
// pass: each is about a kilobyte, and a query that matches a million blocks
// must not cost a gigabyte. Candidates past it have their header fetched
// again by hash, in the same batch as their receipts.
var maxKnown = 4096

// remember keeps the header of a bloom candidate of the range, so that
// its receipts can be fetched without fetching it again. In bloom-untrusted
// mode every block is a candidate: headers are fetched again rather than
// held by the million.
func (s *scanner) remember(b *block) {
	n := b.header.Number.Uint64()
	if s.cfg.Mode != BloomUntrusted && n >= s.stats.From && n <= s.stats.To && s.matcher.TestHeader(b.header) {
		s.knownMu.Lock()
		if len(s.known) < maxKnown {
			s.known[n] = b
			s.knownPeak = max(s.knownPeak, len(s.known))
		}
		s.knownMu.Unlock()
	}
}

// recall returns the header remember kept for block n, or nil.
func (s *scanner) recall(n uint64) *block {
	s.knownMu.Lock()
	defer s.knownMu.Unlock()
	return s.known[n]
}

// forget drops the header of block n once its receipts are verified.
func (s *scanner) forget(n uint64) {
	s.knownMu.Lock()
	delete(s.known, n)
	s.knownMu.Unlock()
}
