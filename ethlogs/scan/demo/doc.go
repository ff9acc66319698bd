// Package demo serves the embedded demo chain: a few hundred blocks of a
// go-ethereum chain with token transfers and other events, built the same
// way on every machine in a fraction of a second, and served by an
// in-process go-ethereum node over real JSON-RPC HTTP on 127.0.0.1.
//
// It lets "chainsieve eth scan" run its whole pipeline with no node and no
// network, and gives tests a real node to compare against: the node's own
// eth_getLogs, eth_getBlockReceipts and headers are go-ethereum's.
//
// The chain is deterministic: fixed keys, contracts created at fixed
// addresses, events drawn from a seeded generator, and block times ten
// seconds apart from a genesis at time zero, so its block hashes are the
// same everywhere and an index built on it stays valid.
package demo
