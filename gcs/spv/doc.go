// Package spv is the part of a Bitcoin light client that does not depend
// on how it filters blocks: the networks it can follow ([Network], the one
// table of them in chainsieve, with [ParseNetwork] and
// [Network.ParseAddress]), a P2P session with one peer, the peer's
// block-header chain verified from the genesis block or from a published
// [Anchor], whole blocks checked against that chain, and the wallet's
// watch list. The two filtering
// modes build on it: package gcs/cfscan (BIP157/158 compact filters) and
// package bip37/bloomscan (BIP37 Bloom filters and merkle blocks).
//
// A scan dials a peer ([Dial]), keeps a [Chain] (which [SyncHeaders]
// extends, checking every header's proof of work, linkage and difficulty
// under the network's consensus rules), and reports the transactions a
// [Watch] recognises. The chain lives in a crash-safe store on disk
// (package gcs/spv/store; [OpenChain]) or in memory for one run
// ([NewChain]); only its last few thousand headers stay in memory, and a
// rerun downloads only new headers. A wallet's birthday picks the highest
// published anchor below it ([AnchorFor], docs/btc-checkpoints.md), so a
// mainnet wallet need not walk from genesis. Every wait for the peer is bounded ([Config.Timeout]);
// a peer that serves data failing verification, sends a malformed message
// or breaks the request-reply protocol is dropped with an error wrapping
// [ErrMisbehaving], one that goes quiet with [ErrStalled]. [Session.Traffic]
// counts bytes, messages and round trips for cost measurements.
// [Session.Broadcast] relays a wallet's transaction and reports what each
// peer did with it. [Session.Announced] holds the blocks the peer
// announced unasked (inv, or headers after [Session.SendHeaders]), for a
// client that follows the tip (package gcs/lightclient).
//
// What a single peer can still do: withhold blocks it has not announced
// (the chain ends where its headers end), and, without a trusted
// checkpoint, serve a filter-header chain of its own making; see the scan
// packages.
//
// Byte-order traps: chainhash.Hash holds block hashes and txids in
// internal order, the order of the wire and of hashing; RPCs and explorers
// print them reversed (display order), which is what chainhash.Hash's
// String method prints. A header's proof of work compares its hash, read
// as a little-endian 256-bit number, with the target its compact bits
// encode.
package spv
