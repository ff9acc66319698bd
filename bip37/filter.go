package bip37

import (
	"encoding/binary"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/core/bitset"
)

// Flags is a filter's nFlags byte: how a matching output updates the filter
// (BIP37 "nFlags"). Only the bits under [UpdateMask] have a meaning; the
// others are carried on the wire and ignored, as Core ignores them.
type Flags uint8

// The update modes.
const (
	UpdateNone         Flags = 0 // never insert outpoints
	UpdateAll          Flags = 1 // insert the outpoint of every matching output
	UpdateP2PubKeyOnly Flags = 2 // only for pay-to-pubkey and bare multisig outputs
	UpdateMask         Flags = 3 // the bits Core reads; 3 updates nothing
)

// seedStep separates the seeds of consecutive hash functions: function i
// uses seed i·0xFBA4C795 + tweak, wrapping at 2³².
const (
	seedStep  = 0xFBA4C795
	seedStep2 = 2 * seedStep % (1 << 32)
	seedStep4 = 4 * seedStep % (1 << 32)
)

// Filter is a BIP37 Bloom filter with Bitcoin Core's semantics: the filter a
// wallet loads into a peer with filterload, and the one a node applies to
// transactions and blocks on the peer's behalf.
//
// A filter without data bytes, or without hash functions, matches everything
// (Core's guard since CVE-2013-5700); inserting into it does nothing. [New]
// never builds one; [Load] and [Filter.UnmarshalBinary] accept one, since a
// peer may send it.
//
// A Filter is not safe for concurrent mutation; concurrent Contains calls are
// fine. Matching transactions ([Filter.MatchTx]) may insert outpoints, so it
// is a mutation.
type Filter struct {
	data      []byte
	hashFuncs uint32
	tweak     uint32
	flags     Flags
	mod       fastmod // reduces a hash onto the len(data)·8 bit positions
}

// New returns an empty filter sized by [Params] for elements at false-positive
// rate fpRate. The tweak varies the hash seeds (choose it at random per
// filter, so that peers cannot correlate a wallet's filters).
func New(elements uint32, fpRate float64, tweak uint32, flags Flags) (*Filter, error) {
	size, k, err := Params(elements, fpRate)
	if err != nil {
		return nil, err
	}
	return newFilter(make([]byte, size), k, tweak, flags), nil
}

// Load returns a filter with a copy of the given data and parameters, as a
// filterload message carries them. It returns an error beyond the limits
// Core enforces ([MaxFilterSize] bytes, [MaxHashFuncs] functions); empty data
// or zero hash functions are accepted and match everything.
func Load(data []byte, hashFuncs, tweak uint32, flags Flags) (*Filter, error) {
	if len(data) > MaxFilterSize {
		return nil, fmt.Errorf("bip37: filter of %d bytes exceeds %d", len(data), MaxFilterSize)
	}
	if hashFuncs > MaxHashFuncs {
		return nil, fmt.Errorf("bip37: %d hash functions exceed %d", hashFuncs, MaxHashFuncs)
	}
	return newFilter(append([]byte(nil), data...), hashFuncs, tweak, flags), nil
}

func newFilter(data []byte, hashFuncs, tweak uint32, flags Flags) *Filter {
	return &Filter{data: data, hashFuncs: hashFuncs, tweak: tweak, flags: flags,
		mod: newFastmod(uint32(len(data)) * 8)}
}

// Size returns the number of data bytes.
func (f *Filter) Size() int { return len(f.data) }

// HashFuncs returns the number of hash functions.
func (f *Filter) HashFuncs() uint32 { return f.hashFuncs }

// Tweak returns the seed offset.
func (f *Filter) Tweak() uint32 { return f.tweak }

// Flags returns the flags byte as loaded, reserved bits included.
func (f *Filter) Flags() Flags { return f.flags }

// MatchesAll reports whether the filter matches every element and every
// transaction: it has no data bytes or no hash functions.
func (f *Filter) MatchesAll() bool { return len(f.data) == 0 || f.hashFuncs == 0 }

// Clone returns an independent copy of f.
func (f *Filter) Clone() *Filter {
	g := *f
	g.data = append([]byte(nil), f.data...)
	return &g
}

// Reset clears every bit, keeping size, hash functions, tweak and flags (Core's
// CBloomFilter::clear; not the filterclear message, which drops the filter).
func (f *Filter) Reset() { clear(f.data) }

// Add inserts data. It does nothing on a filter that matches everything.
func (f *Filter) Add(data []byte) {
	if len(f.data) == 0 {
		return
	}
	switch {
	case len(data) <= shortElement:
		var buf [shortElement / 4]uint32
		p := premix(buf[:], data)
		f.addPremixed(&p)
	case len(data) <= maxPremixed:
		var buf [maxPremixed / 4]uint32
		p := premix(buf[:], data)
		f.addPremixed(&p)
	default:
		f.addLong(data)
	}
}

// addPremixed sets the bits of all hash functions, four at a time.
func (f *Filter) addPremixed(p *premixed) {
	seed, k := f.tweak, f.hashFuncs
	for ; k >= 4; k -= 4 {
		h0, h1, h2, h3 := p.hash4(seed)
		f.set(h0)
		f.set(h1)
		f.set(h2)
		f.set(h3)
		seed += seedStep4
	}
	for ; k > 0; k-- {
		f.set(p.hash(seed))
		seed += seedStep
	}
}

