// Package cuckoo implements the cuckoo filter of Fan, Andersen, Kaminsky and
// Mitzenmacher ("Cuckoo Filter: Practically Better Than Bloom", CoNEXT
// 2014): an approximate set that, unlike a Bloom filter, can delete.
//
// Use it instead of core/bloom's [bloom.Filter] when elements leave the set
// (spent outputs, expired watches) or when the target rate is about 0.1 %
// or below, where its 4f/load bits per element beat the Bloom filter's
// 1.44·log2(1/ε) (New at 1 %: 10.7 bits per element against 9.6; at 0.1 %:
// 13.9 against 14.4). Use the Bloom filter when the set only grows, when the
// element count is unknown (a cuckoo filter cannot grow: [Filter.Add]
// fails with [ErrFull]) or for a protocol format (package bip37, ethlogs).
//
// # Layout
//
// A filter has buckets of b = 4 slots of f bits, 2 ≤ f ≤ 32, packed back to
// back (slot j of bucket i at bit (4i + j)·f), so bits per element are
// 4f/load for any f, not rounded to bytes. A slot of 0 is empty. Each
// element is hashed once ([bloom.Hash], MurmurHash3 x64_128, seed 0): h1
// picks its first bucket i1 by multiplication onto [0, buckets), h2 its
// fingerprint, uniform on [1, 2^f − 1]. Test compares the 4 slots of a
// bucket at once: the slots, read with at most two 64-bit loads, are XORed
// with the fingerprint repeated in every lane, and a lane is zero exactly
// when its slot matches; the zero-lane test adds the low lane bits to
// themselves, which cannot carry across lanes, so it is exact per lane.
// For f > 16 the bucket is read as two halves of two slots.
//
// # Alternate bucket
//
// The paper's partial-key cuckoo hashing takes the second bucket as
// i1 XOR H(fp), which needs a power-of-two bucket count and so can double
// the memory. This package uses i2 = (H(fp) − i1) mod buckets instead: it is
// an involution for any bucket count (i1 = (H(fp) − i2) mod buckets), so a
// relocated fingerprint finds its other bucket from where it is and its own
// value, as in the paper, and tables are sized to n, not to a power of two.
// The price is small: when 2·i1 ≡ H(fp) the two buckets coincide and the
// element has 4 candidate slots instead of 8 (a fraction of about 1/buckets
// of the elements, 2/buckets for an even count).
//
// # Sizing and failure
//
// [New](n, p) takes f = ⌈log2(8/p)⌉ bits (the paper's ε ≤ 2b/2^f), at least
// 8: with fewer fingerprint values the alternate buckets are too few and the
// table fills badly (measured first failures at load 0.84–0.92 for f = 4).
// It sizes the table for n + 2√n + 6 elements at [DesignLoad] = 0.94, at
// least n/2 + 2 buckets below n = 64. Measured (TestMeasureDesignLoad):
// random fills of 100,000 slots first failed at loads 0.952–0.970 (median
// 0.965, 1,000 seeds, f = 12; 0.952–0.967 for f = 8), of 10,000,000 slots at
// 0.957–0.959; no fill of New(n, p) failed (40,000 seeds for each n up to
// 100, 300 at n = 100,000, 10 at 1,000,000) and the longest relocation chain
// was 238 of [MaxKicks] = 500. At load α a lookup of a non-member is
// positive with probability 1 − (1 − 1/(2^f − 1))^(8α) ≈ 8α/2^f, reported
// by [Filter.Stats]; at 100,000 elements New(n, p) measured 0.72 % for
// p = 1 %, 0.088 % for 0.1 % and 7.5e-7 for BIP158's 1/784,931.
//
// Add relocates at most [MaxKicks] fingerprints, choosing victims with a
// small deterministic generator (SplitMix64) held by the filter. If that is
// not enough it undoes every relocation and returns [ErrFull]: the table is
// exactly as before, and no element already inserted is lost (some cuckoo
// filters drop the last victim or keep it in a side slot; this one needs
// neither). The generator restarts from its seed after New, Reset and
// UnmarshalBinary; its state is not encoded, so a decoded filter's later
// kicks can differ from those the original would have made, never its
// contents.
//
// # Caveats
//
// Remove only elements that were inserted. Removing another element whose
// fingerprint and bucket match a stored one removes that fingerprint, and
// the element it belonged to then tests negative: a false negative. Inserting
// the same element again stores another copy (Remove removes one); 2b = 8
// copies fill both its buckets and a ninth Add fails (four copies when the
// two buckets coincide).
//
// A Filter is not safe for concurrent mutation; concurrent Test calls are
// fine.
//
// # Encoding
//
// [Filter.MarshalBinary] writes "CSCF", version 1, then uvarints buckets, f
// and items, then the packed table as ⌈buckets·4·f/8⌉ bytes: bit k of the
// slot stream is in byte k/8 under mask 1<<(k%8) (little-endian, the layout
// of bitset.LittleEndian), unused high bits of the last byte zero. The
// decoder recounts the nonzero slots and rejects an items field that
// differs, so each filter has exactly one encoding.
package cuckoo
