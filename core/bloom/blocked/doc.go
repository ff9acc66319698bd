// Package blocked implements the cache-line blocked Bloom filter of Putze,
// Sanders and Singler (2007): the table is cut into blocks of 512 bits, one
// 64-byte cache line, and an element's hash picks one block and sets all k
// of its bits inside it.
//
// A query therefore reads one cache line where the classic filter reads k
// scattered ones. For a filter larger than the CPU caches that is the
// difference between one memory miss and up to k of them (BenchmarkFilter at
// 10,000,000 elements); for a filter that fits in L1 or L2 it buys little.
// Use it instead of core/bloom's classic Filter when the filter is large and
// queried often; keep the classic one when memory is tight, because blocking
// costs false positives.
//
// The penalty: blocks receive a Poisson number of elements, and the
// overloaded ones answer yes too often. With λ = n·512/m elements per block on
// average, the rate is the Poisson mixture of the classic rate of one block
// (see [FalsePositiveRate]):
//
//	Σ_i Pois(i; λ) · (1 − (1 − 1/512)^(k·i))^k
//
// At equal memory it is higher than the classic filter's, and the gap grows
// as the target falls: at 100,000 elements and 9.59 bits per element, 1.15 %
// against 1.00 %; at 28.25 bits per element, 1.5e-5 against 1.3e-6
// (TestRateAndPenalty). [New] therefore sizes by the blocked formula itself,
// searching k and the number of blocks for the least memory: 9.92 bits per
// element at 1 % (3 % more than the classic filter), 37.78 at BIP158's
// 1/784,931 (34 % more).
//
// Positions come from one 128-bit MurmurHash3 (x64_128, seed 0, [bloom.Hash])
// of the element: the block is the high word of h1·blocks (a multiplication,
// not a division), and position i inside it is the top 9 bits of
// h2·c^(i+1) for the odd constant c = 0x9e3779b97f4a7c15. This is not the
// double hashing h1 + i·h2 of the other filters in core: inside 512 bits its
// stride degenerates for one element in 512, which measured 123 times the
// theoretical rate at 1/784,931.
//
// The binary encoding (see [Filter.MarshalBinary]) is versioned: magic
// "CSBB", version 1, then the block count, k and the added count as uvarints,
// then the blocks in order, 64 bytes each: bit j of block b is bit b·512 + j
// of core/bitset's LittleEndian layout (byte j/8 of the block, mask
// 1<<(j%8)), i.e. each block's eight 64-bit words little-endian. It is not a
// wire format of any blockchain.
//
// A Filter is not safe for concurrent mutation; concurrent Test calls are fine.
package blocked
