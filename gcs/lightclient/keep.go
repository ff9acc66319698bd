package lightclient

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// What the client keeps in its store directory (store.Store.PutFile:
// checksummed, replaced atomically, under the store's lock):
//
//	wallet-NAME  a wallet's state (kept): its descriptors and addresses
//	             with their used indexes, its ledger, the blocks the
//	             client reported (the last spv.DefaultWindow of them, with
//	             their wallet transactions) and those it scanned but has
//	             not reported yet, the coins given, a rescan owed, and the
//	             BIP37 filter's tweak and capacity
//	peers        the bans in force and the addresses learnt from the DNS
//	             seeds, shared by every wallet of the store
const (
	walletPrefix = "wallet-"
	peersFile    = "peers"

	walletMagic = "CSLW"
	peersMagic  = "CSLP"
	keepVersion = 1

	// maxWalletFile and maxPeersFile bound what the client reads: a
	// wallet of a million transactions, a thousand addresses and bans.
	maxWalletFile = 512 << 20
	maxPeersFile  = 16 << 20
	// maxText bounds a kept string: a descriptor, an address, a ban's
	// reason (clipped to it when kept).
	maxText = 4096
	// maxKnown bounds the addresses kept.
	maxKnown = 1000
)

// kept is a wallet's state as its file holds it.
type kept struct {
	birthday        int32
	tweak, capacity uint32
	rescan          int32 // a rescan of every script from this height is owed; -1 if none
	coins           []wire.OutPoint
	blocks          []block // the reported blocks, then the pending ones: consecutive heights
	reported        int     // how many of blocks were reported
	wallet          wallet.Snapshot
}

// scanned returns the last height the kept state scanned.
func (k *kept) scanned() int32 {
	if len(k.blocks) == 0 {
		return k.birthday - 1
	}
	return k.blocks[len(k.blocks)-1].height
}

func (k *kept) encode() []byte {
	e := &encoder{b: append([]byte(walletMagic), keepVersion)}
	e.varint(int64(k.birthday))
	e.uvarint(uint64(k.tweak))
	e.uvarint(uint64(k.capacity))
	e.varint(int64(k.rescan))
	e.uvarint(uint64(len(k.coins)))
	for _, op := range k.coins {
		e.hash(op.Hash)
		e.uvarint(uint64(op.Index))
	}
	e.uvarint(uint64(len(k.blocks)))
	if len(k.blocks) > 0 {
		e.varint(int64(k.blocks[0].height))
		e.uvarint(uint64(k.reported))
	}
	for _, b := range k.blocks {
		e.hash(b.hash)
		e.uvarint(uint64(len(b.txs)))
		for _, tx := range b.txs {
			e.uvarint(uint64(tx.Position))
			e.tx(tx.Msg)
			e.uvarint(uint64(len(tx.Inputs)))
			for _, in := range tx.Inputs {
				e.uvarint(uint64(in.Index))
				e.hash(in.Spends.Hash)
				e.uvarint(uint64(in.Spends.Index))
			}
			e.uvarint(uint64(len(tx.Outputs)))
			for _, o := range tx.Outputs {
				e.uvarint(uint64(o.Index))
			}
		}
	}
	w := &k.wallet
	e.uvarint(uint64(w.Gap))
	e.uvarint(uint64(len(w.Chains)))
	for _, c := range w.Chains {
		e.string(c.Source)
		e.varint(c.Used)
	}
	e.varint(int64(w.Tip))
	e.uvarint(uint64(len(w.Txs)))
	for _, tx := range w.Txs {
		e.varint(int64(tx.Height))
		if tx.Height != wallet.Unconfirmed {
			e.hash(tx.Block)
		}
		e.tx(tx.Msg)
	}
	return e.b
}

