package spv

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// DefaultWindow is how many of the latest headers a [Chain] keeps in memory
// when [ChainConfig.Window] is zero: two retarget periods, so the
// difficulty and median-time rules find their ancestors without a read.
// It also bounds how deep a reorganisation the chain follows.
const DefaultWindow = 2 * 2016

// maxSideBranches bounds the competing branches a chain keeps, each at
// most a window long.
const maxSideBranches = 8

// Chain is a block-header chain verified from its network's genesis block
// or from a published [Anchor]. [Chain.Connect] accepts a header only if it
// links to the header before it, its hash meets the target its bits claim,
// and its bits, timestamp and version are what the network's consensus
// rules require at its height, including the difficulty retargets and the
// network's checkpoints (btcd's blockchain.CheckBlockHeaderContext).
//
// The headers live in a [store.Store]; only the last [ChainConfig.Window]
// stay in memory, with their hashes, so memory does not grow with the
// chain. Competing branches stay in memory until one carries more work than
// the chain above its fork, which then reorganises. A Chain is not safe for
// concurrent use.
type Chain struct {
	net    *Network
	st     *store.Store
	id     store.Identity
	clock  blockchain.MedianTimeSource
	window int32
	every  time.Duration // see ChainConfig.CommitEvery

	recentLo int32  // height of recent[0]
	recent   []link // the last headers, up to the tip
	byHash   map[chainhash.Hash]int32
	side     []*branch

	pending *Anchor // an anchor whose headers are not fetched yet
}

// link is a header and its hash.
type link struct {
	header wire.BlockHeader
	hash   chainhash.Hash
}

// branch is a verified chain of headers that forks from the main chain
// after height fork and carries no more work than the main chain above it.
type branch struct {
	fork  int32
	links []link
}

// ChainConfig opens a [Chain].
type ChainConfig struct {
	Network *Network

	// Store keeps the headers; nil keeps them in memory for one run
	// (store.Memory). The chain takes it over: Close closes it.
	Store *store.Store

	// Anchor is where a new store's chain starts. Nil picks the network's
	// highest published anchor at or below Birthday ([Anchors]), or the
	// genesis block if there is none.
	Anchor *Anchor

	// Birthday is the first height the wallet may have transactions at:
	// the chain must hold it, so a store that starts above it is refused.
	Birthday int32

	// Window is how many recent headers stay in memory; zero means
	// [DefaultWindow]. Forks deeper than it are refused.
	Window int32

	// CommitEvery is how often a long download (SyncHeaders, cfscan's
	// filter headers) makes its progress durable; zero means once a
	// second, negative after every message. A commit costs three fsyncs.
	CommitEvery time.Duration
}

// NewChain returns a chain of n held in memory, from the genesis block. It
// fails if the genesis header in n's parameters does not hash to their
// genesis hash.
func NewChain(n *Network) (*Chain, error) { return OpenChain(ChainConfig{Network: n}) }

// OpenChain opens the chain in cfg.Store, or starts it there: from the
// genesis block, or from an anchor, whose headers [SyncHeaders] fetches
// from the first peer.
func OpenChain(cfg ChainConfig) (*Chain, error) {
	n := cfg.Network
	if n == nil {
		return nil, errors.New("spv: ChainConfig.Network is nil")
	}
	g := n.Params.GenesisBlock.Header
	if h := g.BlockHash(); h != *n.Params.GenesisHash {
		return nil, fmt.Errorf("spv: %s genesis header hashes to %s, want %s", n.Name(), h, n.Params.GenesisHash)
	}
	c := &Chain{net: n, st: cfg.Store, id: store.Identity{Net: n.Params.Net, Genesis: *n.Params.GenesisHash},
		clock: blockchain.NewMedianTime(), window: cfg.Window, every: cfg.CommitEvery, byHash: make(map[chainhash.Hash]int32)}
	if c.window <= 0 {
		c.window = DefaultWindow
	}
	if c.every == 0 {
		c.every = time.Second
	}
	if c.st == nil {
		c.st = store.Memory()
	}
	if err := c.open(cfg); err != nil {
		c.st.Close()
		return nil, err
	}
	return c, nil
}

