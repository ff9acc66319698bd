// Package counting implements the counting Bloom filter of Fan, Cao, Almeida
// and Broder (2000): a Bloom filter whose bits are 4-bit counters, so that
// elements can be removed as well as added.
//
// Use it instead of core/bloom's [bloom.Filter] when the set shrinks as well
// as grows (outpoints spent, watched scripts dropped) and rebuilding the
// filter from the set is not an option. It costs four times the memory of the
// classic filter of the same false-positive rate, and deletion has a price:
// see the caveats below. A [Filter] and a [bloom.Filter] of equal m and k that
// hold the same elements have the same positions: the counters that are
// nonzero are exactly the bits that are set. Each element is hashed once with
// [bloom.Hash] (MurmurHash3 x64_128, seed 0) and its positions are those of
// [bloom.Probe] (triple hashing, each mapped onto [0, m) by the high word of a
// 64-bit multiplication).
//
// # False positives
//
// Test looks only at whether counters are zero, so the false-positive rate is
// the classic filter's: (1 - e^(-kn/m))^k for n elements, 1 % at 9.59
// counters per element with k = 7 (Bloom, 1970; Dillinger and Manolios,
// 2004, for the triple hashing). [Filter.Stats] estimates it from the
// nonzero counters as (nonzero/m)^k.
//
// # Caveats
//
// Counters saturate: one that reaches 15 stays at 15, and Remove never
// decrements it, because after it has overflowed its true count is unknown.
// A saturated counter can therefore only cost false positives, never a false
// negative. Fan et al. bound the chance that any counter of a filter at the
// optimal k ever reaches 16 by m·(e·ln 2/16)^16 ≈ 1.37e-15·m; [Stats] counts
// the saturated counters, which stay at zero in practice unless one element
// is added many times.
//
// Remove trusts its caller. A filter cannot tell a member from a false
// positive, so removing an element that was never added (but tests positive),
// or removing an element more times than it was added, decrements counters
// that belong to other elements, and those elements may then test negative:
// false negatives, which a Bloom filter otherwise never has. Remove only
// elements you know you added, as many times as you added them. Adding an
// element twice increments its counters twice; removing it once leaves it in.
//
// A Filter is not safe for concurrent mutation; concurrent Test calls are fine.
//
// # Encoding
//
// [Filter.MarshalBinary] writes "CSCB", version 1, then m, k and the added
// count as uvarints, then the ⌈m/2⌉ bytes of counters: counter i in byte i/2,
// the low nibble for even i, the high nibble for odd i (beware: the opposite
// of reading the byte as two hex digits, which shows the odd counter first).
// For odd m the last high nibble is zero. The decoder accepts only this
// canonical form.
package counting
