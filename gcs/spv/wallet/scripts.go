package wallet

import (
	"errors"
	"fmt"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/btcutil/v2/hdkeychain"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
)

// DefaultGap is BIP44's gap limit: a wallet stops looking after 20 unused
// addresses in a row. (BDK looks 25 ahead, Bitcoin Core's keypool 1000.)
const DefaultGap = 20

// MaxGap bounds the gap limit: each watched script costs a BIP32
// derivation and a few hundred bytes.
const MaxGap = 100_000

// maxIndex is one past the last unhardened child index.
const maxIndex = hdkeychain.HardenedKeyStart

// Source is a chain of addresses: a single-path descriptor
// (*descriptor.Descriptor), ranged or not.
type Source interface {
	// Address returns the address at child index i; an error wrapping
	// hdkeychain.ErrInvalidChild means BIP32 skips the index.
	Address(i uint32) (address.Address, error)
	Ranged() bool
	String() string
}

// Derived is one watched output script and where it comes from.
type Derived struct {
	Chain   int    // the chain's index in [Scripts.Chains]
	Index   uint32 // child index; 0 for a chain that is not ranged
	Script  []byte // output script (scriptPubKey)
	Address address.Address
}

type chain struct {
	src  Source
	end  uint32 // indexes [0, end) are derived
	used int64  // highest index a transaction paid, -1 before any
}

// Scripts is the set of output scripts a wallet watches: every script of
// its chains that are not ranged, and indexes 0 to maxUsed+gap of each
// ranged chain. A script two chains share is watched once, for the first.
type Scripts struct {
	gap    uint32
	chains []*chain
	owner  map[string]Derived
	order  []Derived
}

// NewScripts returns the watch list of descs with gap limit gap (1 to
// [MaxGap]). Multipath descriptors count as one chain per path, in order:
// for /<0;1>/*, receiving then change.
func NewScripts(gap uint32, descs ...*descriptor.Descriptor) (*Scripts, error) {
	if len(descs) == 0 {
		return nil, errors.New("wallet: no descriptors")
	}
	return newScripts(gap, Sources(descs...))
}

// Sources returns the chains of descs: one per path of each, in order.
func Sources(descs ...*descriptor.Descriptor) []Source {
	var srcs []Source
	for _, d := range descs {
		for _, e := range d.Expand() {
			srcs = append(srcs, e)
		}
	}
	return srcs
}

func newScripts(gap uint32, srcs []Source) (*Scripts, error) {
	if gap == 0 || gap > MaxGap {
		return nil, fmt.Errorf("wallet: gap limit %d is outside 1 to %d", gap, MaxGap)
	}
	s := &Scripts{gap: gap, owner: make(map[string]Derived)}
	if _, err := s.Add(srcs...); err != nil {
		return nil, err
	}
	return s, nil
}

// Add watches more chains, after those it has, and returns the scripts
// they add: the scan must match them from the wallet's birthday.
func (s *Scripts) Add(srcs ...Source) ([]Derived, error) {
	var added []Derived
	for _, src := range srcs {
		s.chains = append(s.chains, &chain{src: src, used: -1})
		more, err := s.extend(len(s.chains) - 1)
		added = append(added, more...)
		if err != nil {
			return added, err
		}
	}
	return added, nil
}

// Chains returns the chains in order.
func (s *Scripts) Chains() []Source {
	out := make([]Source, len(s.chains))
	for i, c := range s.chains {
		out[i] = c.src
	}
	return out
}

// Watched returns every watched script, in the order they were derived.
func (s *Scripts) Watched() []Derived { return s.order }

// Lookup returns the watched script equal to script.
func (s *Scripts) Lookup(script []byte) (Derived, bool) {
	d, ok := s.owner[string(script)]
	return d, ok
}

// Owns reports whether script is watched.
func (s *Scripts) Owns(script []byte) bool {
	_, ok := s.owner[string(script)]
	return ok
}

// MaxUsed returns the highest index of chain a transaction paid, if any.
func (s *Scripts) MaxUsed(chain int) (uint32, bool) {
	u := s.chains[chain].used
	return uint32(max(u, 0)), u >= 0
}

// Use records that a transaction paid script. If that raises its chain's
// highest used index, the chain is extended to maxUsed+gap and the newly
// watched scripts are returned: the scan must match them from the
// wallet's birthday. An unwatched script is ignored.
func (s *Scripts) Use(script []byte) ([]Derived, error) {
	d, ok := s.owner[string(script)]
	if !ok {
		return nil, nil
	}
	return s.MarkUsed(d.Chain, d.Index)
}

// MarkUsed records that index of chain was paid (for a wallet restoring
// its state) and extends the chain like [Scripts.Use]: it derives every
// index up to index+gap. Indexes never shrink: a reorg that removes the
// payment leaves them watched.
func (s *Scripts) MarkUsed(chain int, index uint32) ([]Derived, error) {
	if chain < 0 || chain >= len(s.chains) {
		return nil, fmt.Errorf("wallet: chain %d of %d", chain, len(s.chains))
	}
	c := s.chains[chain]
	if !c.src.Ranged() || int64(index) <= c.used {
		return nil, nil
	}
	c.used = int64(index)
	return s.extend(chain)
}

// Next returns the first script of chain after its highest used index:
// the address to hand out next. It is always watched already.
func (s *Scripts) Next(chain int) (Derived, error) {
	if chain < 0 || chain >= len(s.chains) {
		return Derived{}, fmt.Errorf("wallet: chain %d of %d", chain, len(s.chains))
	}
	c := s.chains[chain]
	for i := c.used + 1; i < int64(c.end); i++ {
		if d, ok := s.at(chain, uint32(i)); ok {
			return d, nil
		}
	}
	return Derived{}, fmt.Errorf("wallet: chain %d (%s) has no unused index left", chain, c.src)
}

// at finds the derived script of chain at index.
func (s *Scripts) at(chain int, index uint32) (Derived, bool) {
	a, err := s.chains[chain].src.Address(index)
	if err != nil {
		return Derived{}, false
	}
	script, err := txscript.PayToAddrScript(a)
	if err != nil {
		return Derived{}, false
	}
	d, ok := s.owner[string(script)]
	return d, ok && d.Chain == chain
}

// extend derives chain up to maxUsed+gap (one script if not ranged) and
// returns the scripts added. An index whose BIP32 child is invalid is
// skipped, as BIP32 says.
func (s *Scripts) extend(chain int) ([]Derived, error) {
	c := s.chains[chain]
	end := uint32(1)
	if c.src.Ranged() {
		end = uint32(min(c.used+1+int64(s.gap), maxIndex))
	}
	var added []Derived
	for ; c.end < end; c.end++ {
		a, err := c.src.Address(c.end)
		if errors.Is(err, hdkeychain.ErrInvalidChild) {
			continue
		}
		if err != nil {
			return added, fmt.Errorf("wallet: %s index %d: %w", c.src, c.end, err)
		}
		script, err := txscript.PayToAddrScript(a)
		if err != nil {
			return added, fmt.Errorf("wallet: %s index %d: %w", c.src, c.end, err)
		}
		if _, dup := s.owner[string(script)]; dup {
			continue
		}
		d := Derived{Chain: chain, Index: c.end, Script: script, Address: a}
		s.owner[string(script)] = d
		s.order = append(s.order, d)
		added = append(added, d)
	}
	return added, nil
}
