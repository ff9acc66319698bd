package lightclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// seenKept is how many of the block hashes a peer announced or sent the
// client remembers, to tell which blocks it can serve.
const seenKept = 16

// peer is a connected peer.
type peer struct {
	addr  string
	s     *spv.Session
	start int32            // the height its version message announced
	seen  []chainhash.Hash // the last blocks it announced or sent headers of
	quit  chan struct{}    // closed when the client drops it

	synced bool // its headers synced, header announcements asked for

	// below caps best: the peer did not serve filter headers up to a
	// block it announced (btcd relays blocks of branches that are not
	// its best, and serves filters only of its best chain), until it
	// announces another. unserved counts such requests in a row.
	below    int32
	unserved int
}

// saw records that the peer has block hash.
func (p *peer) saw(hash chainhash.Hash) {
	if i := slices.Index(p.seen, hash); i >= 0 {
		p.seen = slices.Delete(p.seen, i, i+1)
	} else {
		p.below = math.MaxInt32 // something new: ask again
	}
	p.seen = append(p.seen, hash)
	if len(p.seen) > seenKept {
		p.seen = p.seen[1:]
	}
}

// best returns the height of the highest block of c's chain the peer has
// shown it has: by the blocks it announced or sent, or, while it has sent
// none, by its version message's height; -1 if every block it announced
// is off c's chain (it is on another branch, or c reorganised away from
// it) until it announces one on it.
func (p *peer) best(c *spv.Chain) int32 {
	b := int32(-1)
	for _, hash := range p.seen {
		if h, ok := c.HeightOf(hash); ok {
			b = max(b, h)
		}
	}
	if len(p.seen) == 0 {
		b = min(p.start, c.Height())
	}
	return min(b, p.below)
}

// unanswered records that the peer did not serve filter headers up to
// height h, and reports whether it has failed so often in a row that it
// should make room for another.
func (p *peer) unanswered(h int32) bool {
	p.below = h - 1
	p.unserved++
	return p.unserved >= maxUnserved
}

// maxUnserved is how many getcfheaders in a row a peer may leave
// unanswered before the client drops it to make room for another (not a
// ban: btcd ignores them while its tip is over a day old, and for blocks
// of a branch it relayed but does not follow, such as the first blocks
// of one that is about to win).
const maxUnserved = 16

// Ban is a peer the client proved to lie. It is not reconnected until
// Until.
type Ban struct {
	// Key is what the ban holds: the IP address, or on the loopback
	// interface (where tests run several nodes) the IP and port.
	Key    string
	Peer   string // the address as dialed
	Reason string // what it served, as the error that proved it false
	Since  time.Time
	Until  time.Time
}

// PeerInfo describes a peer the client connected to.
type PeerInfo struct {
	Addr        string
	Services    wire.ServiceFlag
	UserAgent   string // the peer's text, clipped and escaped (core/untrusted.Text)
	StartHeight int32  // from its version message
	Best        int32  // the highest block of the chain it has shown it has
	Score       int    // timeouts and failures lower it
	Traffic     spv.Traffic
	// Dropped is why the client disconnected it (the error, which may
	// quote the peer); empty while it is connected.
	Dropped string
}

// pool is the client's peers: those connected, the addresses to try, the
// bans and scores. Only the engine goroutine uses it, but snapshots
// (infos, bans) are taken under mu.
type pool struct {
	cfg    *Config
	chain  *spv.Chain
	log    *slog.Logger
	notify chan *peer // a peer announced something, or its connection ended

	peers   []*peer
	cands   []string             // addresses to try, in order
	scores  map[string]int       // by address: timeouts and failures lower it
	suspect map[string]error     // parties to an undecided conflict: not redialed this run
	seeded  time.Time            // when the DNS seeds were last asked
	known   map[string]knownAddr // the addresses the seeds gave, kept in the store
	st      *store.Store         // keeps the peers file; nil in memory
	changed bool                 // the bans or known addresses changed since the file was written

	mu      sync.Mutex
	bans    map[string]Ban
	traffic spv.Traffic // of the sessions closed so far
	infos   []PeerInfo
	closed  []PeerInfo // the sessions closed so far, in order
}

func newPool(cfg *Config, chain *spv.Chain) *pool {
	p := &pool{cfg: cfg, chain: chain, log: cfg.Logger, notify: make(chan *peer, 64), scores: make(map[string]int),
		suspect: make(map[string]error), bans: make(map[string]Ban), known: make(map[string]knownAddr)}
	p.cands = append(p.cands, cfg.Peers...)
	return p
}

// banKey is what a ban of addr holds: its host, or on loopback its host
// and port, since an IP ban would hit every test node.
func banKey(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return addr
	}
	return host
}

