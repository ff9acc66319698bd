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
// On disk (see docs/ethlogs.md for the measurements behind it) an index is a
// directory of plain files: the vectors in epoch files of 256 sections laid
// out bit-major, so that one value reads three contiguous runs per epoch;
// the block hashes; the unfinished section's blooms in checksummed records;
// and a checksum per section. Open verifies every checksum and drops a
// partly written tail left by a crash. The index only holds what its caller
// verified: [Index.Append] requires each header to link to the previous
// block, and [Index.Truncate] cuts back to a fork point on a reorg.
//
// An Index is not safe for concurrent use.
package index
