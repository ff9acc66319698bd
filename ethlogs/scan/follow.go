package scan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// DefaultWindow is how many of the last emitted blocks a follow keeps to
// recognise a reorganisation: 128, four epochs, past which a chain with
// finality does not reorganise.
const DefaultWindow = 128

// ErrDeepReorg is a reorganisation that replaces blocks older than the
// follow's window: the removed logs can no longer be told.
var ErrDeepReorg = errors.New("a reorganisation deeper than the follow window")

// FollowOptions tune [Follow].
type FollowOptions struct {
	// Confirmations delays the logs of a block until it has this many
	// blocks on top of it, so that a reorganisation shallower than that
	// removes nothing.
	Confirmations uint64
	Window        int           // last emitted blocks kept (0: DefaultWindow)
	Poll          time.Duration // how often an HTTP endpoint is asked for its head (0: 2 s)
	// Head, if set, is called after each new head of the node is handled,
	// its logs emitted and checkpointed.
	Head func(FollowHead)
}

// FollowHead is one head of the node, as a follow handled it.
type FollowHead struct {
	Number  uint64
	Hash    common.Hash
	Seen    time.Time // when the follow learned of it
	Emitted uint64    // the block through which logs are now emitted
	Added   int       // logs emitted for it
	Removed int       // logs emitted removed for it: a reorganisation
}

// FollowState is what a follow's [Checkpoint] keeps besides the range: the
// confirmations asked for and the last emitted blocks, oldest first.
type FollowState struct {
	Confirmations uint64        `json:"confirmations"`
	Window        []FollowBlock `json:"window"`
}

// FollowBlock is one block of a follow's window: its logs, where it has
// any, have been emitted and are removed if it leaves the node's chain.
type FollowBlock struct {
	Number uint64      `json:"number"`
	Hash   common.Hash `json:"hash"`
	Logs   bool        `json:"logs,omitempty"` // it may have matching logs: fetched again if removed
}

// follower is the state of one [Follow].
type follower struct {
	opt    FollowOptions
	window []FollowBlock
}

// Follow scans the range as [Run] does, then keeps going: each new head of
// the node (eth_subscribe("newHeads") over WebSocket and IPC, eth_getBlockByNumber("latest")
// every Poll over HTTP) is verified as a chain linked by parent hashes
// from the last block emitted, and the matching logs of its blocks, once
// they have opt.Confirmations blocks on top, are emitted with the range
// scan's verification (receipts against receiptsRoot, blooms, transaction
// hashes). Where the node's chain leaves the emitted blocks (a
// reorganisation), the logs of the blocks it dropped are emitted again
// with Removed set, oldest first as go-ethereum's eth_subscribe("logs")
// sends them, before the logs of the new branch. A reorganisation that
// reaches below the window fails with [ErrDeepReorg] naming the block, a
// node whose blocks do not link or hash fails naming the block.
//
// Each head is one Emit and one checkpoint, which carries the window
// ([FollowState]): a follow resumed from it ([Config.Resume], a checkpoint
// of Follow) continues exactly where it stopped. Follow returns when ctx
// is done (ctx.Err(); nothing is emitted of a head not checkpointed) or
// on an error. Config.To and ToBlock end the range, not the follow; with
// neither, the range ends Confirmations blocks below the node's head.
func Follow(ctx context.Context, cfg Config, opt FollowOptions) (Stats, error) {
	if opt.Window == 0 {
		opt.Window = DefaultWindow
	}
	if opt.Poll == 0 {
		opt.Poll = 2 * time.Second
	}
	if opt.Window < 1 || opt.Poll < 0 {
		return Stats{}, fmt.Errorf("scan: FollowOptions: window %d, poll %v", opt.Window, opt.Poll)
	}
	if r := cfg.Resume; r != nil && (r.Follow == nil || r.Follow.Confirmations != opt.Confirmations) {
		return Stats{}, errors.New("scan: Resume is not a checkpoint of a follow with these confirmations")
	}
	if cfg.Resume == nil && cfg.To == nil && cfg.ToBlock == nil {
		cfg.ToBlock = &Block{Tag: Latest, Number: opt.Confirmations}
	}
	s, err := newScanner(cfg)
	if err != nil {
		return Stats{}, err
	}
	s.follow = &follower{opt: opt}
	return s.finish(s.followRun(ctx))
}