// decodeKept reads a wallet file. The outputs of the blocks' transactions
// carry their index and value; their addresses are the wallet's to fill
// in (restore).
func decodeKept(b []byte) (*kept, error) {
	d := &decoder{b: b}
	d.magic(walletMagic, keepVersion)
	k := &kept{birthday: d.int32("birthday", 0, math.MaxInt32)}
	k.tweak, k.capacity = d.uint32("tweak"), d.uint32("capacity")
	k.rescan = d.int32("rescan height", -1, math.MaxInt32)
	k.coins = sized[wire.OutPoint](d.count("coins", 33))
	for i := range k.coins {
		k.coins[i] = wire.OutPoint{Hash: d.hash(), Index: d.uint32("coin index")}
	}
	k.blocks = sized[block](d.count("blocks", 33))
	if len(k.blocks) > 0 {
		first := d.int32("first block", k.birthday, math.MaxInt32-int32(len(k.blocks))+1)
		k.reported = int(d.uvarint("blocks reported", uint64(len(k.blocks))))
		for i := range k.blocks {
			k.blocks[i] = d.block(first + int32(i))
		}
	}
	w := &k.wallet
	w.Gap = uint32(d.uvarint("gap limit", wallet.MaxGap))
	w.Chains = sized[wallet.ChainState](d.count("chains", 2))
	for i := range w.Chains {
		w.Chains[i] = wallet.ChainState{Source: d.string("chain", maxText), Used: int64(d.int32("used index", -1, math.MaxInt32))}
	}
	w.Tip = d.int32("ledger tip", -1, math.MaxInt32)
	w.Txs = sized[wallet.TxState](d.count("ledger transactions", 2))
	for i := range w.Txs {
		t := &w.Txs[i]
		if t.Height = d.int32("transaction height", wallet.Unconfirmed, w.Tip); t.Height != wallet.Unconfirmed {
			t.Block = d.hash()
		}
		t.Msg = d.tx()
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	if w.Tip != k.scanned() && !(w.Tip == -1 && len(k.blocks) == 0) {
		return nil, fmt.Errorf("%w: the ledger's tip %d is not the last block scanned, %d", errFormat, w.Tip, k.scanned())
	}
	return k, nil
}

// block reads one block of a wallet file, at height h.
func (d *decoder) block(h int32) block {
	b := block{height: h, hash: d.hash()}
	b.txs = sized[spv.Tx](d.count("transactions", 4))
	for i := range b.txs {
		tx := &b.txs[i]
		tx.Position = d.uint32("position")
		tx.Msg = d.tx()
		if d.err != nil {
			return b
		}
		tx.ID, tx.Block, tx.Height = tx.Msg.TxHash(), b.hash, h
		tx.Inputs = sized[spv.Input](d.count("inputs", 34))
		for j := range tx.Inputs {
			in := spv.Input{Index: d.uint32("input index"), Spends: wire.OutPoint{Hash: d.hash(), Index: d.uint32("spent index")}}
			if d.err == nil && (in.Index >= uint32(len(tx.Msg.TxIn)) || tx.Msg.TxIn[in.Index].PreviousOutPoint != in.Spends) {
				d.fail("input %d of %v does not spend %v", in.Index, tx.ID, in.Spends)
			}
			tx.Inputs[j] = in
		}
		tx.Outputs = sized[spv.Output](d.count("outputs", 1))
		for j := range tx.Outputs {
			o := spv.Output{Index: d.uint32("output index")}
			if d.err == nil && o.Index >= uint32(len(tx.Msg.TxOut)) {
				d.fail("%v has no output %d", tx.ID, o.Index)
			}
			if d.err == nil {
				o.Value = tx.Msg.TxOut[o.Index].Value
			}
			tx.Outputs[j] = o
		}
	}
	return b
}

// sized returns a slice of n items, nil for none.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}

// knownAddr is an address learnt from the DNS seeds: its score (timeouts
// and failures lower it) and when it last served a header sync.
type knownAddr struct {
	score int
	good  time.Time
}

// peersKept is what the peers file holds.
type peersKept struct {
	bans  []Ban
	known map[string]knownAddr
}

func (p *peersKept) encode() []byte {
	e := &encoder{b: append([]byte(peersMagic), keepVersion)}
	e.uvarint(uint64(len(p.bans)))
	for _, b := range p.bans {
		e.string(clipText(b.Key))
		e.string(clipText(b.Peer))
		e.string(clipText(b.Reason))
		e.varint(b.Since.Unix())
		e.varint(b.Until.Unix())
	}
	addrs := bestKnown(p.known)
	e.uvarint(uint64(len(addrs)))
	for _, a := range addrs {
		k := p.known[a]
		e.string(a)
		e.varint(int64(k.score))
		var good int64
		if !k.good.IsZero() {
			good = k.good.Unix()
		}
		e.varint(good)
	}
	return e.b
}

func decodePeers(b []byte) (*peersKept, error) {
	d := &decoder{b: b}
	d.magic(peersMagic, keepVersion)
	p := &peersKept{bans: sized[Ban](d.count("bans", 5)), known: make(map[string]knownAddr)}
	for i := range p.bans {
		p.bans[i] = Ban{Key: d.string("ban key", maxText), Peer: d.string("banned peer", maxText), Reason: d.string("ban reason", maxText),
			Since: time.Unix(d.time("ban time"), 0), Until: time.Unix(d.time("ban end"), 0)}
	}
	for range d.count("addresses", 3) {
		a := d.string("address", maxText)
		k := knownAddr{score: int(d.int32("score", math.MinInt32, math.MaxInt32))}
		if t := d.time("last good"); t != 0 {
			k.good = time.Unix(t, 0)
		}
		p.known[a] = k
	}
	return p, d.end()
}

// time reads Unix seconds within 1970 to 9999.
func (d *decoder) time(what string) int64 { return d.varint(what, 0, 253402300799) }

// bestKnown returns up to maxKnown of the known addresses, those that
// served most recently and scored best first.
func bestKnown(known map[string]knownAddr) []string {
	addrs := make([]string, 0, len(known))
	for a := range known {
		addrs = append(addrs, a)
	}
	slices.SortFunc(addrs, func(a, b string) int {
		ka, kb := known[a], known[b]
		if c := kb.good.Compare(ka.good); c != 0 {
			return c
		}
		if ka.score != kb.score {
			return kb.score - ka.score
		}
		return strings.Compare(a, b)
	})
	return addrs[:min(len(addrs), maxKnown)]
}

// clipText cuts s to maxText bytes, on a rune boundary.
func clipText(s string) string {
	if len(s) <= maxText {
		return s
	}
	s = s[:maxText]
	for len(s) > 0 && !utf8.RuneStart(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// walletName returns the name of the file that keeps the wallet cfg
// describes: given (Config.Wallet), or derived from what the wallet
// watches, so that another wallet on the same store gets its own.
func walletName(cfg *Config) string {
	if cfg.Wallet != "" {
		return walletPrefix + cfg.Wallet
	}
	var parts []string
	for _, s := range wallet.Sources(cfg.Descriptors...) {
		parts = append(parts, s.String())
	}
	for _, a := range cfg.Addresses {
		parts = append(parts, wallet.Address(a).String())
	}
	for _, op := range cfg.Coins {
		parts = append(parts, "coin("+op.String()+")")
	}
	slices.Sort(parts)
	parts = slices.Compact(parts)
	parts = append(parts, "birthday "+strconv.Itoa(int(cfg.Birthday)), "gap "+strconv.Itoa(int(cfg.Gap)))
	sum := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	return walletPrefix + hex.EncodeToString(sum[:8])
}

// checkWalletName refuses a Config.Wallet that is not a plain name.
func checkWalletName(name string) error {
	if len(name) > 64 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
		return fmt.Errorf("lightclient: Config.Wallet %q: want up to 64 letters, digits, '-' and '_'", name)
	}
	return nil
}

// outputAddresses fills in the addresses of kept transactions' outputs
// from the wallet's scripts, which never shrink.
func outputAddresses(blocks []block, s *wallet.Scripts) error {
	for _, b := range blocks {
		for _, tx := range b.txs {
			for j, o := range tx.Outputs {
				d, ok := s.Lookup(tx.Msg.TxOut[o.Index].PkScript)
				if !ok {
					return fmt.Errorf("%w: output %v:%d is kept as the wallet's, but pays %s", errFormat, tx.ID, o.Index, scriptText(tx.Msg.TxOut[o.Index].PkScript))
				}
				tx.Outputs[j].Address = d.Address
			}
		}
	}
	return nil
}

func scriptText(script []byte) string {
	if s, err := txscript.DisasmString(script); err == nil && len(s) < 200 {
		return s
	}
	return fmt.Sprintf("a %d-byte script", len(script))
}
