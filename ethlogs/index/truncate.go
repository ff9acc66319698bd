package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ethereum/go-ethereum/common"
)

// Truncate drops every block numbered n or above: on a reorg, call it with
// the first block after the fork point, then Append the new branch. A cut
// inside a sealed section turns that section back into the tail. Truncating
// at or below First empties the index.
func (x *Index) Truncate(n uint64) error {
	if n >= x.first+x.Len() {
		return nil
	}
	n = max(n, x.first)
	if t := x.tailStart(); n >= t {
		return x.truncateTail(int(n - t))
	}
	s := (n - x.first) / SectionSize
	keep := make([]tailBlock, int(n-x.first-s*SectionSize), SectionSize)
	if err := x.unseal(s, keep); err != nil {
		return err
	}
	// The shorter sections file commits the cut: a crash after it leaves
	// tail records that no longer continue the sections, which Open drops.
	for _, step := range []func() error{
		func() error { return x.tailf.Truncate(0) },
		func() error { return x.sections.Truncate(int64(s) * sectionRecord) },
		func() error { return x.hashes.Truncate(int64(s) * SectionSize * common.HashLength) },
	} {
		if err := step(); err != nil {
			return fmt.Errorf("index: truncate: %w", err)
		}
	}
	x.sealed, x.tail, x.synced = s, keep, 0
	if err := x.removeEpochsFrom((s + epochSections - 1) / epochSections); err != nil {
		return err
	}
	if err := x.flushTail(); err != nil {
		return err
	}
	return x.setHead()
}

func (x *Index) truncateTail(keep int) error {
	x.tail = x.tail[:keep]
	if x.synced > keep {
		x.synced = keep
		if err := x.tailf.Truncate(int64(keep) * tailRecord); err != nil {
			return fmt.Errorf("index: truncate: %w", err)
		}
	}
	return x.setHead()
}

// unseal rebuilds the first len(keep) blocks of sealed section s.
func (x *Index) unseal(s uint64, keep []tailBlock) error {
	if len(keep) == 0 {
		return nil
	}
	if err := x.readSection(s); err != nil {
		return err
	}
	x.untranspose(keep)
	start := x.first + s*SectionSize
	hashes := make([]byte, len(keep)*common.HashLength)
	if _, err := x.hashes.ReadAt(hashes, int64(s)*SectionSize*common.HashLength); err != nil {
		return fmt.Errorf("%w: hashes of section %d: %v", ErrCorrupt, s, err)
	}
	for i := range keep {
		keep[i].number = start + uint64(i)
		copy(keep[i].hash[:], hashes[i*common.HashLength:])
	}
	return nil
}

// removeEpochsFrom deletes the epoch files from epoch e on: they hold no
// sealed section any more.
func (x *Index) removeEpochsFrom(e uint64) error {
	for ; ; e++ {
		if f, ok := x.epochs[e]; ok {
			f.Close()
			delete(x.epochs, e)
		}
		err := os.Remove(epochFile(x.dir, e))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
}