// followRun scans the range, unless the resumed follow had, then follows.
func (s *scanner) followRun(ctx context.Context) error {
	r := s.cfg.Resume
	if r == nil || r.Next <= r.To {
		if err := s.run(ctx); err != nil {
			return err
		}
		err := s.x.Close()
		s.x = nil
		if err != nil {
			return fmt.Errorf("scan: %w", err)
		}
	} else if err := s.resumeFollow(ctx); err != nil {
		return err
	}
	return s.followHeads(ctx)
}

// resumeFollow takes up a follow whose range was done: the window says
// where it stood.
func (s *scanner) resumeFollow(ctx context.Context) error {
	r := s.cfg.Resume
	genesis, err := s.headerBlock(ctx, "eth_getBlockByNumber", hexutil.Uint64(0), 0)
	if err != nil {
		return err
	}
	if genesis.hash != r.Genesis {
		return fmt.Errorf("scan: the stopped follow read the chain with genesis %s, the node's is %s", r.Genesis, genesis.hash)
	}
	if len(r.Follow.Window) == 0 || r.Follow.Window[len(r.Follow.Window)-1].Number != r.To {
		return fmt.Errorf("scan: Resume is a follow's checkpoint without its window up to block %d", r.To)
	}
	s.stats.Genesis, s.stats.AnchorNumber, s.stats.AnchorHash, s.stats.AnchorSource = r.Genesis, r.AnchorNumber, r.AnchorHash, r.AnchorSource
	s.stats.AnchorFromNode = r.AnchorSource <= NodeBlock
	s.stats.From, s.stats.To, s.stats.Next = r.To+1, r.To, r.To+1
	s.stats.Resumed, s.stats.ResumedLogs, s.stats.Linked = true, r.Logs, true
	s.follow.window = slices.Clone(r.Follow.Window)
	if s.cfg.Started != nil {
		s.cfg.Started(s.stats)
	}
	return nil
}

// rangeWindow is the window at the end of the range: its last blocks,
// those before From from the index too (a reorganisation there removes
// none of the logs emitted), Logs set where the bloom passes.
func (s *scanner) rangeWindow() ([]FollowBlock, error) {
	to := s.stats.To
	lo := max(s.x.First(), to-min(to, uint64(s.follow.opt.Window-1)))
	w := make([]FollowBlock, 0, to-lo+1)
	for n := lo; n <= to; n++ {
		h, err := s.x.Hash(n)
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
		w = append(w, FollowBlock{Number: n, Hash: h, Logs: n >= s.stats.From})
	}
	if s.cfg.Mode != BloomUntrusted {
		numbers, err := s.x.Candidates(nil, s.matcher, max(lo, s.stats.From), to)
		if err != nil {
			return nil, fmt.Errorf("scan: %w", err)
		}
		for i := range w {
			w[i].Logs = w[i].Logs && slices.Contains(numbers, w[i].Number)
		}
	}
	return w, nil
}

// followHeads handles the node's heads until ctx is done or an error.
func (s *scanner) followHeads(ctx context.Context) error {
	src, err := s.newHeadSource(ctx)
	if err != nil {
		return err
	}
	defer src.close()
	s.stats.Following = true
	var last common.Hash
	for {
		head, err := src.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		if head.Hash == last {
			continue
		}
		last = head.Hash
		if err := s.followHead(ctx, head); err != nil {
			return err
		}
	}
}

