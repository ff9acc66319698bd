// Package bitio writes and reads bit streams most significant bit first, the
// order of BIP158's Golomb-Rice coding: the first bit of the stream is the top
// bit of the first byte, and a stream that ends inside a byte is padded with
// zero bits.
//
// [Reader] follows compress/bzip2's bit reader: it keeps up to 64 unread bits
// in an accumulator refilled eight bytes at a time, and reports a read past the
// end through a sticky error checked once, with [Reader.Err], after a run of
// reads. Unary runs are counted with bits.LeadingZeros64, never bit by bit.
//
// Neither type is safe for concurrent use.
package bitio