// banned returns the ban on addr, if one holds.
func (pl *pool) banned(addr string) (Ban, bool) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	b, ok := pl.bans[banKey(addr)]
	if ok && time.Now().After(b.Until) {
		delete(pl.bans, banKey(addr))
		return b, false
	}
	return b, ok
}

// eligible reports whether addr may be dialed now.
func (pl *pool) eligible(addr string) bool {
	if _, ok := pl.banned(addr); ok {
		return false
	}
	if _, ok := pl.suspect[addr]; ok {
		return false
	}
	return !slices.ContainsFunc(pl.peers, func(p *peer) bool { return p.addr == addr })
}

// fill dials candidates until the pool holds its target of peers or none
// is left to try, and returns an error if fewer than need are connected.
func (pl *pool) fill(ctx context.Context, need int) error {
	var errs []error
	for len(pl.peers) < pl.cfg.TargetPeers {
		batch := pl.next(ctx, pl.cfg.TargetPeers-len(pl.peers))
		if len(batch) == 0 {
			break
		}
		for i, r := range pl.dial(ctx, batch) {
			if r.err != nil {
				errs = append(errs, r.err)
				pl.scores[batch[i]]--
				continue
			}
			pl.add(r.p)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	pl.snapshot()
	if len(pl.peers) >= need {
		return nil
	}
	for addr, why := range pl.suspect {
		errs = append(errs, fmt.Errorf("%s left out: %w", addr, why))
	}
	if len(errs) == 0 {
		errs = append(errs, errors.New("no other address to try"))
	}
	return fmt.Errorf("lightclient: %d peers connected, %d needed: %w: %w", len(pl.peers), need, errNoPeers, errors.Join(errs...))
}

// next takes up to n addresses to dial from the candidates, asking the
// DNS seeds when none is left and the network has them.
func (pl *pool) next(ctx context.Context, n int) []string {
	if len(pl.cands) == 0 && len(pl.cfg.Peers) == 0 && time.Since(pl.seeded) > reseedAfter {
		pl.seeded = time.Now()
		pl.cands = seed(ctx, pl.cfg, pl.log)
		pl.learn(pl.cands)
	}
	var out []string
	for len(pl.cands) > 0 && len(out) < n {
		addr := pl.cands[0]
		pl.cands = pl.cands[1:]
		if pl.eligible(addr) && !slices.Contains(out, addr) {
			out = append(out, addr)
		}
	}
	return out
}

// retry puts the given peers' addresses back among the candidates, worst
// scores last, so that a later fill may reconnect them.
func (pl *pool) retry() {
	if len(pl.cfg.Peers) == 0 {
		return // seeds: ask them again when the candidates run out
	}
	for _, a := range pl.cfg.Peers {
		if !slices.Contains(pl.cands, a) {
			pl.cands = append(pl.cands, a)
		}
	}
	slices.SortStableFunc(pl.cands, func(a, b string) int { return cmp.Compare(pl.scores[b], pl.scores[a]) })
}

type dialed struct {
	p   *peer
	err error
}

// dial connects to addrs at once.
func (pl *pool) dial(ctx context.Context, addrs []string) []dialed {
	out := make([]dialed, len(addrs))
	var wg sync.WaitGroup
	for i, addr := range addrs {
		wg.Go(func() {
			s, err := spv.Dial(ctx, addr, spv.Config{Network: pl.cfg.Network, Services: pl.cfg.services(),
				Advertise: wire.SFNodeWitness, Timeout: pl.cfg.Timeout})
			if err != nil {
				out[i].err = err
				pl.log.Info("peer not connected", "peer", addr, "err", err)
				return
			}
			out[i].p = &peer{addr: addr, s: s, start: s.StartHeight(), quit: make(chan struct{}), below: math.MaxInt32}
		})
	}
	wg.Wait()
	return out
}

// add starts using a connected peer.
func (pl *pool) add(p *peer) {
	pl.peers = append(pl.peers, p)
	pl.log.Info("peer connected", "peer", p.addr, "height", p.start, "services", p.s.Services())
	go pl.forward(p)
}

// forward tells the engine when p announces something or disconnects.
func (pl *pool) forward(p *peer) {
	for {
		select {
		case <-p.s.Announcing():
		case <-p.s.Done():
			select {
			case pl.notify <- p:
			case <-p.quit:
			}
			return
		case <-p.quit:
			return
		}
		select {
		case pl.notify <- p:
		case <-p.quit:
			return
		}
	}
}

// drop disconnects p for err; a stall lowers its address's score.
func (pl *pool) drop(p *peer, err error) {
	i := slices.Index(pl.peers, p)
	if i < 0 {
		return
	}
	pl.peers = slices.Delete(pl.peers, i, i+1)
	close(p.quit)
	p.s.Drop(err)
	pl.scores[p.addr]--
	info := pl.info(p)
	info.Traffic = p.s.Traffic()
	info.Dropped = err.Error()
	pl.mu.Lock()
	pl.traffic = addTraffic(pl.traffic, info.Traffic)
	pl.closed = append(pl.closed, info)
	pl.mu.Unlock()
	pl.log.Info("peer dropped", "peer", p.addr, "err", err)
	pl.snapshot()
}

// ban disconnects p and refuses its address for the ban duration: it
// served data proven false (why).
func (pl *pool) ban(p *peer, why error) {
	now := time.Now()
	b := Ban{Key: banKey(p.addr), Peer: p.addr, Reason: why.Error(), Since: now, Until: now.Add(pl.cfg.BanDuration)}
	pl.mu.Lock()
	pl.bans[b.Key] = b
	pl.mu.Unlock()
	pl.changed = true
	pl.log.Warn("peer banned", "peer", p.addr, "reason", b.Reason)
	pl.drop(p, why)
	if err := pl.savePeers(); err != nil { // at once: a crash must not forget a liar
		pl.log.Error("peers file", "err", err)
	}
}

// suspectPeer disconnects p without a ban and keeps it out for this run:
// it took part in a conflict nothing could settle.
func (pl *pool) suspectPeer(p *peer, why error) {
	pl.suspect[p.addr] = why
	pl.log.Warn("peer disconnected, conflict undecided", "peer", p.addr, "why", why)
	pl.drop(p, why)
}

// alive drops the peers whose connection ended and returns whether p is
// still connected.
func (pl *pool) alive(p *peer) bool {
	select {
	case <-p.s.Done():
		pl.drop(p, p.s.Err())
		return false
	default:
		return slices.Contains(pl.peers, p)
	}
}

// serving returns the connected peers that have the block at height h,
// best scores first.
func (pl *pool) serving(c *spv.Chain, h int32) []*peer {
	var out []*peer
	for _, p := range pl.peers {
		if p.best(c) >= h {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *peer) int { return cmp.Compare(pl.scores[b.addr], pl.scores[a.addr]) })
	return out
}

// served returns the highest height that at least n connected peers have,
// -1 if fewer than n are connected.
func (pl *pool) served(c *spv.Chain, n int) int32 {
	if len(pl.peers) < n || n <= 0 {
		return -1
	}
	hs := make([]int32, len(pl.peers))
	for i, p := range pl.peers {
		hs[i] = p.best(c)
	}
	slices.Sort(hs)
	return hs[len(hs)-n]
}

// snapshot refreshes what Client.Peers returns.
func (pl *pool) snapshot() {
	infos := make([]PeerInfo, len(pl.peers))
	for i, p := range pl.peers {
		infos[i] = pl.info(p)
	}
	pl.mu.Lock()
	pl.infos = infos
	pl.mu.Unlock()
}

// info describes p now.
func (pl *pool) info(p *peer) PeerInfo {
	info := PeerInfo{Addr: p.addr, Services: p.s.Services(), UserAgent: untrusted.Text(p.s.UserAgent()), StartHeight: p.start, Best: p.start,
		Score: pl.scores[p.addr], Traffic: p.s.Traffic()}
	if pl.chain != nil {
		info.Best = p.best(pl.chain)
	}
	return info
}

// closeAll disconnects every peer.
func (pl *pool) closeAll() {
	for len(pl.peers) > 0 {
		pl.drop(pl.peers[0], ErrStopped)
	}
}

// totalTraffic sums the traffic of every session, open or closed.
func (pl *pool) totalTraffic() spv.Traffic {
	pl.mu.Lock()
	t := addTraffic(spv.Traffic{}, pl.traffic)
	pl.mu.Unlock()
	for _, p := range pl.peers {
		t = addTraffic(t, p.s.Traffic())
	}
	return t
}

// addTraffic returns a + b.
func addTraffic(a, b spv.Traffic) spv.Traffic {
	a.BytesSent += b.BytesSent
	a.BytesReceived += b.BytesReceived
	a.RoundTrips += b.RoundTrips
	a.Sent, a.Received = addCounts(a.Sent, b.Sent), addCounts(a.Received, b.Received)
	return a
}

func addCounts(a, b map[string]spv.Count) map[string]spv.Count {
	out := make(map[string]spv.Count, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		c := out[k]
		out[k] = spv.Count{Messages: c.Messages + v.Messages, Bytes: c.Bytes + v.Bytes}
	}
	return out
}
