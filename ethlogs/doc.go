// Package ethlogs finds Ethereum contract events by scanning block headers,
// and proves the answer: nothing forged, nothing withheld.
//
// Every header carries a logsBloom ([Bloom]): 2048 bits into which each log
// of the block set three bits for its address and three for each topic
// (never its data). A [Query] has exactly the semantics of eth_getLogs and
// reads and writes its JSON parameter object. [Query.Compile] hashes each
// value once into a [Value] and gives a [Matcher], which tests a header bloom
// with a few byte masks and no allocation, about a hundred times faster than
// go-ethereum's prefilter, which runs Keccak-256 for every header and value.
// Package index keeps a persistent bit-sliced index for long ranges.
//
// A bloom is only a prefilter. Since 2021 mainnet blooms have a third to four
// fifths of their bits set (the Merge block all of them), so a one-value test
// passes by chance about Fill³ of the time ([Bloom.FalsePositiveRate]).
// Candidates are confirmed on receipts, which a light client checks against
// headers it trusts:
//
//   - [VerifyChain] and [VerifyLink]: keccak256(rlp(header)) and parent links
//     from an anchor hash the user trusts; [DecodeHeader] for raw RLP.
//   - [VerifyReceipts]: the receipts trie root (go-ethereum's DeriveSha with a
//     stack trie) equals the header's receiptsRoot, each receipt's bloom is
//     the bloom of its logs, and their union is the header's bloom.
//   - [Logs]: the fields the root does not commit to (log index, transaction
//     index, block number, hash and time) recomputed locally; then
//     [Query.Filter] keeps the exact matches, in eth_getLogs order and JSON.
//
// Bloom-untrusted mode: some chains have published wrong blooms (a zero
// bloom over ten logs on Polygon PoS, all-ones on Filecoin). There, test
// every block instead of the bloom's candidates and check receipts with
// [VerifyReceiptsRoot], which ignores blooms.
//
// Byte-order traps: a logsBloom is one 2048-bit big-endian integer, so bloom
// bit v is byte 255-v/8 under mask 1<<(v%8) (bit 0 is the last byte's lowest
// bit); the three bit numbers are the Keccak-256 digest's byte pairs (0,1),
// (2,3), (4,5), each read big-endian and masked to 11 bits. Ethereum hashes
// are never byte-reversed. [Bloom] has go-ethereum's types.Bloom layout and
// converts to it by pointer, without copying.
package ethlogs