// followHead brings the emitted chain to the node's head less the
// confirmations, in steps of at most maxFollowStep blocks.
func (s *scanner) followHead(ctx context.Context, head FollowHead) error {
	conf := s.follow.opt.Confirmations
	if head.Number < conf {
		return nil
	}
	target := head.Number - conf
	for {
		tip := s.follow.tip().Number
		to := min(target, tip+maxFollowStep)
		added, removed, err := s.advanceRetrying(ctx, to, head.Number)
		if err != nil {
			return err
		}
		head.Added, head.Removed = head.Added+added, head.Removed+removed
		if to == target {
			break
		}
	}
	head.Emitted = s.follow.tip().Number
	if s.follow.opt.Head != nil {
		s.follow.opt.Head(head)
	}
	return nil
}

// maxFollowStep bounds the blocks one step fetches: a follow that fell
// far behind catches up one checkpoint at a time.
const maxFollowStep = 256

func (f *follower) tip() FollowBlock { return f.window[len(f.window)-1] }

// at returns the window's block n.
func (f *follower) at(n uint64) (FollowBlock, bool) {
	first := f.window[0].Number
	if n < first || n > f.tip().Number {
		return FollowBlock{}, false
	}
	return f.window[n-first], true
}

// errRaced is a chain that changed between two answers: the step is
// tried again.
type errRaced struct{ err error }

func (e *errRaced) Error() string { return e.err.Error() }
func (e *errRaced) Unwrap() error { return e.err }

// advanceRetrying advances to block to, trying again where the node's
// chain changed between its answers; a chain that does not link three
// times running is an error naming the block.
func (s *scanner) advanceRetrying(ctx context.Context, to, head uint64) (added, removed int, err error) {
	for attempt := 1; ; attempt++ {
		added, removed, err = s.advance(ctx, to, head)
		var raced *errRaced
		if !errors.As(err, &raced) {
			return added, removed, err
		}
		if attempt == 3 {
			return 0, 0, fmt.Errorf("scan: %w (3 times)", raced.err)
		}
		select {
		case <-ctx.Done():
			return 0, 0, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// advance makes the emitted chain the node's chain, whose head is block
// head, up to block to: the logs of blocks it dropped, removed, then those
// of its new blocks, in one Emit and one checkpoint.
func (s *scanner) advance(ctx context.Context, to, head uint64) (added, removed int, err error) {
	f := s.follow
	tip := f.tip().Number
	lo := min(tip, head) // the newest block both chains have
	kept, ok := f.at(lo)
	if !ok {
		return 0, 0, fmt.Errorf("scan: %w", blockError(f.window[0].Number, f.window[0].Hash, ErrDeepReorg, "the node's head is block %d, below the %d blocks kept", head, len(f.window)))
	}
	hi := lo
	if to >= tip {
		hi = to
	}
	blocks, err := s.span(ctx, lo, hi)
	if err != nil {
		return 0, 0, err
	}
	if blocks[0].hash != kept.Hash {
		fork, err := s.forkPoint(ctx, lo)
		if err != nil {
			return 0, 0, err
		}
		if blocks, err = s.span(ctx, fork, max(fork, to)); err != nil {
			return 0, 0, err
		}
		if kept, _ = f.at(fork); blocks[0].hash != kept.Hash {
			return 0, 0, &errRaced{blockError(fork, blocks[0].hash, ethlogs.ErrHeaderHash, "the node's block is %s, a moment ago %s", blocks[0].hash, kept.Hash)}
		}
	}
	fork := blocks[0].header.Number.Uint64()
	if fork < s.stats.AnchorNumber && s.cfg.Mode != None {
		return 0, 0, fmt.Errorf("scan: %w", blockError(fork+1, common.Hash{}, ErrDeepReorg, "the node replaced blocks after %d, below the anchor %d", fork, s.stats.AnchorNumber))
	}
	if fork == tip && len(blocks) == 1 {
		return 0, 0, nil // nothing new
	}
	gone, err := s.removedLogs(ctx, fork)
	if err != nil {
		return 0, 0, err
	}
	logs, err := s.newLogs(ctx, blocks[1:])
	if err != nil {
		return 0, 0, err
	}
	if err := s.commitStep(fork, blocks[1:], gone, logs); err != nil {
		return 0, 0, err
	}
	return len(logs.logs), len(gone), nil
}

// span fetches the headers of blocks lo to hi, each linked to the one
// before.
func (s *scanner) span(ctx context.Context, lo, hi uint64) ([]*block, error) {
	blocks, err := s.spanUnlinked(ctx, lo, hi)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(blocks); i++ {
		if p := blocks[i-1]; blocks[i].header.ParentHash != p.hash {
			n := blocks[i].header.Number.Uint64()
			return nil, &errRaced{blockError(n, blocks[i].hash, ethlogs.ErrParentLink, "its parent hash is %s, the node's block %d is %s", blocks[i].header.ParentHash, n-1, p.hash)}
		}
	}
	return blocks, nil
}

// forkPoint finds the newest block of the window at or below n that the
// node's chain still holds.
func (s *scanner) forkPoint(ctx context.Context, n uint64) (uint64, error) {
	w := s.follow.window
	blocks, err := s.spanUnlinked(ctx, w[0].Number, n)
	if err != nil {
		return 0, err
	}
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].hash == w[i].Hash {
			return w[i].Number, nil
		}
	}
	return 0, s.deepReorgAt(blocks[0].hash)
}

// spanUnlinked fetches the headers of lo to hi, each checked against its
// hash only.
func (s *scanner) spanUnlinked(ctx context.Context, lo, hi uint64) ([]*block, error) {
	var blocks []*block
	for next := lo; next <= hi; {
		end := min(hi, next+uint64(s.headerBatch.get())-1)
		bs, err := s.fetchHeaders(ctx, span{next, end})
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, bs...)
		next = end + 1
	}
	return blocks, nil
}

