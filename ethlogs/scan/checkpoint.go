package scan

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Checkpoint pins the question a scan answers and records how far its
// output has come: the chain, the anchor and the range as the scan
// resolved them, and the block before which every matching log has been
// emitted. A scan given it as [Config.Resume] answers the same question
// from Next on. It encodes as JSON, for the caller to persist.
type Checkpoint struct {
	// Question identifies the query, the mode and the transaction proof
	// setting; a resumed scan must be asked the same.
	Question     string       `json:"question"`
	Genesis      common.Hash  `json:"genesis"`
	AnchorNumber uint64       `json:"anchorNumber"`
	AnchorHash   common.Hash  `json:"anchorHash"`
	AnchorSource AnchorSource `json:"anchorSource"` // where the first scan's anchor came from
	From         uint64       `json:"from"`
	To           uint64       `json:"to"`
	// ToHash is the node's block at To where To is after the anchor: the
	// blocks between were the node's chain, which a resumed scan must
	// find again.
	ToHash common.Hash `json:"toHash,omitzero"`
	Next   uint64      `json:"next"` // the logs of blocks From to Next-1 are all emitted
	Logs   uint64      `json:"logs"` // how many those are (with removed ones)
	// Follow is set in a follow's checkpoints ([Follow]): once its range
	// is done, To is the last block emitted and the window holds it.
	Follow *FollowState `json:"follow,omitempty"`
}

// Done reports whether the scan was complete: every log emitted. A
// follow is never done.
func (c *Checkpoint) Done() bool { return c.Follow == nil && c.Next > c.To }

// Following reports whether a follow's range is done: it follows the
// node's heads from To on.
func (c *Checkpoint) Following() bool { return c.Follow != nil && c.Next > c.To }

// question identifies what a scan's logs depend on besides the chain and
// the range: the query, the mode, and whether transaction hashes are
// proven.
func (s *scanner) question() string {
	q, _ := json.Marshal(s.cfg.Query)
	sum := sha256.Sum256(fmt.Appendf(q, "\x00%s\x00%t", s.cfg.Mode, s.cfg.TrustTxHashes))
	return hex.EncodeToString(sum[:16])
}

// checkResume refuses a checkpoint no scan of this config can continue,
// before any request.
func (s *scanner) checkResume() error {
	r := s.cfg.Resume
	switch {
	case r == nil:
		return nil
	case r.Question != s.question():
		return errors.New("scan: Resume is a checkpoint of another query, mode or transaction proof setting")
	case r.From > r.To || r.Next < r.From || r.Next > r.To+1 || r.AnchorHash == (common.Hash{}):
		return fmt.Errorf("scan: Resume is not a checkpoint of a range: blocks %d to %d, next %d, anchor %s", r.From, r.To, r.Next, r.AnchorHash)
	}
	return nil
}

// resume resolves a resumed scan: the node must serve the stopped scan's
// chain, its anchor, and, where the range ends after the anchor, its
// block at To.
func (s *scanner) resume(ctx context.Context) error {
	r := s.cfg.Resume
	if s.stats.Genesis != r.Genesis {
		return fmt.Errorf("scan: the stopped scan read the chain with genesis %s, the node's is %s", r.Genesis, s.stats.Genesis)
	}
	s.stats.AnchorSource = r.AnchorSource
	anchor, err := s.blockByHash(ctx, r.AnchorHash, r.AnchorNumber)
	if err != nil {
		return err
	}
	s.stats.From, s.stats.To = r.Next, r.To
	s.stats.Resumed, s.stats.ResumedLogs = true, r.Logs
	if r.To > r.AnchorNumber {
		if s.tip, err = s.fetchBlock(ctx, hexutil.Uint64(r.To), r.To); err != nil {
			return err
		}
		if s.tip.hash != r.ToHash {
			return fmt.Errorf("scan: block %d is now %s; the stopped scan's chain had %s there (reorganised since): its output cannot be continued, start over", r.To, s.tip.hash, r.ToHash)
		}
		s.stats.Unfinalized = r.To - r.AnchorNumber
	}
	s.stats.AnchorNumber, s.stats.AnchorHash = r.AnchorNumber, anchor.hash
	s.stats.AnchorFromNode = s.stats.AnchorSource <= NodeBlock
	return nil
}

// checkpoint is where the scan stands now.
func (s *scanner) checkpoint() Checkpoint {
	c := Checkpoint{Question: s.question(), Genesis: s.stats.Genesis,
		AnchorNumber: s.stats.AnchorNumber, AnchorHash: s.stats.AnchorHash, AnchorSource: s.stats.AnchorSource,
		From: s.stats.From, To: s.stats.To, Next: s.stats.Next, Logs: s.stats.ResumedLogs + s.stats.Logs}
	if r := s.cfg.Resume; r != nil {
		c.From = r.From
	}
	if s.tip != nil {
		c.ToHash = s.tip.hash
	}
	if f := s.follow; f != nil {
		c.Follow = &FollowState{Confirmations: f.opt.Confirmations, Window: slices.Clone(f.window)}
		if c.Following() {
			c.ToHash = f.tip().Hash
		}
	}
	return c
}

// report hands the caller the checkpoint, if it asked for them.
func (s *scanner) report() error {
	if s.cfg.Checkpoint == nil {
		return nil
	}
	return s.cfg.Checkpoint(s.checkpoint())
}

// saveCheckpoint records that every log up to block through has been
// emitted.
func (s *scanner) saveCheckpoint(through uint64) error {
	s.stats.Next = through + 1
	return s.report()
}
