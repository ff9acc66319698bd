package lightclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// errNoPeers marks a request no connected peer (or no quorum of them) can
// serve: the client must find more peers, or wait for theirs to catch up.
var errNoPeers = errors.New("lightclient: not enough peers")

// judgedHeights bounds the heights of one conflict the client tries to
// settle before it gives up on it.
const judgedHeights = 3

// source is the client's cfscan.Source in BIP157 mode: filter headers
// from every peer that has the range, stored only once Quorum of them
// serve the same; filters and blocks from one peer, the best scored. It
// bans the peers it proves false, and remembers which peer served the
// filters or blocks a scan failed on (last) and who agreed on the filter
// headers stored, for the client to blame.
type source struct {
	c      *Client
	last   *peer
	agreed []agreement
}

// agreement is a run of filter headers a quorum of peers served.
type agreement struct {
	lo, hi int32
	peers  []*peer
}

// reply is one peer's answer to getcfheaders.
type reply struct {
	p   *peer
	msg *wire.MsgCFHeaders
	err error
}

func (s *source) CFHeaders(ctx context.Context, lo, hi int32, stop chainhash.Hash) (*wire.MsgCFHeaders, error) {
	c := s.c
	for {
		peers := c.pool.serving(c.chain, hi)
		if len(peers) < c.cfg.Quorum {
			return nil, fmt.Errorf("lightclient: %d peers have block %d, the quorum is %d: %w", len(peers), hi, c.cfg.Quorum, errNoPeers)
		}
		replies, err := s.ask(ctx, peers, lo, hi, stop)
		if err != nil {
			return nil, err
		}
		groups := group(replies)
		switch {
		case len(groups) == 1 && len(groups[0]) >= c.cfg.Quorum:
			s.agreed = append(s.agreed, agreement{lo, hi, peersOf(groups[0])})
			return groups[0][0].msg, nil
		case len(groups) > 1:
			if err := s.settle(ctx, lo, groups); err != nil {
				return nil, err
			}
		}
		// Peers were dropped or banned: ask those left, or fail for more.
	}
}