func (s *scanner) deepReorgAt(now common.Hash) error {
	w := s.follow.window[0]
	return fmt.Errorf("scan: %w", blockError(w.Number, w.Hash, ErrDeepReorg, "the node's block %d is now %s: the blocks replaced reach below the %d kept, their removed logs cannot be told", w.Number, now, len(s.follow.window)))
}

// removedLogs fetches again, verified as before, the logs of the window's
// blocks after fork, marked removed, oldest first.
func (s *scanner) removedLogs(ctx context.Context, fork uint64) ([]*types.Log, error) {
	var cands []candidate
	for _, b := range s.follow.window {
		if b.Number > fork && b.Logs {
			cands = append(cands, candidate{b.Number, b.Hash})
		}
	}
	found, err := s.receiptsOfBlocks(ctx, cands)
	if err != nil {
		return nil, err
	}
	var logs []*types.Log
	for _, f := range found {
		for _, l := range f.logs {
			l.Removed = true
		}
		logs = append(logs, f.logs...)
	}
	return logs, nil
}

// stepLogs are the new blocks' matching logs and which blocks had some.
type stepLogs struct {
	logs    []*types.Log
	matched map[uint64]bool
}

// newLogs fetches and verifies the receipts of the blocks whose bloom
// passes (every block in bloom-untrusted mode).
func (s *scanner) newLogs(ctx context.Context, blocks []*block) (stepLogs, error) {
	var cands []candidate
	for _, b := range blocks {
		if s.cfg.Mode == BloomUntrusted || s.matcher.TestHeader(b.header) {
			n := b.header.Number.Uint64()
			cands = append(cands, candidate{n, b.hash})
			s.knownMu.Lock()
			s.known[n] = b
			s.knownMu.Unlock()
		}
	}
	found, err := s.receiptsOfBlocks(ctx, cands)
	out := stepLogs{matched: map[uint64]bool{}}
	for _, f := range found {
		out.logs = append(out.logs, f.logs...)
		out.matched[f.number] = len(f.logs) > 0
	}
	return out, err
}

