// Package livenode runs real Bitcoin and Ethereum nodes on 127.0.0.1 for
// integration tests: btcd and litecoind in regtest, geth in --dev mode.
//
// It is test-support code. It installs what it needs itself (btcd and geth
// with go install into a shared cache, see [GoInstall]), starts each node in
// its own t.TempDir on ports the kernel picks, waits for it with a bounded
// deadline, and stops it in t.Cleanup, printing the tail of its log when the
// test failed. litecoind comes from the system package manager; without it
// [StartLitecoind] skips the test.
//
// Every address it dials or lets a node bind is on the loopback interface;
// anything else is refused with an error. Nodes find no peers: they are
// started with DNS seeding, discovery and outbound connections disabled.
//
// On top of the nodes it offers what filter tests need: a JSON-RPC client
// ([RPC]), a deterministic regtest [Wallet] that makes P2PKH, P2WPKH and P2TR
// outputs and spends them, [Traffic] that mines a test's chain with it, a
// P2P [Peer] built on btcd's peer package, and a hand-assembled
// event-emitter contract for geth ([EmitterCode]).
//
// Byte order: Bitcoin RPC prints hashes (block hashes, txids, BIP157 filter
// headers) in display order, the reverse of the internal order used on the
// wire and in hashing. This package parses them into [chainhash.Hash], which
// holds the internal order, so they compare equal to wire and block data.
//
// Integration tests are slow by unit-test standards (seconds warm, minutes
// for a cold install); they are skipped under go test -short.
package livenode
