package index

import (
	"fmt"
	"io"
	"os"

	"github.com/ethereum/go-ethereum/common"
)

// load reads the small files (the sync record, the length of the sections
// file, the tail) and, for a writer, repairs what a crash can leave behind.
// Its cost does not grow with the index: sealed sections are checked when
// first read, except those a crash may have left half-durable.
func (x *Index) load() error {
	st := make([]byte, 2*stateSlot)
	n, err := x.state.ReadAt(st, 0)
	if err != nil && err != io.EOF {
		return fmt.Errorf("index: state: %w", err)
	}
	x.stateSeq, x.synced, _ = decodeState(st[:n]) // none valid: nothing known durable
	if err := x.loadSections(); err != nil {
		return err
	}
	if !x.readOnly && x.synced < x.sealed {
		if err := x.repairSections(); err != nil {
			return err
		}
	}
	if err := x.loadTail(); err != nil {
		return err
	}
	return x.setHead()
}

// loadSections takes the count of committed sections from the sections
// file; a torn last record was never committed.
func (x *Index) loadSections() error {
	size, err := fileSize(x.sections)
	if err != nil {
		return err
	}
	x.sealed = uint64(size / sectionRecord)
	if limit := (^uint64(0) - x.first) / SectionSize; x.sealed > limit {
		return fmt.Errorf("%w: %d sections after block %d overflow the block numbers", ErrCorrupt, x.sealed, x.first)
	}
	if x.synced > x.sealed {
		return fmt.Errorf("%w: %d sections recorded durable, %d in %s", ErrCorrupt, x.synced, x.sealed, sectionsFile)
	}
	hs, err := fileSize(x.hashes)
	if err != nil {
		return err
	}
	if need := int64(x.synced) * hashesBytes; hs < need {
		return fmt.Errorf("%w: %s has %d bytes, %d sections need %d", ErrCorrupt, hashesFile, hs, x.synced, need)
	}
	if x.readOnly && hs < int64(x.sealed)*hashesBytes {
		return fmt.Errorf("%w: %s has %d bytes, %d sections need %d", ErrCorrupt, hashesFile, hs, x.sealed, int64(x.sealed)*hashesBytes)
	}
	if !x.readOnly {
		return truncateTo(x.sections, int64(x.sealed)*sectionRecord)
	}
	return nil
}

// repairSections checks every section sealed after the last sync record,
// whole, and cuts the index back to the first that fails: a crash (power
// loss) may have kept its record but not its vectors or hashes. Those
// blocks are simply indexed again.
func (x *Index) repairSections() error {
	for s := x.synced; s < x.sealed; s++ {
		if err := x.verifySection(s); err != nil {
			if err := truncateTo(x.sections, int64(s)*sectionRecord); err != nil {
				return err
			}
			x.sealed = s
			break
		}
	}
	size, err := fileSize(x.hashes)
	if err != nil {
		return err
	}
	if size < int64(x.sealed)*hashesBytes {
		return fmt.Errorf("%w: %s has %d bytes, want %d", ErrCorrupt, hashesFile, size, int64(x.sealed)*hashesBytes)
	}
	return nil
}

// Verify checks every sealed section whole: all its vectors against their
// checksums and its block hashes against its record. Open does not: it
// would read the whole index (seconds and gigabytes at mainnet size), and
// queries check what they read. Verify is for an explicit check.
func (x *Index) Verify() error {
	return guard(func() error {
		for s := range x.sealed {
			if err := x.verifySection(s); err != nil {
				return err
			}
		}
		return nil
	})
}

func (x *Index) verifySection(s uint64) error {
	if err := x.verifyHashes(s); err != nil {
		return err
	}
	ep, err := x.epochFile(s/epochSections, false)
	if err != nil {
		return err
	}
	for b := range bloomBits {
		if err := x.verifyVectors(ep, b, int(s%epochSections), int(s%epochSections)); err != nil {
			return err
		}
	}
	return nil
}

// verifyHashes checks the block hashes of sealed section s against its
// record, once per process.
func (x *Index) verifyHashes(s uint64) error {
	if x.hashesOK[s] {
		return nil
	}
	var rec [sectionRecord]byte
	if _, err := x.sections.ReadAt(rec[:], int64(s)*sectionRecord); err != nil {
		return fmt.Errorf("%w: record of section %d: %v", ErrCorrupt, s, err)
	}
	want, ok := decodeSectionRecord(s, rec[:])
	if !ok {
		return fmt.Errorf("%w: the record of section %d (blocks %d to %d) fails its checksum", ErrCorrupt, s, x.first+s*SectionSize, x.first+(s+1)*SectionSize-1)
	}
	if cap(x.buf) < hashesBytes {
		x.buf = make([]byte, hashesBytes)
	}
	hashes := x.buf[:hashesBytes]
	if _, err := x.hashes.ReadAt(hashes, int64(s)*hashesBytes); err != nil {
		return fmt.Errorf("%w: hashes of section %d: %v", ErrCorrupt, s, err)
	}
	if checksum(hashes) != want {
		return fmt.Errorf("%w: the hashes of section %d (blocks %d to %d) fail their checksum", ErrCorrupt, s, x.first+s*SectionSize, x.first+(s+1)*SectionSize-1)
	}
	x.hashesOK[s] = true
	return nil
}

// loadTail keeps the tail records that continue the sealed sections: in
// order, with good checksums, each linking to the one before. Anything
// after the first that does not is what a crash left (records of a
// section sealed since, a torn write) or, for a snapshot, what the writer
// is rewriting now. A writer cuts the file back to them.
func (x *Index) loadTail() error {
	size, err := fileSize(x.tailf)
	if err != nil {
		return err
	}
	data := make([]byte, min(size, SectionSize*tailRecord))
	if _, err := x.tailf.ReadAt(data, 0); err != nil && err != io.EOF {
		return fmt.Errorf("index: tail: %w", err)
	}
	var parent common.Hash
	if x.sealed > 0 {
		if parent, err = x.Hash(x.tailStart() - 1); err != nil {
			return err
		}
	}
	x.tail = make([]tailBlock, 0, len(data)/tailRecord) // a writer's appends grow it; a snapshot's stays
	for len(data) >= tailRecord && len(x.tail) < SectionSize {
		t, ok := decodeTailRecord(data[:tailRecord])
		linked := t.parent == parent || (x.sealed == 0 && len(x.tail) == 0)
		if !ok || t.number != x.tailStart()+uint64(len(x.tail)) || !linked {
			break
		}
		x.tail = append(x.tail, t)
		parent = t.hash
		data = data[tailRecord:]
	}
	x.flushed = len(x.tail)
	if x.readOnly {
		if len(x.tail) == SectionSize { // sealed meanwhile: its record not yet read
			x.tail = x.tail[:SectionSize-1]
		}
		return nil
	}
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

func fileSize(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("index: %w", err)
	}
	return fi.Size(), nil
}

// truncateTo cuts f to size if it is longer, and fails if it is shorter.
func truncateTo(f *os.File, size int64) error {
	have, err := fileSize(f)
	if err != nil {
		return err
	}
	switch {
	case have < size:
		return fmt.Errorf("%w: %s has %d bytes, want %d", ErrCorrupt, f.Name(), have, size)
	case have > size:
		if err := f.Truncate(size); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}
