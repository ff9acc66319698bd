package index

import (
	"encoding/binary"
	"fmt"
)

// seal stores the full tail as a section: its vectors and their checksums
// into the epoch file, its hashes, then its record, which commits the
// section; only then is the tail file emptied. Every epoch's last section
// is followed by a Sync, so a crash never leaves more than an epoch of
// sections to check on the next Open.
func (x *Index) seal() error {
	s := x.sealed
	x.transposeTail()
	ep, err := x.epochFile(s/epochSections, true)
	if err != nil {
		return err
	}
	var vec [vectorBytes]byte
	for b := range bloomBits {
		putVector(vec[:], &x.vectors[b])
		if _, err := ep.f.WriteAt(vec[:], vectorOffset(b, s)); err != nil {
			return fmt.Errorf("index: section %d: %w", s, err)
		}
		if err := ep.putSum(b, s, checksum(vec[:])); err != nil {
			return fmt.Errorf("index: section %d checksums: %w", s, err)
		}
	}
	x.buf = x.buf[:0]
	for i := range x.tail {
		x.buf = append(x.buf, x.tail[i].hash[:]...)
	}
	if _, err := x.hashes.WriteAt(x.buf, int64(s)*hashesBytes); err != nil {
		return fmt.Errorf("index: section %d hashes: %w", s, err)
	}
	rec := sectionRecordOf(s, checksum(x.buf))
	if _, err := x.sections.WriteAt(rec[:], int64(s)*sectionRecord); err != nil {
		return fmt.Errorf("index: section %d record: %w", s, err)
	}
	// What this process wrote needs no check before it reads it back.
	for b := range ep.verified {
		ep.verified[b][s%epochSections/64] |= 1 << (s % 64)
	}
	x.hashesOK[s] = true
	x.sealed++
	x.tail, x.flushed = x.tail[:0], 0
	x.sealDirty, x.tailDirty = true, true
	if err := x.tailf.Truncate(0); err != nil {
		return fmt.Errorf("index: tail: %w", err)
	}
	if x.sealed%epochSections == 0 {
		return x.Sync()
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

// readSection loads the vectors of sealed section s into x.vectors,
// checking each against its checksum.
func (x *Index) readSection(s uint64) error {
	ep, err := x.epochFile(s/epochSections, false)
	if err != nil {
		return err
	}
	i := int(s % epochSections)
	for b := range bloomBits {
		if err := x.verifyVectors(ep, b, i, i); err != nil {
			return err
		}
		vec, err := ep.bytes(vectorOffset(b, s), vectorBytes, x.vecBuf[:])
		if err != nil {
			return err
		}
		getVector(&x.vectors[b], vec)
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
