package lightclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

const (
	// chunk is how many blocks one scan step covers: one getcfilters
	// batch. Nothing of a step is reported before all of it verified, so
	// a step that fails is run again from its start.
	chunk = wire.MaxGetCFiltersReqRange
	// attempts bounds how often a step is tried, peers dropped or banned
	// in between, before the client gives up.
	attempts = 8
	// saveEvents is how often the state is kept while a step's blocks
	// are reported: a commit costs two fsyncs and a copy of the state.
	saveEvents = 256
)

// catchUp reports the reorganisations the chain went through, scans the
// blocks the peers serve up to goal (or their tip when following), runs
// the queued rescans and reports what is deep enough. It returns whether
// it reported anything new.
func (c *Client) catchUp(ctx context.Context, goal int32) (bool, error) {
	before := c.emitted
	for {
		if err := c.reconcile(ctx); err != nil {
			return false, err
		}
		target := c.target(goal)
		if c.scanned >= target {
			break
		}
		lo := c.scanned + 1
		if err := c.scanChunk(ctx, lo, min(lo+chunk-1, target)); err != nil {
			return false, err
		}
	}
	if err := c.runJobs(ctx); err != nil {
		return false, err
	}
	if err := c.emitReady(ctx); err != nil {
		return false, err
	}
	return c.emitted != before, c.saveAll(ctx)
}

// target returns the last height to scan now: the highest block a quorum
// of peers serve (one peer in BIP37 mode), within goal unless following.
func (c *Client) target(goal int32) int32 {
	t := min(c.pool.served(c.chain, c.need()), c.chain.Height())
	if !c.cfg.Follow {
		t = min(t, goal)
	}
	return t
}

