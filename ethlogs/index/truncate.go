package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Truncate drops every block numbered n or above: on a reorg, call it with
// the first block after the fork point, then Append the new branch. A cut
// inside a sealed section turns that section back into the tail; it
// rewrites sealed data, so it needs every snapshot of the directory closed
// and fails with a *[LockedError] while one is open. Truncating at or below
// First empties the index (the cure for a section that fails its checksum).
func (x *Index) Truncate(n uint64) error {
	if x.readOnly {
		return errReadOnly
	}
	if n >= x.first+x.Len() {
		return nil
	}
	n = max(n, x.first)
	if t := x.tailStart(); n >= t {
		return x.truncateTail(int(n - t))
	}
	return withoutReaders(x.dir, func() error { return guard(func() error { return x.truncateSealed(n) }) })
}

func (x *Index) truncateSealed(n uint64) error {
	s := (n - x.first) / SectionSize
	keep := make([]tailBlock, int(n-x.first-s*SectionSize), SectionSize)
	if err := x.unseal(s, keep); err != nil {
		return err
	}
	// Sections from s on are about to change: no longer durable.
	if x.synced > s {
		if err := x.writeState(s); err != nil {
			return err
		}
	}
	// The shorter sections file commits the cut: a crash after it leaves
	// tail records that no longer continue the sections, which Open drops.
	for _, step := range []func() error{
		func() error { return x.tailf.Truncate(0) },
		func() error { return x.sections.Truncate(int64(s) * sectionRecord) },
		func() error { return x.hashes.Truncate(int64(s) * hashesBytes) },
	} {
		if err := step(); err != nil {
			return fmt.Errorf("index: truncate: %w", err)
		}
	}
	for t := range x.hashesOK {
		if t >= s {
			delete(x.hashesOK, t)
		}
	}
	if ep, ok := x.epochs[s/epochSections]; ok {
		ep.clearFrom(int(s % epochSections))
	}
	x.sealed, x.tail, x.flushed = s, keep, 0
	x.sealDirty, x.tailDirty = true, true
	x.dirtyFrom = min(x.dirtyFrom, s/epochSections)
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
	if x.flushed > keep {
		x.flushed = keep
		if err := x.tailf.Truncate(int64(keep) * tailRecord); err != nil {
			return fmt.Errorf("index: truncate: %w", err)
		}
		x.tailDirty = true
	}
	return x.setHead()
}

// unseal rebuilds the first len(keep) blocks of sealed section s, from
// vectors and hashes that pass their checksums.
func (x *Index) unseal(s uint64, keep []tailBlock) error {
	if len(keep) == 0 {
		return nil
	}
	if err := x.readSection(s); err != nil {
		return err
	}
	x.untranspose(keep)
	start := x.first + s*SectionSize
	for i := range keep {
		h, err := x.Hash(start + uint64(i))
		if err != nil {
			return err
		}
		keep[i].number, keep[i].hash = start+uint64(i), h
		if i > 0 {
			keep[i].parent = keep[i-1].hash
		}
	}
	if s > 0 {
		h, err := x.Hash(start - 1)
		if err != nil {
			return err
		}
		keep[0].parent = h
	}
	return nil
}

// removeEpochsFrom deletes the epoch files from epoch e on: they hold no
// sealed section any more.
func (x *Index) removeEpochsFrom(e uint64) error {
	for ; ; e++ {
		if ep, ok := x.epochs[e]; ok {
			ep.close()
			delete(x.epochs, e)
		}
		err := os.Remove(path(x.dir, epochName(e)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
}
