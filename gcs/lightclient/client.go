package lightclient

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// ErrStopped is returned by calls made after the client stopped.
var ErrStopped = errors.New("lightclient: client stopped")

// Client is a long-lived light client for one wallet; see the package
// doc. Its methods are safe for concurrent use.
type Client struct {
	cfg        Config
	walletFile string     // the wallet's state in the store
	keep       bool       // a store on disk keeps the wallet's state
	events     chan Event // the consumer's: unbuffered (deliver.go)
	queue      chan item  // events and states to keep, for deliver
	cmds       chan command
	wake       chan struct{} // a rescan was queued
	taken      chan struct{} // deliver took a state off the queue
	done       chan struct{} // closed once the client has stopped
	cancel     context.CancelFunc
	err        error        // why the engine ended; read after done
	markers    atomic.Int32 // states on the queue

	mu      sync.Mutex // guards what follows
	wallet  *wallet.Wallet
	jobs    []job
	running []job // the rescans being run
	stats   Stats
	started bool
	stopped bool
	tip     wallet.Block  // the last block reported
	resumed *wallet.Block // the last block the kept state had reported, if there was one
	keepErr error         // a failed commit

	// The engine goroutine's own.
	chain    *spv.Chain
	pool     *pool
	reported []block         // Connected blocks, ascending, at most a window
	pending  []block         // scanned but not reported yet (Confirmations)
	scanned  int32           // the last height scanned
	coins    []wire.OutPoint // given (Config.Coins, and kept), so that their spends are found
	tweak    uint32          // of every BIP37 filter
	capacity uint32          // the BIP37 filters' least capacity; written under mu
	synced   bool            // the first header sync is done
	emitted  int             // Connected and Disconnected events sent
	lastKept [32]byte        // the hash of the last state queued
	unsaved  bool            // a save was skipped
}

// Stats are what a client measured so far.
type Stats struct {
	// Scan sums the measurements of every scan the client ran (ranges,
	// new blocks and rescans); its Traffic is that of every session the
	// client opened, handshakes and header syncs included.
	spv.Stats
	Peers   int // connected now
	Bans    int // bans in force
	Reorgs  int // reorganisations that disconnected reported blocks
	Rescans int // rescans run for scripts the wallet added
	// Scans counts the scans run: each step of up to 1,000 blocks, each
	// new block, each rescan, and each attempt again after a peer failed.
	// In BIP37 mode each loads a filter first.
	Scans int
	// Refreshes counts BIP37 filters loaded within a scan because the
	// last one came due (FilterLoads less the scans' first loads).
	Refreshes int
}

// block is a block the client scanned, with the wallet transactions it
// found in it.
type block struct {
	height int32
	hash   chainhash.Hash
	txs    []spv.Tx
}

// job is a rescan: the heights from on, for scripts (all when nil).
type job struct {
	from    int32
	scripts []wallet.Derived
}

// command is a request the engine runs between its steps.
type command struct {
	ctx   context.Context
	tx    *wire.MsgTx
	reply chan broadcastResult
}

type broadcastResult struct {
	relays []spv.Relay
	err    error
}

// New returns a client for cfg, which it validates; it does no network
// work until [Client.Start].
func New(cfg Config) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	w, err := wallet.Empty(cfg.Gap)
	if err != nil {
		return nil, err
	}
	if _, err := w.Scripts.Add(wallet.Sources(cfg.Descriptors...)...); err != nil {
		return nil, err
	}
	for _, a := range cfg.Addresses {
		if _, err := w.Scripts.Add(wallet.Address(a)); err != nil {
			return nil, err
		}
	}
	c := &Client{cfg: cfg, walletFile: walletName(&cfg), keep: cfg.Store != "", events: make(chan Event), queue: make(chan item, cfg.Events),
		cmds: make(chan command), wake: make(chan struct{}, 1), taken: make(chan struct{}, 1), done: make(chan struct{}),
		wallet: w, scanned: cfg.Birthday - 1, coins: slices.Clone(cfg.Coins), tweak: cfg.Tweak, capacity: cfg.Capacity}
	for c.tweak == 0 {
		var b [4]byte
		rand.Read(b[:])
		c.tweak = binary.LittleEndian.Uint32(b[:])
	}
	return c, nil
}

