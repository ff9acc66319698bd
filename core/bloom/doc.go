// Package bloom implements the classic Bloom filter and the arithmetic that
// sizes and judges every Bloom filter, including the protocol ones.
//
// The arithmetic ([OptimalBits], [OptimalHashes], [FalsePositiveRate],
// [Capacity], [EstimatedCount], [FilledFalsePositiveRate]) works in float64
// and neither rounds nor clamps: BIP37 sizes filters with Bitcoin Core's integer
// rules and Ethereum fixes m = 2048 and k = 3, so the protocol packages apply
// their own rounding on top.
//
// [Filter] is the general-purpose filter of Bloom (1970). One 128-bit
// MurmurHash3 (x64_128, seed 0) of the element gives h1 and h2, and [Probe]
// derives the k positions from them by triple hashing (Dillinger and
// Manolios, 2004), each mapped onto [0, m) by multiplication (Lemire's fast
// range reduction) rather than by division. Plain double hashing (Kirsch and
// Mitzenmacher, 2006) was measured to fail small, tight filters; [Probe] says
// how. It is not a wire format of any blockchain; use package bip37 or
// ethlogs for those. Its binary encoding is versioned (see
// [Filter.MarshalBinary]) so that stored filters stay readable.
//
// A Filter is not safe for concurrent mutation; concurrent Test calls are fine.
package bloom
