// Package gcs implements BIP158 Golomb-coded sets and the BIP157 filter
// header chain: the compact block filters that Bitcoin light clients such as
// Neutrino use to find their transactions without revealing them to peers.
//
// A Golomb-coded set (GCS) of N items hashes each item with SipHash-2-4 under
// a 16-byte key, maps the hash onto [0, N·M) by multiplication, sorts the
// values and Golomb-Rice codes their differences with P remainder bits, most
// significant bit first. A query item matches a set that holds it, and a set
// that does not with probability 1/M per item. BIP158 basic filters use
// P = 19, M = 784931 and the block hash as key.
//
// Use [Build] or [BuildBasic] to make a filter (a reused [Builder] for many),
// [Decode] or [DecodeBasic] to read one from a peer, [Filter.Match] for one
// item, and a [Query], reused across filters, to test a wallet's scripts
// against filter after filter without allocating. [Set] decodes a filter once
// for many single-item tests.
// [FilterHash], [FilterHeader], [CFHeaders] and [VerifyHeaders] check filters
// against the BIP157 header chain.
//
// Strictness: [Decode] accepts exactly what Bitcoin Core accepts (a canonical
// CompactSize N below 2^32, exactly N codes, no trailing byte; padding bits
// are not checked). [DecodeUnchecked] is for bytes whose hash was verified; a
// query that meets damage in such bytes reports a possible match. No input,
// whatever N it claims, makes the package allocate or work more than the
// length of the data allows.
//
// Byte-order traps:
//   - The key is the first 16 bytes of the block hash in internal order, the
//     order chainhash.Hash holds; RPCs and explorers print hashes reversed
//     (display order), as chainhash.Hash's String and chainhash.NewHashFromStr
//     do. See [BasicKey].
//   - Filter hashes and headers are computed over internal-order bytes and
//     printed in display order; filter bytes are never reversed.
//   - SipHash reads the key as two little-endian uint64 halves; Golomb-Rice
//     bits are big-endian (most significant bit first).
//
// Unlike btcd's btcutil/gcs, Match and MatchAny compare full 64-bit hashed
// values (btcd's hash-set MatchAny truncates them to 32 bits), Build removes
// repeated items as BIP158 requires, and queries never copy the filter.
package gcs