// receiptsOfBlocks fetches and verifies the receipts of cands, in
// batches.
func (s *scanner) receiptsOfBlocks(ctx context.Context, cands []candidate) ([]found, error) {
	defer func() {
		for _, c := range cands {
			s.forget(c.number)
		}
	}()
	var out []found
	for len(cands) > 0 {
		n := min(len(cands), s.receiptsBatch.get())
		fs, err := s.fetchReceipts(ctx, cands[:n])
		if err != nil {
			return nil, err
		}
		s.stats.Candidates += uint64(n)
		out, cands = append(out, fs...), cands[n:]
	}
	return out, nil
}

// commitStep emits a step's logs, moves the window to the new blocks and
// reports the checkpoint.
func (s *scanner) commitStep(fork uint64, blocks []*block, gone []*types.Log, logs stepLogs) error {
	f := s.follow
	all := append(gone, logs.logs...)
	if len(all) > 0 {
		if err := s.cfg.Emit(all); err != nil {
			return err
		}
	}
	if len(gone) > 0 || fork < f.tip().Number {
		s.stats.Reorgs++
	}
	s.stats.Removed += uint64(len(gone))
	s.stats.Logs += uint64(len(all))
	for _, f := range logs.matched {
		if f {
			s.stats.Matched++
		}
	}
	s.stats.UnfinalizedLogs += uint64(len(logs.logs))
	f.window = f.window[:fork-f.window[0].Number+1]
	for _, b := range blocks {
		n := b.header.Number.Uint64()
		f.window = append(f.window, FollowBlock{Number: n, Hash: b.hash, Logs: logs.matched[n]})
	}
	if extra := len(f.window) - f.opt.Window; extra > 0 {
		f.window = slices.Delete(f.window, 0, extra)
	}
	s.stats.To = f.tip().Number
	s.stats.Next = s.stats.To + 1
	s.stats.Heads++
	return s.report()
}

// headSource yields the node's heads: from a newHeads subscription where
// the endpoint streams, else by asking for the latest block every Poll.
type headSource struct {
	s     *scanner
	sub   *Subscription
	tick  *time.Ticker
	first bool
}

func (s *scanner) newHeadSource(ctx context.Context) (*headSource, error) {
	src := &headSource{s: s, first: true}
	sub, err := s.client.SubscribeNewHeads(ctx)
	switch {
	case errors.Is(err, ErrNoSubscriptions):
		src.tick = time.NewTicker(s.follow.opt.Poll)
	case err != nil:
		return nil, err
	default:
		src.sub = sub
	}
	return src, nil
}

func (h *headSource) close() {
	if h.sub != nil {
		h.sub.Close()
	}
	if h.tick != nil {
		h.tick.Stop()
	}
}

// next returns the node's next head: at once the first time (the blocks
// since the range), then as the node announces one or a poll finds one.
func (h *headSource) next(ctx context.Context) (FollowHead, error) {
	if h.first {
		h.first = false
		return h.latest(ctx)
	}
	if h.sub == nil {
		select {
		case <-ctx.Done():
			return FollowHead{}, ctx.Err()
		case <-h.tick.C:
			return h.latest(ctx)
		}
	}
	select {
	case <-ctx.Done():
		return FollowHead{}, ctx.Err()
	case raw, ok := <-h.sub.C:
		if !ok {
			return FollowHead{}, fmt.Errorf("scan: the newHeads subscription ended: %w", h.sub.Err())
		}
		var head struct {
			Number *hexutil.Uint64 `json:"number"`
			Hash   *common.Hash    `json:"hash"`
		}
		if json.Unmarshal(raw, &head) != nil || head.Number == nil || head.Hash == nil {
			return FollowHead{}, fmt.Errorf("scan: a newHeads notification without a number and a hash: %.100s", raw)
		}
		return FollowHead{Number: uint64(*head.Number), Hash: *head.Hash, Seen: time.Now()}, nil
	}
}

func (h *headSource) latest(ctx context.Context) (FollowHead, error) {
	seen := time.Now()
	b, err := h.s.fetchBlock(ctx, Latest, anyNumber)
	if err != nil {
		return FollowHead{}, err
	}
	return FollowHead{Number: b.header.Number.Uint64(), Hash: b.hash, Seen: seen}, nil
}