// reconcile takes back the scanned blocks that left the chain: those not
// reported yet silently, the reported ones with Disconnected events from
// the top down, and the ledger's with them.
func (c *Client) reconcile(ctx context.Context) error {
	fork, err := c.fork()
	if err != nil || fork >= c.scanned {
		return err
	}
	first := wallet.Block{Height: fork + 1} // the lowest block taken back
	for len(c.pending) > 0 && c.pending[len(c.pending)-1].height > fork {
		first.Hash = c.pending[len(c.pending)-1].hash
		c.pending = c.pending[:len(c.pending)-1]
	}
	var gone []block
	for len(c.reported) > 0 && c.reported[len(c.reported)-1].height > fork {
		gone = append(gone, c.reported[len(c.reported)-1])
		first.Hash = gone[len(gone)-1].hash
		c.reported = c.reported[:len(c.reported)-1]
	}
	c.mu.Lock()
	_, err = c.wallet.Disconnect(first)
	if len(gone) > 0 {
		c.stats.Reorgs++
	}
	c.tip = wallet.Block{}
	if n := len(c.reported); n > 0 {
		c.tip = wallet.Block{Height: c.reported[n-1].height, Hash: c.reported[n-1].hash}
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	c.cfg.Logger.Warn("reorganisation", "fork", fork, "disconnected", len(gone), "scanned", c.scanned, "tip", c.chain.Height())
	c.scanned = fork
	for _, b := range gone {
		if err := c.emit(ctx, Event{Kind: Disconnected, Height: b.height, Hash: b.hash, Txs: b.txs, Tip: c.chain.Height()}); err != nil {
			return err
		}
	}
	return c.saveAll(ctx)
}

// fork returns the height of the highest scanned block still on the
// chain, the birthday's parent if none is but the client remembers every
// block from the birthday.
func (c *Client) fork() (int32, error) {
	for _, bs := range [][]block{c.pending, c.reported} {
		for i := len(bs) - 1; i >= 0; i-- {
			if hash, err := c.chain.Hash(bs[i].height); err == nil && hash == bs[i].hash && bs[i].height <= c.chain.Height() {
				return bs[i].height, nil
			}
		}
	}
	lowest := c.scanned + 1
	if len(c.reported) > 0 {
		lowest = c.reported[0].height
	} else if len(c.pending) > 0 {
		lowest = c.pending[0].height
	}
	if lowest > c.cfg.Birthday {
		return 0, fmt.Errorf("lightclient: the chain reorganised below block %d, the lowest the client remembers", lowest)
	}
	return c.cfg.Birthday - 1, nil
}

// scanChunk scans heights lo..hi for every watched script, feeds the
// ledger and queues the blocks for reporting; scripts the gap limit adds
// are rescanned from the block that added them.
func (c *Client) scanChunk(ctx context.Context, lo, hi int32) error {
	found, err := c.scanRange(ctx, lo, hi, c.watchAll)
	if err != nil {
		return err
	}
	hashes, err := c.chain.Hashes(nil, lo, hi)
	if err != nil {
		return err
	}
	for i, hash := range hashes {
		b := block{lo + int32(i), hash, found[lo+int32(i)]}
		c.mu.Lock()
		up, err := c.wallet.Connect(wallet.Block{Height: b.height, Hash: b.hash}, msgs(b.txs))
		if err == nil && len(up.Watch) > 0 {
			c.jobs = append(c.jobs, job{b.height, up.Watch})
		}
		c.mu.Unlock()
		if err != nil {
			return err
		}
		c.pending = append(c.pending, b)
	}
	c.scanned = hi
	if err := c.runJobs(ctx); err != nil {
		return err
	}
	if err := c.emitReady(ctx); err != nil {
		return err
	}
	return c.saveAll(ctx)
}

// watchAll returns a watch of every script and of the coins known.
func (c *Client) watchAll() (*spv.Watch, error) { return c.watchOf(nil) }

// watchOf returns a watch of scripts (all if nil) and of the coins known:
// those given in Config.Coins and the ledger's.
func (c *Client) watchOf(scripts []wallet.Derived) (*spv.Watch, error) {
	c.mu.Lock()
	if scripts == nil {
		scripts = c.wallet.Scripts.Watched()
	}
	coins := slices.Clone(c.coins)
	for _, u := range c.wallet.Ledger.Unspent() {
		coins = append(coins, u.OutPoint)
	}
	c.mu.Unlock()
	return spv.NewWatch(addresses(scripts), coins)
}

func addresses(ds []wallet.Derived) []address.Address {
	out := make([]address.Address, len(ds))
	for i, d := range ds {
		out[i] = d.Address
	}
	return out
}

// scanRange scans heights lo..hi of the chain for the watch made by
// watch and returns the wallet transactions found, by height. A failure
// is blamed on the peer that caused it (banned if it lied, dropped
// otherwise), and the range scanned again with the peers left.
func (c *Client) scanRange(ctx context.Context, lo, hi int32, watch func() (*spv.Watch, error)) (map[int32][]spv.Tx, error) {
	var last error
	for range attempts {
		w, err := watch()
		if err != nil {
			return nil, err
		}
		found := make(map[int32][]spv.Tx)
		emit := func(tx spv.Tx) error {
			found[tx.Height] = append(found[tx.Height], tx)
			return nil
		}
		var st spv.Stats
		if c.cfg.Mode == BIP37 {
			st, err = c.scanBloom(ctx, lo, hi, w, emit)
		} else {
			src := &source{c: c}
			st, err = cfscan.Scan(ctx, cfscan.Config{Chain: c.chain, Watch: w, Source: src, From: lo, To: hi,
				Checkpoint: c.cfg.Checkpoint, Emit: emit})
			if err != nil && ctx.Err() == nil {
				c.blame157(ctx, err, src, hi)
			}
		}
		c.addStats(st)
		c.pool.snapshot()
		if err == nil {
			return found, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = err
		if len(c.pool.peers) < c.need() {
			if err := c.pool.fill(ctx, c.need()); err != nil {
				return nil, fmt.Errorf("lightclient: blocks %d to %d: %w (after %w)", lo, hi, err, last)
			}
			for _, p := range slices.Clone(c.pool.peers) {
				if !p.synced {
					c.syncNew(ctx, p)
				}
			}
		}
		if c.target(hi) < hi {
			return nil, fmt.Errorf("lightclient: blocks %d to %d: no quorum of peers serves them now: %w (after %w)", lo, hi, errNoPeers, last)
		}
	}
	return nil, fmt.Errorf("lightclient: blocks %d to %d failed %d times, the last: %w", lo, hi, attempts, last)
}

// scanBloom scans lo..hi with a BIP37 filter loaded into the best peer.
func (c *Client) scanBloom(ctx context.Context, lo, hi int32, w *spv.Watch, emit func(spv.Tx) error) (spv.Stats, error) {
	ps := c.pool.serving(c.chain, hi)
	if len(ps) == 0 {
		return spv.Stats{}, fmt.Errorf("lightclient: no peer has block %d: %w", hi, errNoPeers)
	}
	p := ps[0]
	hash, err := c.chain.Hash(hi)
	if err != nil {
		return spv.Stats{}, err
	}
	// One tweak and a capacity that only grows: every filter the client
	// loads puts each element on the same bits (docs/bip37.md).
	st, err := bloomscan.Scan(ctx, bloomscan.Config{Session: p.s, Chain: c.chain, Watch: w, From: lo, To: hi,
		FPRate: c.cfg.FPRate, Tweak: c.tweak, Capacity: c.capacity, Emit: emit})
	c.mu.Lock()
	c.capacity = max(c.capacity, st.FilterCapacity)
	c.mu.Unlock()
	if err != nil && ctx.Err() == nil {
		c.blameScan(ctx, p, err, hi, hash)
	}
	return st, err
}

// blameScan blames p for a scan step up to block hi (hash) that failed
// on what it served, unless p has since switched to a branch without
// that block: asked for headers again, it shows a best chain that does
// not hold it (a node answers for its best chain only, so a
// reorganisation between two requests looks like withheld or foreign
// data). Such a peer is dropped, not banned.
func (c *Client) blameScan(ctx context.Context, p *peer, err error, hi int32, hash chainhash.Hash) {
	if errors.Is(err, spv.ErrMisbehaving) && c.syncFrom(ctx, p) == nil {
		if h, herr := c.chain.Hash(hi); herr != nil || h != hash || p.best(c.chain) < hi {
			c.pool.drop(p, fmt.Errorf("peer %s: %w (not banned: its best chain no longer holds block %d %s)", p.addr, err, hi, hash))
			return
		}
	}
	c.blame(p, err)
}

// blame157 blames a failed BIP157 scan step on the peers that caused it:
// those that agreed on filter headers it proved false (and the stored
// filter headers from that block are dropped, to be fetched again), or
// the peer that served the filters or blocks it failed on.
func (c *Client) blame157(ctx context.Context, err error, src *source, hi int32) {
	var be *cfscan.BlockError
	switch {
	case errors.Is(err, errNoPeers):
	case errors.Is(err, cfscan.ErrFalseFilterHeaders):
		h := int32(-1)
		if errors.As(err, &be) {
			h = be.Height
		}
		for _, a := range src.agreed {
			if h < 0 || a.lo <= h && h <= a.hi {
				for _, p := range a.peers {
					if c.pool.alive(p) {
						c.pool.ban(p, fmt.Errorf("peer %s agreed on false filter headers: %w", p.addr, err))
					}
				}
			}
		}
		st := c.chain.Store()
		if s := st.State(); s.FilterTip >= s.FilterBase {
			if terr := st.TruncateFilters(max(h-1, s.FilterBase-1)); terr != nil {
				c.cfg.Logger.Error("dropping false filter headers", "err", terr)
			}
		}
	case src.last != nil && c.pool.alive(src.last):
		if hash, herr := c.chain.Hash(hi); herr == nil {
			c.blameScan(ctx, src.last, err, hi, hash)
		} else {
			c.blame(src.last, err)
		}
	}
}

// emitReady reports the scanned blocks with Confirmations blocks on top.
// It keeps the state every saveEvents of them and before the last (so
// that once the consumer takes that one, all but it are kept, and a crash
// while the client scans on reports one block again, not the whole run).
func (c *Client) emitReady(ctx context.Context) error {
	tip := c.chain.Height()
	ready := 0
	for ready < len(c.pending) && tip-c.pending[ready].height >= c.cfg.Confirmations {
		ready++
	}
	for i := range ready {
		if i > 0 && (i == ready-1 || i%saveEvents == 0) {
			if err := c.save(ctx, false); err != nil {
				return err
			}
		}
		b := c.pending[0]
		if err := c.emit(ctx, Event{Kind: Connected, Height: b.height, Hash: b.hash, Txs: b.txs, Tip: tip}); err != nil {
			return err
		}
		c.pending = c.pending[1:]
		c.reported = append(c.reported, b)
		if over := len(c.reported) - int(spv.DefaultWindow); over > 0 {
			c.reported = slices.Delete(c.reported, 0, over)
		}
		c.mu.Lock()
		c.tip = wallet.Block{Height: b.height, Hash: b.hash}
		c.mu.Unlock()
	}
	return nil
}

// runJobs runs the queued rescans, and those their finds queue, each over
// the heights scanned so far from its start.
func (c *Client) runJobs(ctx context.Context) error {
	for {
		c.mu.Lock()
		jobs := c.jobs
		c.jobs, c.running = nil, jobs // kept as owed until they are done
		c.mu.Unlock()
		if len(jobs) == 0 {
			return nil
		}
		if err := c.saveAll(ctx); err != nil { // scripts added since the last state, and the rescan they owe
			return err
		}
		for _, j := range jobs {
			if err := c.rescan(ctx, j); err != nil {
				return err
			}
		}
		c.mu.Lock()
		c.running = nil
		c.mu.Unlock()
	}
}

// rescan scans heights j.from..scanned for j's scripts (all if nil) and
// records what is new to the wallet.
func (c *Client) rescan(ctx context.Context, j job) error {
	lo := max(j.from, c.cfg.Birthday)
	if lo > c.scanned {
		return nil // the forward scan watches them already
	}
	c.mu.Lock()
	c.stats.Rescans++
	c.mu.Unlock()
	watch := func() (*spv.Watch, error) { return c.watchOf(j.scripts) }
	for from := lo; from <= c.scanned; from += chunk {
		to := min(from+chunk-1, c.scanned)
		found, err := c.scanRange(ctx, from, to, watch)
		if err != nil {
			return err
		}
		if err := c.record(ctx, from, to, found); err != nil {
			return err
		}
	}
	return nil
}

// record connects what a rescan found to the ledger and reports what is
// new to the wallet: with its block if that is not reported yet, else in
// a Connected event with Rescan set. A transaction found before that the
// rescan finds to pay (or spend) more of the wallet, such as a spend whose
// change goes to a script the gap limit added since, is kept or reported
// again with all its outputs and inputs to the wallet.
func (c *Client) record(ctx context.Context, lo, hi int32, found map[int32][]spv.Tx) error {
	for h := lo; h <= hi; h++ {
		txs := found[h]
		if len(txs) == 0 {
			continue
		}
		hash, err := c.chain.Hash(h)
		if err != nil {
			return err
		}
		c.mu.Lock()
		up, err := c.wallet.Connect(wallet.Block{Height: h, Hash: hash}, msgs(txs))
		if err == nil && len(up.Watch) > 0 {
			c.jobs = append(c.jobs, job{h, up.Watch})
		}
		c.mu.Unlock()
		if err != nil {
			return err
		}
		if i := slices.IndexFunc(c.pending, func(b block) bool { return b.height == h }); i >= 0 {
			for _, tx := range txs {
				c.pending[i].txs, _ = merge(c.pending[i].txs, tx)
			}
			continue
		}
		var news []spv.Tx
		if i := slices.IndexFunc(c.reported, func(b block) bool { return b.height == h }); i >= 0 {
			for _, tx := range txs {
				var grown *spv.Tx
				if c.reported[i].txs, grown = merge(c.reported[i].txs, tx); grown != nil { // a disconnect removes them too
					news = append(news, *grown)
				}
			}
		} else { // below the blocks the client remembers
			for _, tx := range txs {
				if slices.ContainsFunc(up.Added, func(t *wallet.Tx) bool { return t.ID == tx.ID }) {
					news = append(news, tx)
				}
			}
		}
		if len(news) == 0 {
			continue
		}
		if err := c.emit(ctx, Event{Kind: Connected, Height: h, Hash: hash, Txs: news, Rescan: true, Tip: c.chain.Height()}); err != nil {
			return err
		}
	}
	return nil
}

// merge returns a block's txs with tx in it: inserted in block order if
// it is new, or its outputs and inputs to the wallet joined to those of
// the same transaction held. It returns the entry, as it now is, if it is
// new or grew, else nil. txs itself is left as it was (events hold it): a
// change makes a new slice.
func merge(txs []spv.Tx, tx spv.Tx) ([]spv.Tx, *spv.Tx) {
	i := slices.IndexFunc(txs, func(t spv.Tx) bool { return t.ID == tx.ID })
	if i < 0 {
		at, _ := slices.BinarySearchFunc(txs, tx.Position, func(t spv.Tx, p uint32) int { return cmp.Compare(t.Position, p) })
		out := slices.Insert(slices.Clone(txs), at, tx)
		return out, &out[at]
	}
	m := txs[i]
	outs, inputs := len(m.Outputs), len(m.Inputs)
	for _, o := range tx.Outputs {
		if !slices.ContainsFunc(m.Outputs, func(p spv.Output) bool { return p.Index == o.Index }) {
			m.Outputs = append(slices.Clip(m.Outputs), o)
		}
	}
	for _, in := range tx.Inputs {
		if !slices.ContainsFunc(m.Inputs, func(p spv.Input) bool { return p.Index == in.Index }) {
			m.Inputs = append(slices.Clip(m.Inputs), in)
		}
	}
	if len(m.Outputs) == outs && len(m.Inputs) == inputs {
		return txs, nil
	}
	slices.SortFunc(m.Outputs, func(a, b spv.Output) int { return cmp.Compare(a.Index, b.Index) })
	slices.SortFunc(m.Inputs, func(a, b spv.Input) int { return cmp.Compare(a.Index, b.Index) })
	out := slices.Clone(txs)
	out[i] = m
	return out, &out[i]
}
