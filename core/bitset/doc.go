// Package bitset provides a fixed-length set of bits and zero-copy views of the
// two byte layouts that blockchain filters put on the wire.
//
// A [Set] never grows. In every protocol chainsieve speaks the filter size is
// part of the wire format, so an index outside the set is a programmer error
// and panics with a "bitset:" prefix.
//
// [Set] keeps its bits in 64-bit words, chosen by BenchmarkLayout against a
// plain byte slice: single-bit Set and Test cost the same either way (about
// 1.8 ns), while Count and Or over 65,536 bits take about 300 ns on words and
// 1,050 ns on bytes, which must be loaded and bounds-checked eight at a time.
// Words win the whole-set operations that a Bloom filter's stats, unions and
// intersections run.
//
// The protocols fix their own byte layouts, and the views read and write those
// bytes in place, without copying:
//
//   - [LittleEndian]: bit i is byte i/8 under mask 1<<(i%8), the bits of a
//     little-endian integer. BIP37 filterload data uses this layout.
//   - [BigEndian]: bit i is byte len-1-i/8 under mask 1<<(i%8), the bits of a
//     big-endian integer. Ethereum's 256-byte logsBloom uses this layout.
//
// None of the types is safe for concurrent mutation; concurrent reads are fine.
package bitset