func (c *Chain) open(cfg ChainConfig) error {
	if c.st.Empty() {
		a := cfg.Anchor
		if a == nil {
			a = AnchorFor(c.net, cfg.Birthday)
		}
		if a == nil {
			if err := c.st.Init(c.id, 0, 0, []wire.BlockHeader{c.net.Params.GenesisBlock.Header}); err != nil {
				return err
			}
			return c.load()
		}
		if err := c.checkAnchor(a, cfg.Birthday); err != nil {
			return err
		}
		c.pending = a
		return nil
	}
	st := c.st.State()
	switch {
	case st.Identity != c.id:
		return fmt.Errorf("spv: store %s holds the chain of network magic %v, genesis %s, not %s", c.st, st.Net, st.Genesis, c.net.Name())
	case cfg.Birthday < st.Base:
		return fmt.Errorf("spv: store %s starts at height %d, above the birthday %d: use another store", c.st, st.Base, cfg.Birthday)
	}
	if err := c.load(); err != nil {
		return err
	}
	if a := cfg.Anchor; a != nil {
		if h, err := c.Hash(a.Height); err != nil || h != a.Hash {
			return fmt.Errorf("spv: store %s does not hold the anchor %d %s (it holds %d to %d)", c.st, a.Height, a.Hash, st.Base, st.Tip)
		}
	}
	return nil
}

// load reads the window of recent headers from the store.
func (c *Chain) load() error {
	st := c.st.State()
	lo := max(st.Base, st.Tip-c.window+1)
	hs, err := c.st.Headers(nil, lo, st.Tip)
	if err != nil {
		return err
	}
	c.recentLo, c.recent = lo, c.recent[:0]
	clear(c.byHash)
	for i := range hs {
		c.push(link{hs[i], hs[i].BlockHash()})
	}
	return nil
}

// push adds l after the tip to the recent headers, dropping the oldest
// once they pass twice the window.
func (c *Chain) push(l link) {
	c.recent = append(c.recent, l)
	c.byHash[l.hash] = c.recentLo + int32(len(c.recent)) - 1
	if int32(len(c.recent)) > 2*c.window {
		drop := int32(len(c.recent)) - c.window
		for _, old := range c.recent[:drop] {
			delete(c.byHash, old.hash)
		}
		c.recent = append(c.recent[:0], c.recent[drop:]...)
		c.recentLo += drop
	}
}

// Network returns the network the chain follows.
func (c *Chain) Network() *Network { return c.net }

// Store returns the store the chain keeps its headers in, which also keeps
// the BIP157 filter headers (package gcs/cfscan).
func (c *Chain) Store() *store.Store { return c.st }

// Height returns the tip's height.
func (c *Chain) Height() int32 {
	if c.pending != nil {
		return c.pending.Height
	}
	return c.st.State().Tip
}

// Base returns the height of the first header the chain holds: 0 for a
// chain from genesis, some blocks below the anchor otherwise.
func (c *Chain) Base() int32 {
	if c.pending != nil {
		return c.pending.Height
	}
	return c.st.State().Base
}

// Anchor returns the height and hash of the block the chain was trusted
// from: the genesis block or a published anchor.
func (c *Chain) Anchor() (int32, chainhash.Hash) {
	if c.pending != nil {
		return c.pending.Height, c.pending.Hash
	}
	st := c.st.State()
	return st.Anchor, st.AnchorHash
}

// Tip returns the hash of the last header.
func (c *Chain) Tip() chainhash.Hash {
	if c.pending != nil {
		return c.pending.Hash
	}
	return c.st.State().TipHash
}

