// Package ethchain generates a mainnet-shaped Ethereum chain for the
// benchmarks of ethlogs and its index: blocks that carry mainnet's log load
// (a mean of about 340 logs a block, over 5,000 contracts drawn from a Zipf
// distribution, and users drawn from another), so that their header blooms
// are 40–80 % full, as those of recent mainnet blocks are (the embedded
// mainnet vectors with 200 logs or more: 33.6–79.6 %, see [MainnetFill]).
//
// The chain is made with go-ethereum's chain maker (core.GenerateChain) and
// is the same on every machine: fixed seeds, block times twelve seconds
// apart. Its receipts are built directly (types.Receipt with its logs and
// bloom) beside unsigned transactions, not by executing EVM code: executing
// seven million logs' worth of transactions would take tens of minutes,
// and nothing the benchmarks measure (blooms, receipts, logs, the receipts
// root) depends on execution. Headers, bodies and receipts are written with
// go-ethereum's rawdb into a go-ethereum database, as a node stores them;
// [Cached] keeps that database under the user cache directory, so the
// 20,000-block chain is generated once per machine (648 MB; 9.4 minutes
// on a shared 2-core machine).
//
// A [Chain] serves go-ethereum's log index (core/filtermaps) and its
// eth_getLogs (eth/filters) through [Chain.FilterMaps] and [Chain.Backend],
// so that they can be measured over the same blocks as chainsieve.
//
// Test support: only _test.go files import it.
package ethchain