// set sets the bit that hash h selects.
func (f *Filter) set(h uint32) { bitset.LittleEndian(f.data).Set(uint(f.mod.reduce(h))) }

// addLong inserts an element beyond maxPremixed bytes.
func (f *Filter) addLong(data []byte) {
	seed := f.tweak
	for range f.hashFuncs {
		f.set(MurmurHash3(seed, data))
		seed += seedStep
	}
}

// Contains reports whether data may have been inserted: false means it
// certainly was not. A filter that matches everything contains everything.
func (f *Filter) Contains(data []byte) bool {
	if len(f.data) == 0 {
		return true
	}
	if f.hashFuncs < 2 || len(data) > maxPremixed {
		return f.containsLong(data)
	}
	h0, h1 := hash2(f.tweak, data)
	return f.bit(h0)&f.bit(h1) != 0 && f.containsRest(data)
}

// containsRest tests hash functions 2 to k-1 of an element of at most
// maxPremixed bytes that passed the first two. Half the non-members of a
// filter at its design fill fail each probe, so the first two probes are
// hashed without premixing, the next two premix the element on the way,
// and only elements that pass four (members, mostly) are hashed four
// functions at a time from the premixed blocks.
func (f *Filter) containsRest(data []byte) bool {
	switch f.hashFuncs {
	case 2:
		return true
	case 3:
		return f.bit(MurmurHash3(f.tweak+seedStep2, data)) != 0
	}
	// Short elements get a short stack buffer: zeroing the 520-byte one
	// would cost more than a tenth of the test.
	if len(data) <= shortElement {
		var buf [shortElement / 4]uint32
		return f.containsPremixed(buf[:], data)
	}
	var buf [maxPremixed / 4]uint32
	return f.containsPremixed(buf[:], data)
}

// containsPremixed tests hash functions 2 and 3, premixing data into buf,
// then 4 to k-1, four at a time.
func (f *Filter) containsPremixed(buf []uint32, data []byte) bool {
	p, h2, h3 := premixHash2(buf, data, f.tweak+seedStep2)
	if f.bit(h2)&f.bit(h3) == 0 {
		return false
	}
	seed, k := f.tweak+seedStep4, f.hashFuncs-4
	for ; k >= 4; k -= 4 {
		h0, h1, h2, h3 := p.hash4(seed)
		if f.bit(h0)&f.bit(h1)&f.bit(h2)&f.bit(h3) == 0 {
			return false
		}
		seed += seedStep4
	}
	for ; k > 0; k-- {
		if f.bit(p.hash(seed)) == 0 {
			return false
		}
		seed += seedStep
	}
	return true
}

// bit returns the bit that hash h selects, 0 or 1.
func (f *Filter) bit(h uint32) byte {
	i := f.mod.reduce(h)
	return f.data[i/8] >> (i % 8) & 1
}

// containsLong tests without premixing: for elements beyond maxPremixed
// bytes and filters of one hash function.
func (f *Filter) containsLong(data []byte) bool {
	seed := f.tweak
	for range f.hashFuncs {
		if f.bit(MurmurHash3(seed, data)) == 0 {
			return false
		}
		seed += seedStep
	}
	return true
}

// AddHash inserts a transaction or block hash in its internal byte order,
// the reverse of the hex that RPCs and explorers display.
func (f *Filter) AddHash(h chainhash.Hash) { f.Add(h[:]) }

// ContainsHash reports whether the hash may have been inserted.
func (f *Filter) ContainsHash(h chainhash.Hash) bool { return f.Contains(h[:]) }

// AddOutPoint inserts an outpoint in Core's 36-byte serialisation: the txid
// in internal byte order, then the output index as a little-endian uint32.
func (f *Filter) AddOutPoint(op wire.OutPoint) {
	b := outPointBytes(op)
	f.Add(b[:])
}

// ContainsOutPoint reports whether the outpoint may have been inserted.
func (f *Filter) ContainsOutPoint(op wire.OutPoint) bool { return f.containsOutPoint(&op) }

// containsOutPoint hashes the first two probes from the outpoint's fields,
// without building its 36 bytes: transactions have an outpoint per input,
// and most fail there.
func (f *Filter) containsOutPoint(op *wire.OutPoint) bool {
	if len(f.data) == 0 {
		return true
	}
	if f.hashFuncs >= 2 {
		if h0, h1 := outPointHash2(f.tweak, op); f.bit(h0)&f.bit(h1) == 0 {
			return false
		}
	}
	b := outPointBytes(*op)
	if f.hashFuncs < 2 {
		return f.containsLong(b[:])
	}
	return f.containsRest(b[:])
}

// outPointHash2 is hash2 of an outpoint's 36 bytes: the txid's eight
// blocks, then the index as the ninth, with no tail.
func outPointHash2(seed uint32, op *wire.OutPoint) (h0, h1 uint32) {
	h0, h1 = seed, seed+seedStep
	for i := 0; i < len(op.Hash); i += 4 {
		k := murmurBlock(binary.LittleEndian.Uint32(op.Hash[i : i+4]))
		h0, h1 = murmurRound(h0, k), murmurRound(h1, k)
	}
	k := murmurBlock(op.Index)
	h0, h1 = murmurRound(h0, k), murmurRound(h1, k)
	return murmurFinal(h0 ^ 36), murmurFinal(h1 ^ 36)
}

func outPointBytes(op wire.OutPoint) [36]byte {
	var b [36]byte
	copy(b[:32], op.Hash[:])
	binary.LittleEndian.PutUint32(b[32:], op.Index)
	return b
}