// Hash returns the hash of the block at height, which must be in
// [Base(), Height()].
func (c *Chain) Hash(height int32) (chainhash.Hash, error) {
	if l, ok := c.recentAt(height); ok {
		return l.hash, nil
	}
	if c.pending != nil {
		if height == c.pending.Height {
			return c.pending.Hash, nil
		}
		return chainhash.Hash{}, fmt.Errorf("spv: the chain holds only its anchor %d until a peer serves its headers", c.pending.Height)
	}
	_, hash, err := c.st.Header(height)
	return hash, err
}

// Header returns the header at height, which must be in [Base(), Height()].
func (c *Chain) Header(height int32) (wire.BlockHeader, error) {
	if l, ok := c.recentAt(height); ok {
		return l.header, nil
	}
	if c.pending != nil {
		return wire.BlockHeader{}, fmt.Errorf("spv: the chain has no headers until a peer serves its anchor's")
	}
	h, _, err := c.st.Header(height)
	return h, err
}

// Hashes appends to dst the hashes of the blocks at heights lo to hi.
func (c *Chain) Hashes(dst []chainhash.Hash, lo, hi int32) ([]chainhash.Hash, error) {
	if lo >= c.recentLo && c.pending == nil {
		for h := lo; h <= hi; h++ {
			l, ok := c.recentAt(h)
			if !ok {
				return dst, fmt.Errorf("spv: height %d outside the chain %d to %d", h, c.Base(), c.Height())
			}
			dst = append(dst, l.hash)
		}
		return dst, nil
	}
	return c.st.Hashes(dst, lo, hi)
}

// HeightOf returns the height of the block with hash on the chain, if it
// is among the last headers the chain keeps in memory (at least
// [ChainConfig.Window]).
func (c *Chain) HeightOf(hash chainhash.Hash) (int32, bool) {
	h, ok := c.byHash[hash]
	return h, ok
}

// Knows reports whether a header with hash follows a block [Chain.Connect]
// can verify it after: one of the chain's last headers, or of a competing
// branch it keeps.
func (c *Chain) Knows(hash chainhash.Hash) bool {
	if _, ok := c.byHash[hash]; ok {
		return true
	}
	for _, b := range c.side {
		for i := range b.links {
			if b.links[i].hash == hash && b.fork >= c.recentLo {
				return true
			}
		}
	}
	return false
}

func (c *Chain) recentAt(height int32) (link, bool) {
	i := height - c.recentLo
	if height < c.recentLo || i >= int32(len(c.recent)) {
		return link{}, false
	}
	return c.recent[i], true
}

// Commit makes the connected headers durable ([store.Store.Commit]).
// [SyncHeaders] commits as it goes; a caller of Connect commits when it
// wants.
func (c *Chain) Commit() error {
	if c.pending != nil {
		return nil
	}
	return c.st.Commit()
}

// CommitDue reports whether a download that last committed at last
// should commit now ([ChainConfig.CommitEvery]).
func (c *Chain) CommitDue(last time.Time) bool { return time.Since(last) >= c.every }

// Close commits and closes the store.
func (c *Chain) Close() error {
	return errors.Join(c.Commit(), c.st.Close())
}

// Locator returns a block locator for getheaders: the hashes of the last
// ten blocks, then of blocks exponentially further apart down to the
// chain's first header, then the genesis block.
func (c *Chain) Locator() ([]*chainhash.Hash, error) {
	if c.pending != nil {
		return []*chainhash.Hash{&c.pending.Hash}, nil
	}
	var loc []*chainhash.Hash
	step, base := int32(1), c.Base()
	for h := c.Height(); h > base; h -= step {
		hash, err := c.Hash(h)
		if err != nil {
			return nil, err
		}
		loc = append(loc, &hash)
		if len(loc) >= 10 {
			step *= 2
		}
	}
	first, err := c.Hash(base)
	if err != nil {
		return nil, err
	}
	loc = append(loc, &first)
	if base > 0 {
		loc = append(loc, c.net.Params.GenesisHash)
	}
	return loc, nil
}

// work returns the sum of the links' proof of work.
func work(links []link) *big.Int {
	sum := new(big.Int)
	for i := range links {
		sum.Add(sum, blockchain.CalcWork(links[i].header.Bits))
	}
	return sum
}
