package blocked

import (
	"encoding/binary"
	"errors"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 1:
//
//	"CSBB"        4 bytes, magic
//	version       1 byte, 1
//	blocks        uvarint, 1..2^28
//	k             uvarint, bits per element, 1..bloom.MaxHashes
//	added         uvarint
//	blocks        64 bytes each: bit j in byte j/8 under mask 1<<(j%8)
//
// Version 1 fixes the hashing described in the package doc: a new hash or
// position rule needs a new version.
const (
	magic   = "CSBB"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("blocked: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.Blocks())
	b = binary.AppendUvarint(b, uint64(f.k))
	b = binary.AppendUvarint(b, f.added)
	for i := range f.blocks {
		for _, w := range f.blocks[i] {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	return b, nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 32+f.M()/8))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding: no trailing bytes, no padded uvarints. Errors wrap
// [ErrCorrupt] and name the byte offset; f is unchanged on error. Memory use
// is bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	blocks := d.Uvarint("block count", 1, maxBlocks)
	k := d.Uvarint("hash count", 1, bloom.MaxHashes)
	added := d.Uvarint("added count", 0, 1<<64-1)
	rest := d.Rest("blocks", blocks*blockBits/8)
	if err := d.Err(); err != nil {
		return err
	}
	g := Filter{blocks: make([]block, blocks), k: int(k), added: added}
	for i := range g.blocks {
		for j := range g.blocks[i] {
			g.blocks[i][j] = binary.LittleEndian.Uint64(rest[(i*blockWords+j)*8:])
		}
	}
	*f = g
	return nil
}
