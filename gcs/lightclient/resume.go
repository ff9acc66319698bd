package lightclient

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// encodeState returns the wallet's state as its file keeps it. The engine
// calls it between its steps.
func (c *Client) encodeState() ([]byte, error) {
	k := kept{birthday: c.cfg.Birthday, tweak: c.tweak, capacity: c.capacity, rescan: -1, coins: c.coins,
		blocks: append(slices.Clip(c.reported), c.pending...), reported: len(c.reported)}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, j := range append(slices.Clip(c.jobs), c.running...) {
		if k.rescan < 0 || j.from < k.rescan {
			k.rescan = max(j.from, c.cfg.Birthday)
		}
	}
	var err error
	if k.wallet, err = c.wallet.Snapshot(); err != nil {
		return nil, err
	}
	return k.encode(), nil
}

// resume reads what the store keeps: the bans and known addresses, and
// the wallet's state, which it then takes up with the wallet Config and
// the calls before Start added. A wallet new to the store starts empty.
func (c *Client) resume(st *store.Store) error {
	if err := c.loadPeers(st); err != nil {
		return err
	}
	b, err := st.ReadFile(c.walletFile, maxWalletFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	way := fmt.Sprintf("remove %s to scan the wallet again from its birthday", filepath.Join(st.String(), c.walletFile))
	if err != nil {
		return fmt.Errorf("lightclient: %w (%s)", err, way)
	}
	k, err := decodeKept(b)
	if err == nil {
		err = c.takeUp(k)
	}
	if err != nil {
		return fmt.Errorf("lightclient: %s: %w (%s)", filepath.Join(st.String(), c.walletFile), err, way)
	}
	return nil
}

// takeUp makes the kept state the client's.
func (c *Client) takeUp(k *kept) error {
	switch {
	case k.birthday != c.cfg.Birthday:
		return fmt.Errorf("the kept wallet was born at block %d, not %d", k.birthday, c.cfg.Birthday)
	case k.wallet.Gap != c.cfg.Gap:
		return fmt.Errorf("the kept wallet has gap limit %d, not %d", k.wallet.Gap, c.cfg.Gap)
	case c.cfg.To > 0 && k.scanned() > c.cfg.To:
		return fmt.Errorf("the kept wallet has scanned to block %d, past the end of the range %d, and its ledger cannot go back", k.scanned(), c.cfg.To)
	}
	w, err := wallet.Restore(k.wallet, c.cfg.Network.Params)
	if err != nil {
		return err
	}
	if err := outputAddresses(k.blocks, w.Scripts); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Chains the kept wallet lacks: those of Config and the calls before
	// Start (a wallet grows under a name it was given).
	var have []string
	for _, s := range w.Scripts.Chains() {
		have = append(have, s.String())
	}
	var more []wallet.Source
	for _, s := range c.wallet.Scripts.Chains() {
		if !slices.Contains(have, s.String()) {
			more = append(more, s)
		}
	}
	added, err := w.Scripts.Add(more...)
	if err != nil {
		return err
	}
	if len(added) > 0 {
		c.jobs = append(c.jobs, job{c.cfg.Birthday, added})
	}
	coins := k.coins
	for _, op := range c.coins {
		if !slices.Contains(coins, op) {
			coins = append(coins, op)
			c.jobs = append(c.jobs, job{c.cfg.Birthday, nil}) // its spend may be anywhere from the birthday
		}
	}
	if k.rescan >= 0 {
		c.jobs = append(c.jobs, job{k.rescan, nil})
	}
	c.wallet, c.coins = w, coins
	c.reported, c.pending = k.blocks[:k.reported], k.blocks[k.reported:]
	c.scanned = k.scanned()
	if k.reported > 0 {
		last := c.reported[len(c.reported)-1]
		c.tip = wallet.Block{Height: last.height, Hash: last.hash}
	}
	resumed := wallet.Block{Height: c.cfg.Birthday - 1}
	if k.reported > 0 {
		resumed = c.tip
	}
	c.resumed = &resumed
	if c.cfg.Tweak == 0 && k.tweak != 0 {
		c.tweak = k.tweak
	}
	c.capacity = max(c.capacity, k.capacity)
	return nil
}

// loadPeers reads the peers file: the bans still in force and the
// addresses known.
func (c *Client) loadPeers(st *store.Store) error {
	b, err := st.ReadFile(peersFile, maxPeersFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var p *peersKept
	if err == nil {
		p, err = decodePeers(b)
	}
	if err != nil {
		return fmt.Errorf("lightclient: %s: %w (remove it to forget the bans and peer addresses it keeps)", filepath.Join(st.String(), peersFile), err)
	}
	pl := c.pool
	now := time.Now()
	pl.mu.Lock()
	for _, b := range p.bans {
		if now.Before(b.Until) {
			pl.bans[b.Key] = b
		}
	}
	pl.mu.Unlock()
	pl.known = p.known
	for a, k := range p.known {
		pl.scores[a] = k.score
	}
	if len(c.cfg.Peers) == 0 {
		pl.cands = bestKnown(pl.known)
	}
	return nil
}

// savePeers writes the peers file if the bans or known addresses changed.
func (pl *pool) savePeers() error {
	if pl.st == nil || !pl.changed {
		return nil
	}
	p := peersKept{known: make(map[string]knownAddr, len(pl.known))}
	for a, k := range pl.known {
		k.score = pl.scores[a]
		p.known[a] = k
	}
	pl.mu.Lock()
	for _, b := range pl.bans {
		p.bans = append(p.bans, b)
	}
	pl.mu.Unlock()
	slices.SortFunc(p.bans, func(a, b Ban) int { return a.Since.Compare(b.Since) })
	if err := pl.st.PutFile(peersFile, p.encode()); err != nil {
		return fmt.Errorf("lightclient: keeping the bans and peer addresses: %w", err)
	}
	pl.changed = false
	return nil
}

// learn records addresses the DNS seeds gave.
func (pl *pool) learn(addrs []string) {
	for _, a := range addrs {
		if _, ok := pl.known[a]; !ok {
			pl.known[a] = knownAddr{}
			pl.changed = true
		}
	}
}

// good records that p synced its headers: an address worth trying first
// next time, if it came from the seeds.
func (pl *pool) good(p *peer) {
	if k, ok := pl.known[p.addr]; ok {
		k.good = time.Now()
		pl.known[p.addr] = k
		pl.changed = true
	}
}
