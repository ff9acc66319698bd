// Package bloomscan is a BIP37 light-client scan: it loads a Bloom filter
// of the wallet's addresses and coins into one peer, asks for filtered
// blocks, and verifies the merkle block and the transactions the peer
// sends for each. The peer learns, up to the filter's false-positive rate,
// which addresses the wallet watches; package gcs/cfscan (BIP157/158)
// avoids that, at the price of downloading filters and whole blocks.
//
// [Run] syncs the block-header chain (package gcs/spv), then:
//
//  1. filterload: bip37.NewWalletFilter of the watched addresses and coins,
//     with bip37.UpdateAll, so that the peer inserts the outpoint of every
//     output that matches and later spends of it match too (the only way a
//     segwit spend matches: its input pushes nothing the filter holds).
//  2. getdata for filtered blocks, 500 a round trip: each merkle block must
//     carry the header the verified chain has at its height and a partial
//     merkle tree that proves its transactions against that header
//     (bip37.Collector), and every transaction the tree proves must arrive.
//  3. Each proven transaction is matched against a local copy of the
//     filter that is updated as the peer's is (the peer matches in block
//     order, and only matched transactions insert outpoints), and checked
//     against the watch list: the wallet's are reported, the rest are false
//     positives.
//
// What the proofs cannot show: a transaction the peer leaves out of a
// merkle block altogether. BIP37 has no commitment to what a filter should
// match, so a peer may hide payments; BIP157 filters are committed to by
// the filter-header chain.
package bloomscan
