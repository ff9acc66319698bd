// Package bip37 implements BIP37 connection Bloom filtering as Bitcoin Core
// does it, byte for byte: the filter a light wallet loads into a full node,
// the transaction matching the node applies on the wallet's behalf, and the
// merkleblock proofs it sends back, built and verified.
//
// A wallet builds a [Filter] ([New], [NewWalletFilter], or [WalletPolicy],
// which sizes it with room for the outpoints the node inserts and says
// when it is due for a rebuild), sends it with [Filter.MsgFilterLoad], asks
// for filtered blocks, checks every merkleblock with [VerifyMerkleBlock]
// and pairs it with the tx messages that follow using a [Collector]. A node, or a test standing in for one, applies the
// peer's filter messages with [Apply] and answers with [NewMerkleBlock].
// Messages are btcd's wire/v2 types; payloads can also be encoded and
// decoded directly ([Filter.UnmarshalBinary], [DecodeMerkleBlock],
// [PartialTree.UnmarshalBinary]), with errors naming the byte offset.
//
// BIP37 leaks which addresses a wallet watches to the peers it asks, and
// Core serves it only with -peerbloomfilters (off by default since 0.19). For
// new light clients BIP157/158 compact filters (package gcs) are the better
// choice; this package is for wallets, nodes and test harnesses that still
// speak BIP37.
//
// Core's semantics, where other libraries differ (docs/bip37.md lists them):
// the number of hash functions comes from Core's integer arithmetic
// ([Params]); a filter with no data or no hash functions matches everything;
// empty pushes (OP_0) never match; a malformed script is matched up to its
// bad opcode; only the low two bits of the flags count.
//
// Byte-order traps: txids and block hashes are inserted, matched and proven
// in internal byte order (chainhash.Hash order), the reverse of the hex that
// RPCs and explorers display. Outpoints are inserted as 36 bytes: the txid
// in internal order, then the output index as a little-endian uint32. Filter
// bits are numbered from the least significant bit of byte 0, and the flag
// bits of a partial merkle tree likewise.
//
// Bit positions are MurmurHash3 (x86_32) of the element under seed
// i·0xFBA4C795 + tweak, modulo the filter's bit count. They are fixed by the
// protocol, so this package keeps them exact and makes them cheap instead:
// the hash functions hashed together share the seed-independent half of
// MurmurHash3, a test hashes its probes in growing groups (two, two, then
// four at a time) because most non-members fail the first ones, and the
// modulo is an exact multiply-shift reduction. Adding, testing and matching
// allocate nothing.
//
// A [Filter] is not safe for concurrent mutation; concurrent Contains calls
// are fine. Matching transactions mutates the filter.
package bip37