// Start opens the store and starts the client: it takes up the wallet's
// state the store keeps (see the package doc), connects to peers, syncs
// headers, scans from where the kept state ends (the birthday for a new
// wallet) and reports what it finds on [Client.Events]; with Follow it
// then stays at the tip. It returns at once; an error here is the
// store's (locked by another process, of another network, a kept file
// that does not decode or does not fit Config). The client runs until
// ctx ends, [Client.Stop], a failure it cannot get past (no peers, a
// wallet error, a state it cannot keep), or, without Follow, the end of
// the range.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.started {
		c.mu.Unlock()
		return errors.New("lightclient: Start called twice")
	}
	c.started = true
	c.mu.Unlock()
	st := store.Memory()
	if c.cfg.Store != "" {
		var err error
		if st, err = store.Open(c.cfg.Store); err != nil {
			return err
		}
	}
	chain, err := spv.OpenChain(spv.ChainConfig{Network: c.cfg.Network, Store: st, Anchor: c.cfg.Anchor, Birthday: c.cfg.Birthday})
	if err != nil {
		return err
	}
	c.chain, c.pool = chain, newPool(&c.cfg, chain)
	if c.keep {
		c.pool.st = st
		if err := c.resume(st); err != nil {
			chain.Close()
			return err
		}
	}
	ctx, c.cancel = context.WithCancel(ctx)
	delivered := make(chan struct{})
	go func() {
		c.deliver(ctx)
		close(delivered)
	}()
	go func() {
		err := c.run(ctx)
		c.pool.closeAll()
		if err == nil || ctx.Err() != nil {
			// The last state, kept once the consumer took every event
			// before it: deliver is draining the queue, so this cannot
			// block for good.
			err = errors.Join(err, c.save(context.Background(), true))
		}
		close(c.queue)
		<-delivered
		err = errors.Join(err, c.pool.savePeers(), c.keepFailed(), c.chain.Close())
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			err = nil // stopped
		}
		c.err = err
		c.mu.Lock()
		c.stopped = true
		c.mu.Unlock()
		close(c.done)
		close(c.events) // once Err says why, and the store is closed
	}()
	return nil
}

// Resumed returns the last block the kept wallet's state had reported
// when Start took it up (Birthday-1 and a zero hash if none), and true;
// false for a wallet new to the store. A restart reports the blocks after
// it: again those the crash window holds (see the package doc), then the
// new ones.
func (c *Client) Resumed() (wallet.Block, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resumed == nil {
		return wallet.Block{}, false
	}
	return *c.resumed, true
}

// Events returns the stream of connected and disconnected blocks. It is
// closed when the client stops; [Client.Err] then says why. Up to
// Config.Events events wait for the consumer: while they do the client
// waits, doing no network work (peers may drop it after their own
// timeouts, and it reconnects), so a consumer that falls behind slows the
// client down and loses nothing. Read it in one loop until it is closed:
// an event counts as handled once the next is taken (see the package
// doc), which is when the wallet's state that covers it is kept.
func (c *Client) Events() <-chan Event { return c.events }

// Stop stops the client, closes its peers and its store, and returns why
// it had stopped on its own, if it had (nil after a clean end). The
// stream closes; events the consumer had not taken are dropped, and a
// restart on the store reports them again.
func (c *Client) Stop() error {
	if c.cancel == nil {
		return ErrStopped
	}
	c.cancel()
	<-c.done
	return c.err
}

// Done returns a channel closed once the client has stopped.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why the client stopped (nil after a clean end or Stop), or
// nil while it runs.
func (c *Client) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// AddDescriptors watches descs (each path a chain with the gap limit) and
// rescans their scripts from height from: what it finds comes as
// Connected events with Rescan set, or with the block if it is not
// reported yet. Before Start, the first scan covers them.
func (c *Client) AddDescriptors(from int32, descs ...*descriptor.Descriptor) error {
	return c.add(from, wallet.Sources(descs...))
}

// AddAddresses watches addrs and rescans them from height from, like
// [Client.AddDescriptors].
func (c *Client) AddAddresses(from int32, addrs ...address.Address) error {
	srcs := make([]wallet.Source, len(addrs))
	for i, a := range addrs {
		srcs[i] = wallet.Address(a)
	}
	return c.add(from, srcs)
}

func (c *Client) add(from int32, srcs []wallet.Source) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return ErrStopped
	}
	added, err := c.wallet.Scripts.Add(srcs...)
	if err != nil {
		return err
	}
	if c.started && len(added) > 0 {
		c.queueJob(job{from, added})
	}
	return nil
}

// Rescan scans every watched script again from height from, for
// transactions the wallet does not hold yet.
func (c *Client) Rescan(from int32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return ErrStopped
	}
	if c.started {
		c.queueJob(job{from, nil})
	}
	return nil
}

// queueJob adds a rescan and wakes the engine; the caller holds c.mu.
func (c *Client) queueJob(j job) {
	c.jobs = append(c.jobs, j)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Broadcast relays tx to every connected peer (spv.Broadcast) and
// returns their answers; once a peer asked for it without rejecting it,
// the wallet records it as unconfirmed if it pays or spends the wallet.
// The engine runs it between its steps, so it may wait for a scan step.
func (c *Client) Broadcast(ctx context.Context, tx *wire.MsgTx) ([]spv.Relay, error) {
	reply := make(chan broadcastResult, 1)
	select {
	case c.cmds <- command{ctx, tx, reply}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, ErrStopped
	}
	select {
	case r := <-reply:
		return r.relays, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, ErrStopped
	}
}

// Balance returns the wallet's balance at the tip the ledger follows
// (wallet.Ledger.Balance), counting coins minConf deep as confirmed.
func (c *Client) Balance(minConf int32) wallet.Balance {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wallet.Ledger.Balance(minConf)
}

// Unspent returns the wallet's coins (wallet.Ledger.Unspent).
func (c *Client) Unspent() []wallet.Coin {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wallet.Ledger.Unspent()
}

// Transactions returns the wallet's transactions (wallet.Ledger.Txs).
func (c *Client) Transactions() []*wallet.Tx {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wallet.Ledger.Txs()
}

// Watched returns the scripts the wallet watches, with where each comes
// from (wallet.Scripts.Watched).
func (c *Client) Watched() []wallet.Derived {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]wallet.Derived(nil), c.wallet.Scripts.Watched()...)
}

