package scan

import (
	"fmt"

	"github.com/chainsieve/chainsieve/ethlogs"
)

// The blocks of a range after its anchor (a finalized or pinned block
// below the node's tip) are fetched like the others and appended to the
// index, each linked to its parent, so they form a chain forward from the
// anchor. They are the node's current chain only if they lead to its
// block at To: an index may hold a tail an earlier run fetched that a
// reorganisation has since replaced.

// low is the scan's lowest block: the index must hold the range and the
// anchor, so a range starting after the anchor is indexed from the anchor.
func (s *scanner) low() uint64 { return min(s.stats.From, s.stats.AnchorNumber) }

// checkTip checks, where the range ends after the anchor, that the indexed
// chain leads to the node's block at To.
func (s *scanner) checkTip() error {
	if s.tip == nil {
		return nil
	}
	n := s.stats.To
	got, err := s.x.Hash(n)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if got != s.tip.hash {
		return fmt.Errorf("scan: %w: %w", errMismatch, blockError(n, got, ethlogs.ErrHeaderHash, "the indexed chain after the anchor leads to %s, the node's block %d is %s (reorganised)", got, n, s.tip.hash))
	}
	return nil
}

// holdsAnchor reports whether the index holds the anchor, so that a
// mismatch is after it.
func (s *scanner) holdsAnchor() bool {
	n := s.stats.AnchorNumber
	if n < s.x.First() || n >= s.x.First()+s.x.Len() {
		return false
	}
	h, err := s.x.Hash(n)
	return err == nil && h == s.stats.AnchorHash
}
