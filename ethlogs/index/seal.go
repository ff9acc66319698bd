package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/ethereum/go-ethereum/common"
)

// seal stores the full tail as a section: its vectors into the epoch file,
// its hashes, then its checksums, whose record commits the section; only
// then is the tail file emptied.
func (x *Index) seal() error {
	s := x.sealed
	x.transposeTail()
	f, err := x.epoch(s/epochSections, true)
	if err != nil {
		return err
	}
	var vec [vectorBytes]byte
	var vcrc uint32
	for b := range bloomBits {
		putVector(vec[:], &x.vectors[b])
		vcrc = crc32.Update(vcrc, castagnoli, vec[:])
		if _, err := f.WriteAt(vec[:], vectorOffset(b, s)); err != nil {
			return fmt.Errorf("index: section %d: %w", s, err)
		}
	}
	x.buf = x.buf[:0]
	for i := range x.tail {
		x.buf = append(x.buf, x.tail[i].hash[:]...)
	}
	if _, err := x.hashes.WriteAt(x.buf, int64(s)*SectionSize*common.HashLength); err != nil {
		return fmt.Errorf("index: section %d hashes: %w", s, err)
	}
	var rec [sectionRecord]byte
	binary.LittleEndian.PutUint32(rec[:], vcrc)
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(x.buf, castagnoli))
	if _, err := x.sections.WriteAt(rec[:], int64(s)*sectionRecord); err != nil {
		return fmt.Errorf("index: section %d record: %w", s, err)
	}
	x.sealed++
	x.tail, x.synced = x.tail[:0], 0
	if err := x.tailf.Truncate(0); err != nil {
		return fmt.Errorf("index: tail: %w", err)
	}
	return nil
}

// transposeTail turns the tail's blooms into x.vectors: vector b, word g,
// bit i is bloom bit b of block 64g+i. Each 64-block by 64-bit tile is one
// transpose64.
func (x *Index) transposeTail() {
	var m [64]uint64
	for g := range SectionSize / 64 {
		blocks := x.tail[g*64 : g*64+64]
		for w := range bloomBits / 64 {
			at := 248 - 8*w // bloom bits 64w..64w+63, big-endian
			for i := range m {
				m[i] = binary.BigEndian.Uint64(blocks[i].bloom[at:])
			}
			transpose64(&m)
			for k := range m {
				x.vectors[w*64+k][g] = m[k]
			}
		}
	}
}

// untranspose rebuilds the blooms of the first len(blocks) blocks of a
// section from x.vectors; transposing twice is the identity.
func (x *Index) untranspose(blocks []tailBlock) {
	var m [64]uint64
	for g := range (len(blocks) + 63) / 64 {
		for w := range bloomBits / 64 {
			for k := range m {
				m[k] = x.vectors[w*64+k][g]
			}
			transpose64(&m)
			for i := range min(64, len(blocks)-g*64) {
				binary.BigEndian.PutUint64(blocks[g*64+i].bloom[248-8*w:], m[i])
			}
		}
	}
}

// readSection loads the vectors of sealed section s into x.vectors.
func (x *Index) readSection(s uint64) error {
	f, err := x.epoch(s/epochSections, false)
	if err != nil {
		return err
	}
	var vec [vectorBytes]byte
	for b := range bloomBits {
		if _, err := f.ReadAt(vec[:], vectorOffset(b, s)); err != nil {
			return fmt.Errorf("%w: section %d bit %d: %v", ErrCorrupt, s, b, err)
		}
		getVector(&x.vectors[b], vec[:])
	}
	return nil
}

func putVector(dst []byte, v *[SectionSize / 64]uint64) {
	for i, w := range v {
		binary.LittleEndian.PutUint64(dst[8*i:], w)
	}
}

func getVector(v *[SectionSize / 64]uint64, src []byte) {
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(src[8*i:])
	}
}
