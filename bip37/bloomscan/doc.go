// Package bloomscan is a BIP37 light-client scan: it loads a Bloom filter
// of the wallet's addresses and coins into one peer, asks for filtered
// blocks, and verifies the merkle block and the transactions the peer
// sends for each. The peer learns, up to the filter's false-positive rate,
// which addresses the wallet watches; package gcs/cfscan (BIP157/158)
// avoids that, at the price of downloading filters and whole blocks.
//
// [Run] syncs the block-header chain (package gcs/spv), then:
//
//  1. filterload: a filter of the watched addresses and coins built by
//     bip37.WalletPolicy, sized with room for the outpoints the peer
//     inserts (bip37.WalletCapacity), with bip37.UpdateAll, so that the
//     peer inserts the outpoint of every output that matches and later
//     spends of it match too (the only way a segwit spend matches: its
//     input pushes nothing the filter holds).
//  2. getdata for filtered blocks, 16 blocks at first, doubling up to 500
//     a round trip as long as the filter has room for them: each merkle
//     block must carry the header the verified chain has at its height
//     and a partial merkle tree that proves its transactions against that
//     header (bip37.Collector), and every transaction the tree proves must
//     arrive.
//  3. Each proven transaction is matched against a local copy of the
//     filter that is updated as the peer's is (the peer matches in block
//     order, and only matched transactions insert outpoints), and checked
//     against the watch list: the wallet's are reported, the rest are false
//     positives.
//  4. The copy's bits give the false-positive rate the peer applies. When
//     it passes Config.RefreshAt (the target, by default), or would within
//     the next block at the fastest rate the peer has inserted elements, a
//     fresh filter of the addresses and unspent coins is loaded between
//     requests. If a block makes it due in the middle of a request, the
//     rest of the request is verified, dropped, and asked for again after
//     the fresh filter (bitcoinj parks blocks the same way): no
//     transaction is missed or reported twice.
//
// The tweak is random unless given; a wallet keeps Stats.FilterTweak and
// Stats.FilterCapacity and passes them to its next scan, so that its
// filters keep their bits (docs/bip37.md explains why).
//
// What the proofs cannot show: a transaction the peer leaves out of a
// merkle block altogether. BIP37 has no commitment to what a filter should
// match, so a peer may hide payments; BIP157 filters are committed to by
// the filter-header chain.
package bloomscan
