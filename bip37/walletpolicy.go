package bip37

import (
	"math"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/core/bloom"
)

// CapacityStep is the smallest capacity [WalletCapacity] gives: the
// headroom of 100 elements bitcoinj adds to a wallet's count (its
// FilterMerger). Capacities double from it.
const CapacityStep = 100

// WalletCapacity returns the number of elements a filter for a wallet
// that watches n elements now is sized for at false-positive rate fpRate:
// the first of 100, 200, 400, 800, … that is at least 2n.
//
// The room is for the outpoints a peer inserts under [UpdateAll]: one per
// output that pays the wallet, so a wallet that receives as many payments
// again as it watches addresses and coins stays at or under fpRate. The
// doubling keeps a wallet's filters at few distinct sizes over its life:
// filters of one size and tweak put every element on the same bits, so a
// peer that holds two of them learns nothing from comparing them, while two
// of different sizes narrow its false positives down to their intersection
// (Gervais et al., ACSAC 2014).
//
// The capacity never exceeds the count whose filter fills [MaxFilterSize]
// at fpRate (beyond it the filter cannot grow, only lose hash functions),
// and never falls below n.
func WalletCapacity(n int, fpRate float64) uint32 {
	want := 2 * uint64(max(n, 0))
	c := uint64(CapacityStep)
	for c < want {
		c *= 2
	}
	if fpRate > 0 && fpRate < 1 {
		// Core's size formula reaches MaxFilterSize·8 bits here.
		full := math.Ceil(MaxFilterSize * 8 * coreLn2Squared / -math.Log(fpRate))
		c = min(c, uint64(min(full, math.MaxUint32)))
	}
	return uint32(min(max(c, uint64(max(n, 0))), math.MaxUint32))
}

// WalletPolicy builds the successive filters of one wallet and decides
// when the loaded one is worth replacing.
//
// A filter loaded with [UpdateAll] fills as the peer inserts the outpoint
// of every output that matches, and its false-positive rate rises with
// its fill until the peer sends every transaction. Matching a local copy
// of the filter with [Filter.MatchTx], transaction by transaction as the
// peer does, keeps that copy equal to the peer's, so its
// [Filter.FilledFalsePositiveRate] is the rate the peer applies.
// [WalletPolicy.Due]
// compares it with the limit; the wallet then builds a fresh filter of its
// elements and the coins it still holds and loads it.
//
// Tweak and Capacity are the wallet's to keep across restarts: a filter
// built again with the same tweak and capacity puts every element on the
// same bits as before, so a peer comparing the two learns nothing new.
// [WalletPolicy.Build] raises Capacity when the wallet outgrows it and never lowers it.
//
// The zero value is not ready: FPRate must be set.
type WalletPolicy struct {
	FPRate float64 // the false-positive rate a filter has at its capacity

	// Limit is the false-positive rate, as the loaded filter's bits
	// predict it, past which Due reports it; zero means FPRate, and 1 or
	// more never.
	Limit float64

	Tweak    uint32 // the hash seed offset of every filter
	Flags    Flags  // normally UpdateAll
	Capacity uint32 // the least capacity of the next filter
}

// Build returns a filter holding [AddressElement] of each of addrs and
// each of outpoints, sized for Capacity or [WalletCapacity] of their count,
// whichever is larger, and sets Capacity to the size it built. An address
// without an element is an error, as is an FPRate outside (0, 1] or a
// wallet too large for any filter at it ([Params]).
func (p *WalletPolicy) Build(addrs []address.Address, outpoints []wire.OutPoint) (*Filter, error) {
	capacity := max(p.Capacity, WalletCapacity(len(addrs)+len(outpoints), p.FPRate))
	f, err := New(capacity, p.FPRate, p.Tweak, p.Flags)
	if err != nil {
		return nil, err
	}
	if err := f.addWallet(addrs, outpoints); err != nil {
		return nil, err
	}
	p.Capacity = capacity
	return f, nil
}

// Due reports whether f's false-positive rate as its bits stand
// ([Filter.FilledFalsePositiveRate]) exceeds the limit. A filter that is
// due as soon as Build returns it belongs to a wallet too large for a
// filter at FPRate; building another does not help.
func (p *WalletPolicy) Due(f *Filter) bool { return f.FilledFalsePositiveRate() > p.limit() }

// Room returns how many more elements f is expected to take before it is
// due: with x of its m bits set and k hash functions, an element sets
// k·(1 - x/m) new bits on average, so from x to the fill at the limit,
// x' = m·limit^(1/k), it takes (m/k)·ln((m - x)/(m - x')) elements. It
// returns 0 for a filter that is due or matches everything, and +Inf
// when the limit is 1 or more.
func (p *WalletPolicy) Room(f *Filter) float64 {
	limit := p.limit()
	if limit >= 1 {
		return math.Inf(1)
	}
	if f.MatchesAll() || p.Due(f) {
		return 0
	}
	m, k := float64(f.Size()*8), float64(f.HashFuncs())
	return max(bloom.EstimatedCount(m, k, m*math.Pow(limit, 1/k))-f.EstimatedCount(), 0)
}

func (p *WalletPolicy) limit() float64 {
	if p.Limit == 0 {
		return p.FPRate
	}
	return p.Limit
}
