// Package index keeps a persistent bit-sliced index of Ethereum header
// blooms, so that a log query over millions of blocks reads a few
// bit-vectors instead of every header.
//
// Blocks are grouped in sections of [SectionSize] consecutive blocks. A full
// section is stored transposed: for each of the 2048 bloom bits one
// 4096-bit vector whose bit j says whether block j of the section has that
// bloom bit set (go-ethereum's former bloombits layout). A query value
// then costs three vector ANDs per section, a clause ORs its values, and the
// clauses AND: exactly the candidates that testing every header bloom with
// an [ethlogs.Matcher] gives, which the blocks of the last, unfinished
// section still get.
//
// On disk (docs/ethlogs.md has the format and the measurements behind it)
// an index is a directory of plain files: the vectors in memory-mapped
// epoch files of 256 sections laid out bit-major, so that one value reads
// three contiguous runs per epoch, each vector with a checksum; the block
// hashes; the unfinished section's blocks in checksummed records; and a
// sync record. Opening reads a fixed amount whatever the index's size:
// sealed data is checked against its checksums when first read, so every
// query that reads a damaged vector fails with [ErrCorrupt], and a crash
// is repaired by cutting off what was not made durable. The index only
// holds what its caller verified: [Index.Append] requires each header to
// link to the previous block, and [Index.Truncate] cuts back to a fork
// point on a reorg.
//
// One process at a time writes to a directory: [Open] and [Create] take a
// lock and fail with a [*LockedError] naming its holder, [OpenWait] waits
// for it. Any number of [OpenSnapshot] readers may answer beside the
// writer, each for the blocks indexed when it opened.
//
// An Index is not safe for concurrent use; give each goroutine its own.
package index