// ask sends getcfheaders to every peer at once and returns the valid
// replies, having banned the peers whose reply is malformed or contradicts
// the stored filter headers, and dropped those that did not answer.
func (s *source) ask(ctx context.Context, peers []*peer, lo, hi int32, stop chainhash.Hash) ([]reply, error) {
	replies := make([]reply, len(peers))
	var wg sync.WaitGroup
	for i, p := range peers {
		wg.Go(func() {
			msg, err := cfscan.Peer(p.s).CFHeaders(ctx, lo, hi, stop)
			if err == nil && msg != nil {
				err = cfscan.CheckCFHeaders(msg, lo, hi, stop)
			}
			replies[i] = reply{p, msg, err}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prev, known, err := s.storedPrev(lo)
	if err != nil {
		return nil, err
	}
	var valid, contrary []reply
	for _, r := range replies {
		switch {
		case r.err == nil && r.msg == nil: // not on its best chain (yet), or its index lags
			if r.p.unanswered(hi) {
				s.c.pool.drop(r.p, fmt.Errorf("lightclient: peer %s left getcfheaders unanswered %d times in a row", r.p.addr, maxUnserved))
			}
		case errors.Is(r.err, spv.ErrMisbehaving):
			s.c.pool.ban(r.p, fmt.Errorf("peer %s: %w", r.p.addr, r.err))
		case r.err != nil:
			s.c.pool.drop(r.p, r.err)
		case known && r.msg.PrevFilterHeader != prev:
			contrary = append(contrary, r)
		default:
			r.p.unserved = 0
			valid = append(valid, r)
		}
	}
	if len(contrary) > 0 && len(valid) == 0 {
		return nil, &cfscan.BlockError{Height: lo - 1, Err: fmt.Errorf("every peer's cfheaders start after another filter header than the %s stored: %w: %w",
			prev, cfscan.ErrFalseFilterHeaders, spv.ErrMisbehaving)}
	}
	for _, r := range contrary {
		s.c.pool.ban(r.p, fmt.Errorf("peer %s: block %d: cfheaders start after filter header %s, but the filter headers other peers agreed on have %s: %w",
			r.p.addr, lo-1, r.msg.PrevFilterHeader, prev, spv.ErrMisbehaving))
	}
	return valid, nil
}

// storedPrev returns the filter header before lo, if the store holds it
// (all zeros before the genesis block).
func (s *source) storedPrev(lo int32) (chainhash.Hash, bool, error) {
	if lo == 0 {
		return chainhash.Hash{}, true, nil
	}
	st := s.c.chain.Store()
	if state := st.State(); lo-1 < state.FilterBase || lo-1 > state.FilterTip {
		return chainhash.Hash{}, false, nil
	}
	hs, err := st.FilterHeaders(nil, lo-1, lo-1)
	if err != nil {
		return chainhash.Hash{}, false, err
	}
	return hs[0], true, nil
}

// group sorts replies into groups of identical cfheaders, largest first.
func group(replies []reply) [][]reply {
	var groups [][]reply
	for _, r := range replies {
		i := slices.IndexFunc(groups, func(g []reply) bool { return sameCFHeaders(g[0].msg, r.msg) })
		if i < 0 {
			groups = append(groups, []reply{r})
		} else {
			groups[i] = append(groups[i], r)
		}
	}
	slices.SortStableFunc(groups, func(a, b []reply) int { return len(b) - len(a) })
	return groups
}

func sameCFHeaders(a, b *wire.MsgCFHeaders) bool {
	return a.PrevFilterHeader == b.PrevFilterHeader && firstDifference(a, b) < 0
}

// firstDifference returns the index of the first filter hash a and b
// differ in, -1 if none.
func firstDifference(a, b *wire.MsgCFHeaders) int {
	for i := range a.FilterHashes {
		if *a.FilterHashes[i] != *b.FilterHashes[i] {
			return i
		}
	}
	return -1
}

func peersOf(g []reply) []*peer {
	ps := make([]*peer, len(g))
	for i, r := range g {
		ps[i] = r.p
	}
	return ps
}

// settle resolves a conflict between groups of peers' cfheaders: at the
// first heights where they differ (up to judgedHeights) it asks every
// party for its filter and one for the block (cfscan.Judge), and bans the
// peers proven false. If none is, the conflict is undecided: every party
// is disconnected, none banned, and kept out for this run, so that the
// client finds other peers.
func (s *source) settle(ctx context.Context, lo int32, groups [][]reply) error {
	var parties []reply
	for _, g := range groups {
		parties = append(parties, g...)
	}
	var why []error
	for _, i := range differences(groups, judgedHeights) {
		h := lo + int32(i)
		claims := make([]cfscan.Claim, len(parties))
		for j, r := range parties {
			claims[j] = cfscan.Claim{Session: r.p.s, FilterHash: *r.msg.FilterHashes[i]}
		}
		verdicts, err := cfscan.Judge(ctx, s.c.chain, h, claims)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		banned := false
		for j, v := range verdicts {
			switch p := parties[j].p; {
			case v.False != nil:
				s.c.pool.ban(p, fmt.Errorf("peer %s: %w", p.addr, v.False))
				banned = true
			case v.Failed != nil:
				s.c.pool.drop(p, v.Failed)
			}
		}
		if banned {
			return nil
		}
		if err != nil {
			why = append(why, fmt.Errorf("block %d: %d versions of its filter hash: %w", h, len(groups), err))
		} else {
			why = append(why, fmt.Errorf("block %d: %d versions of its filter hash, none proven false by the block", h, len(groups)))
		}
	}
	for _, r := range parties {
		if s.c.pool.alive(r.p) {
			s.c.pool.suspectPeer(r.p, fmt.Errorf("lightclient: cfheaders conflict undecided: %w", errors.Join(why...)))
		}
	}
	return nil
}

// differences returns up to n indexes of filter hashes the groups do not
// all agree on, in order.
func differences(groups [][]reply, n int) []int {
	var out []int
	first := groups[0][0].msg
	for i := range first.FilterHashes {
		for _, g := range groups[1:] {
			if *g[0].msg.FilterHashes[i] != *first.FilterHashes[i] {
				out = append(out, i)
				break
			}
		}
		if len(out) == n {
			break
		}
	}
	return out
}

func (s *source) CFilters(ctx context.Context, lo, hi int32, stop chainhash.Hash, handle func(wire.Message) error) error {
	p, err := s.pick(hi)
	if err != nil {
		return err
	}
	return cfscan.Peer(p.s).CFilters(ctx, lo, hi, stop, handle)
}

func (s *source) Blocks(ctx context.Context, hashes []chainhash.Hash, handle func(wire.Message) error) error {
	h, _ := s.c.chain.HeightOf(hashes[len(hashes)-1])
	p, err := s.pick(h)
	if err != nil {
		return err
	}
	return cfscan.Peer(p.s).Blocks(ctx, hashes, handle)
}

// pick returns the best-scored peer that has the block at height h.
func (s *source) pick(h int32) (*peer, error) {
	ps := s.c.pool.serving(s.c.chain, h)
	if len(ps) == 0 {
		s.last = nil
		return nil, fmt.Errorf("lightclient: no peer has block %d: %w", h, errNoPeers)
	}
	s.last = ps[0]
	return ps[0], nil
}
