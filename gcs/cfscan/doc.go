// Package cfscan is a BIP157/158 light-client scan: it finds a wallet's
// transactions in a range of blocks by downloading the blocks' compact
// filters from one peer and only the blocks whose filter matches, so the
// peer never learns what the wallet watches beyond the blocks it fetches.
//
// [Run] syncs the block-header chain (package gcs/spv), then:
//
//  1. getcfheaders: the filter hashes of the range, chained into filter
//     headers (gcs.CFHeaders) kept in the chain's store between runs, that
//     must pass every trusted checkpoint on the way ([Config.Checkpoint]
//     and the published ones, [Checkpoints]) and chain from the all-zero
//     header before genesis, from a checkpoint, or from the stored ones.
//     Every cfheaders reply must end at the block hash the verified header
//     chain has at that height.
//  2. getcfilters, 1,000 blocks a round trip, from From (the wallet's
//     birthday) only: each filter, chained to the stored header before it,
//     must give the stored header at its height, then one reused gcs.Query
//     tests the wallet's scripts against it.
//  3. getdata for the blocks whose filter matched: each block must hash to
//     the chain's header and its transactions to the header's merkle root
//     (spv.VerifyBlock), and its filter must hold every output script the
//     block has. The transactions that pay a watched address or spend a
//     watched coin are reported; a block with none is a false positive.
//
// Without a checkpoint the filter-header chain is only as honest as the
// peer: it binds every filter to the peer's one story, but a peer that
// leaves a wallet's script out of a filter and out of the header chain
// alike goes unnoticed. A checkpoint from a source the wallet trusts
// (BIP157 suggests asking several peers for cfcheckpt) closes that gap for
// every block up to it.
//
// Spends are found by the script of the coin they spend, which BIP158
// filters hold, and recognised by outpoint: coins received before the
// range must be given to spv.NewWatch, and their addresses watched too.
//
// The steps serve a client of several peers too (package gcs/lightclient):
// [Scan] is Run on a chain synced already, asking a [Source] for its
// messages ([Peer] is one session's); [CheckCFHeaders] checks a cfheaders
// reply; [Judge] settles a conflict between peers' filter headers from
// the block; failures are [*BlockError]s, and those that prove the
// filter-header chain itself false wrap [ErrFalseFilterHeaders].
package cfscan
