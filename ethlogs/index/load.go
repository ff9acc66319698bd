package index

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common"
)

// load reads the section records and the tail, repairs what a crash can
// leave behind, and verifies every checksum.
func (x *Index) load() error {
	recs, err := readAll(x.sections)
	if err != nil {
		return err
	}
	x.sealed = uint64(len(recs) / sectionRecord) // a torn last record was never committed
	if err := truncateTo(x.sections, int64(x.sealed)*sectionRecord); err != nil {
		return err
	}
	if err := x.Verify(); err != nil {
		return err
	}
	if err := truncateTo(x.hashes, int64(x.sealed)*SectionSize*common.HashLength); err != nil {
		return err
	}
	if err := x.loadTail(); err != nil {
		return err
	}
	return x.setHead()
}

// Verify checks every sealed section against its checksums: the vectors
// (reading each epoch file once, bit row by bit row) and the block hashes.
// Open runs it; it reads the whole index (measured in docs/ethlogs.md).
func (x *Index) Verify() error {
	recs := make([]byte, x.sealed*sectionRecord)
	if _, err := x.sections.ReadAt(recs, 0); err != nil && len(recs) > 0 {
		return fmt.Errorf("%w: sections: %v", ErrCorrupt, err)
	}
	hashes := make([]byte, SectionSize*common.HashLength)
	for s := range x.sealed {
		if _, err := x.hashes.ReadAt(hashes, int64(s)*int64(len(hashes))); err != nil {
			return fmt.Errorf("%w: hashes of section %d: %v", ErrCorrupt, s, err)
		}
		if crc32.Checksum(hashes, castagnoli) != binary.LittleEndian.Uint32(recs[s*sectionRecord+4:]) {
			return fmt.Errorf("%w: hashes of section %d (blocks %d to %d) fail their checksum", ErrCorrupt, s, x.first+s*SectionSize, x.first+(s+1)*SectionSize-1)
		}
	}
	for e := uint64(0); e*epochSections < x.sealed; e++ {
		if err := x.verifyEpoch(e, recs); err != nil {
			return err
		}
	}
	return nil
}

func (x *Index) verifyEpoch(e uint64, recs []byte) error {
	f, err := x.epoch(e, false)
	if err != nil {
		return err
	}
	n := min(x.sealed-e*epochSections, epochSections)
	sums := make([]uint32, n)
	row := make([]byte, n*vectorBytes)
	for b := range bloomBits {
		if _, err := f.ReadAt(row, int64(b)*rowBytes); err != nil {
			return fmt.Errorf("%w: epoch %d bit %d: %v", ErrCorrupt, e, b, err)
		}
		for s := range n {
			sums[s] = crc32.Update(sums[s], castagnoli, row[s*vectorBytes:(s+1)*vectorBytes])
		}
	}
	for i, sum := range sums {
		s := e*epochSections + uint64(i)
		if sum != binary.LittleEndian.Uint32(recs[s*sectionRecord:]) {
			return fmt.Errorf("%w: vectors of section %d (blocks %d to %d) fail their checksum", ErrCorrupt, s, x.first+s*SectionSize, x.first+(s+1)*SectionSize-1)
		}
	}
	return nil
}

// loadTail keeps the tail records that continue the sealed sections, in
// order and with good checksums. Anything after the first that does not is
// what a crash left: records of a section sealed since, or a torn write.
func (x *Index) loadTail() error {
	data, err := readAll(x.tailf)
	if err != nil {
		return err
	}
	x.tail = x.tail[:0]
	for len(data) >= tailRecord && len(x.tail) < SectionSize {
		t, ok := decodeTailRecord(data[:tailRecord])
		if !ok || t.number != x.tailStart()+uint64(len(x.tail)) {
			break
		}
		x.tail = append(x.tail, t)
		data = data[tailRecord:]
	}
	x.synced = len(x.tail)
	if err := truncateTo(x.tailf, int64(len(x.tail))*tailRecord); err != nil {
		return err
	}
	if len(x.tail) == SectionSize {
		return x.seal()
	}
	return nil
}

// setHead sets x.head to the hash of the last block.
func (x *Index) setHead() error {
	x.head = common.Hash{}
	if n, _, ok := x.Head(); ok {
		h, err := x.Hash(n)
		if err != nil {
			return err
		}
		x.head = h
	}
	return nil
}

// readAll reads f whole, up to the size of a full tail: no file the index
// reads this way is legitimately larger.
func readAll(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	size := min(fi.Size(), SectionSize*tailRecord)
	data := make([]byte, size)
	if _, err := f.ReadAt(data, 0); err != nil && err != io.EOF {
		return nil, fmt.Errorf("index: %s: %w", filepath.Base(f.Name()), err)
	}
	return data, nil
}

// truncateTo cuts f to size if it is longer, and fails if it is shorter.
func truncateTo(f *os.File, size int64) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	switch {
	case fi.Size() < size:
		return fmt.Errorf("%w: %s has %d bytes, want %d", ErrCorrupt, filepath.Base(f.Name()), fi.Size(), size)
	case fi.Size() > size:
		if err := f.Truncate(size); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}