// NextAddress returns the address to hand out next on chain (the index in
// the order of Config.Descriptors' paths, then AddDescriptors').
func (c *Client) NextAddress(chain int) (wallet.Derived, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wallet.Scripts.Next(chain)
}

// LedgerTip returns the height of the highest block the wallet's ledger
// holds: the client scanned to it, and [Client.Balance] counts depth from
// it. It is above [Client.Tip] by the blocks still short of their
// Confirmations; Birthday-1 before the first block.
func (c *Client) LedgerTip() int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return max(c.wallet.Ledger.Tip(), c.cfg.Birthday-1)
}

// Tip returns the last block reported: its height (Birthday-1 before
// any) and hash.
func (c *Client) Tip() wallet.Block {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tip.Hash == (chainhash.Hash{}) {
		return wallet.Block{Height: c.cfg.Birthday - 1}
	}
	return c.tip
}

// Peers returns the connected peers.
func (c *Client) Peers() []PeerInfo {
	if c.pool == nil {
		return nil
	}
	c.pool.mu.Lock()
	defer c.pool.mu.Unlock()
	return append([]PeerInfo(nil), c.pool.infos...)
}

// PeersUsed returns every peer the client connected to in this run: the
// disconnected ones first, in the order they left, each with its
// session's whole traffic and why it was dropped, then the connected
// ones. After the client stopped it holds them all.
func (c *Client) PeersUsed() []PeerInfo {
	if c.pool == nil {
		return nil
	}
	c.pool.mu.Lock()
	defer c.pool.mu.Unlock()
	return append(slices.Clone(c.pool.closed), c.pool.infos...)
}

// Bans returns the bans in force: who was proven to lie, and how.
func (c *Client) Bans() []Ban {
	if c.pool == nil {
		return nil
	}
	c.pool.mu.Lock()
	defer c.pool.mu.Unlock()
	var out []Ban
	for _, b := range c.pool.bans {
		out = append(out, b)
	}
	return out
}

// Stats returns what the client measured so far. In BIP37 mode
// FilterTweak and FilterCapacity are those of the client's filters (kept
// with the wallet), loaded or not.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	st := c.stats
	if c.cfg.Mode == BIP37 {
		st.FilterTweak, st.FilterCapacity = c.tweak, max(st.FilterCapacity, c.capacity)
	}
	c.mu.Unlock()
	if c.pool != nil {
		c.pool.mu.Lock()
		st.Traffic = addTraffic(spv.Traffic{}, c.pool.traffic)
		for _, p := range c.pool.infos {
			st.Traffic = addTraffic(st.Traffic, p.Traffic)
		}
		st.Peers, st.Bans = len(c.pool.infos), len(c.pool.bans)
		c.pool.mu.Unlock()
	}
	return st
}

// addStats adds one scan's measurements.
func (c *Client) addStats(s spv.Stats) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &c.stats
	t.Scans++
	t.Refreshes += max(s.FilterLoads-1, 0)
	t.Mode = s.Mode
	t.Blocks += s.Blocks
	t.WalletTxs += s.WalletTxs
	t.FalsePositives += s.FalsePositives
	t.FilterHeaders += s.FilterHeaders
	t.FilterHeadersDropped += s.FilterHeadersDropped
	t.Filters += s.Filters
	t.BlocksFetched += s.BlocksFetched
	t.MerkleBlocks += s.MerkleBlocks
	t.TxsReceived += s.TxsReceived
	t.Unfiltered += s.Unfiltered
	t.FilterLoads += s.FilterLoads
	t.Refetched += s.Refetched
	t.RefetchedTxs += s.RefetchedTxs
	t.Transactions += s.Transactions
	t.FilterPeakRate = max(t.FilterPeakRate, s.FilterPeakRate)
	if others := t.Transactions - t.WalletTxs; others > 0 && t.Mode == "bip37" {
		t.ObservedFPRate = float64(t.FalsePositives) / float64(others)
	}
	if s.FilterSize > 0 { // the last filter's
		t.FilterSize, t.FilterFill, t.FilterRate = s.FilterSize, s.FilterFill, s.FilterRate
		t.FilterTweak, t.FilterCapacity = s.FilterTweak, s.FilterCapacity
	}
	t.Headers = s.Headers
	t.Duration += s.Duration
}

func (c *Client) String() string {
	return fmt.Sprintf("lightclient(%s, %v)", c.cfg.Network.Name(), c.cfg.Mode)
}
