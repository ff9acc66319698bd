package scan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Confirmation is one confirming endpoint's answer about the anchor.
type Confirmation struct {
	Endpoint string      // its URL, password removed
	Hash     common.Hash // its block at the anchor's height; zero if it gave none
	// Finalized is the number of its finalized block, asked when the
	// anchor is the node's finalized block.
	Finalized uint64
	// Err says why it does not confirm the anchor though it does not
	// contradict it: no answer, an answer that does not decode or hash,
	// or the anchor not finalized there yet. Nil: it confirms.
	Err error
}

// ConfirmError is a confirming endpoint contradicting the anchor: another
// block at the anchor's height, or another finalized block there.
type ConfirmError struct {
	Number           uint64
	Source, Endpoint string      // the node the anchor came from, and the endpoint
	Anchor, Hash     common.Hash // the anchor, and what the endpoint reports
	Finalized        bool        // the endpoint's finalized block is at the anchor's height
}

func (e *ConfirmError) Error() string {
	what := fmt.Sprintf("block %d", e.Number)
	if e.Finalized {
		what = fmt.Sprintf("its finalized block, %d,", e.Number)
	}
	return fmt.Sprintf("scan: the anchor is contradicted: %s reports %s as %s; %s reports it as %s",
		e.Endpoint, what, e.Hash.Hex(), e.Source, e.Anchor.Hex())
}

// confirm asks every confirming endpoint, at once, for its block at the
// anchor's height (and its finalized block, where the anchor is the node's
// finalized block). Any contradiction is an error; so are fewer agreeing
// endpoints than ConfirmMin.
func (s *scanner) confirm(ctx context.Context, anchor *block) error {
	endpoints := s.cfg.Anchor.Confirm
	if len(endpoints) == 0 {
		return nil
	}
	n := anchor.header.Number.Uint64()
	finality := s.stats.AnchorSource == NodeFinalized
	results := make([]Confirmation, len(endpoints))
	var wg sync.WaitGroup
	for i, c := range endpoints {
		wg.Go(func() { results[i] = confirmOne(ctx, c, n, finality) })
	}
	wg.Wait()
	s.stats.Confirmations = results
	if err := ctx.Err(); err != nil {
		return err
	}
	source := redact(s.client.URL)
	var agree int
	var failed []string
	for _, r := range results {
		switch {
		case r.Hash != (common.Hash{}) && r.Hash != anchor.hash:
			return &ConfirmError{Number: n, Source: source, Endpoint: r.Endpoint, Anchor: anchor.hash, Hash: r.Hash}
		case r.Err != nil:
			var ce *ConfirmError
			if errors.As(r.Err, &ce) {
				ce.Source, ce.Anchor = source, anchor.hash
				return ce
			}
			failed = append(failed, fmt.Sprintf("%s: %v", r.Endpoint, r.Err))
		default:
			agree++
		}
	}
	need := s.cfg.Anchor.ConfirmMin
	if need == 0 {
		need = len(endpoints)
	}
	if agree < need {
		return fmt.Errorf("scan: the anchor, block %d %s, is confirmed by %d of %d endpoints, fewer than the %d required: %s",
			n, anchor.hash.Hex(), agree, len(endpoints), need, strings.Join(failed, "; "))
	}
	return nil
}

// confirmOne asks one endpoint for its block at height n and, with
// finality, its finalized block.
func confirmOne(ctx context.Context, c *Client, n uint64, finality bool) Confirmation {
	r := Confirmation{Endpoint: redact(c.URL)}
	calls := []Call{{Method: "eth_getBlockByNumber", Params: []any{hexutil.Uint64(n), false}}}
	if finality {
		calls = append(calls, Call{Method: "eth_getBlockByNumber", Params: []any{Finalized, false}})
	}
	if err := c.Batch(ctx, calls); err != nil {
		r.Err = fmt.Errorf("no answer (%w)", err) // a node's text in it escaped where it was read
		return r
	}
	if calls[0].Err != nil {
		r.Err = fmt.Errorf("no block %d (%w)", n, calls[0].Err)
		return r
	}
	b, err := decodeAnyBlock(calls[0].Result, n)
	if err != nil {
		r.Err = fmt.Errorf("block %d: %s", n, untrusted.Text(err.Error()))
		return r
	}
	r.Hash = b.hash
	if !finality {
		return r
	}
	if calls[1].Err != nil {
		r.Err = fmt.Errorf("no finalized block (%w)", calls[1].Err)
		return r
	}
	f, err := decodeAnyBlock(calls[1].Result, anyNumber)
	if err != nil {
		r.Err = fmt.Errorf("finalized block: %s", untrusted.Text(err.Error()))
		return r
	}
	r.Finalized = f.header.Number.Uint64()
	switch {
	case r.Finalized < n:
		r.Err = fmt.Errorf("its finalized block is %d: it has not finalized block %d yet", r.Finalized, n)
	case r.Finalized == n && f.hash != b.hash:
		r.Err = &ConfirmError{Number: n, Endpoint: r.Endpoint, Hash: f.hash, Finalized: true}
	}
	return r
}
