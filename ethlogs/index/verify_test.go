package index

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
)

// queryReading returns a matcher whose only value has bloom bit b among its
// three bits, so that it reads the vectors of b.
func queryReading(b int) *ethlogs.Matcher {
	for i := uint64(0); ; i++ {
		var topic common.Hash
		binary.BigEndian.PutUint64(topic[:], i)
		if bits := ethlogs.ValueOf(topic[:]).Bits(); slices.Contains(bits[:], uint(b)) {
			q := ethlogs.Query{Topics: [][]common.Hash{{topic}}}
			return q.Compile()
		}
	}
}

// TestOpenReadsNoSealedData: opening a cleanly closed index reads no epoch
// file (Open costs the same at any size): with the epoch file gone it still
// opens, and the first query that needs it says it is missing.
func TestOpenReadsNoSealedData(t *testing.T) {
	dir := t.TempDir()
	c := newChain(50, 0, 2*SectionSize+10)
	c.build(t, dir)
	if err := os.Rename(filepath.Join(dir, epochName(0)), filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	x, err := Open(dir)
	if err != nil {
		t.Fatalf("Open without its epoch file = %v, want nil (Open reads no vectors)", err)
	}
	defer x.Close()
	if x.Len() != uint64(len(c.blooms)) {
		t.Fatalf("Len() = %d, want %d", x.Len(), len(c.blooms))
	}
	if _, err := x.Candidates(nil, queryReading(7), 0, 100); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Candidates without the epoch file = %v, want ErrCorrupt", err)
	}
	// The tail needs no epoch file.
	if _, err := x.Candidates(nil, queryReading(7), 2*SectionSize, 3*SectionSize); err != nil {
		t.Errorf("Candidates over the tail = %v", err)
	}
}

// TestQueryDetectsCorruption flips one bit of each kind of sealed data in a
// cleanly closed index: Open succeeds, and every read of the damaged data
// (a query reading that vector, Hash in that section, Verify) fails with
// ErrCorrupt, in writers and snapshots, mapped or not; queries that do not
// read it still answer, correctly.
func TestQueryDetectsCorruption(t *testing.T) {
	dir := t.TempDir()
	c := newChain(51, 0, 2*SectionSize+10)
	c.build(t, dir)
	const bit, section = 1000, 1
	tests := []struct {
		name     string
		file     string
		off      int64
		matcher  *ethlogs.Matcher // reads the damage
		hashOf   uint64           // a block whose Hash reads it, or 0
		readable *ethlogs.Matcher // does not read it
	}{
		{"vector", epochName(0), vectorOffset(bit, section) + 3, queryReading(bit), 0, queryReading(bit + 1)},
		{"vector checksum", epochName(0), sumOffset(bit, section) + 1, queryReading(bit), 0, queryReading(bit + 1)},
		// Section 0: Open reads the last section's hashes, to link the tail.
		{"block hash", hashesFile, 5, nil, 3, queryReading(bit)},
		{"section record", sectionsFile, 2, nil, SectionSize - 1, queryReading(bit)},
	}
	open := []struct {
		name string
		open func() (*Index, error)
	}{
		{"writer", func() (*Index, error) { return Open(dir) }},
		{"snapshot", func() (*Index, error) { return OpenSnapshot(dir) }},
		{"snapshot without mmap", func() (*Index, error) {
			x, err := OpenSnapshot(dir)
			if x != nil {
				x.noMap = true
			}
			return x, err
		}},
	}
	for _, tt := range tests {
		restore := flip(t, filepath.Join(dir, tt.file), tt.off)
		for _, o := range open {
			x, err := o.open()
			if err != nil {
				t.Fatalf("%s, %s: Open = %v, want nil (the damage is in data Open does not read)", tt.name, o.name, err)
			}
			if tt.matcher != nil {
				if _, err := x.Candidates(nil, tt.matcher, 0, ^uint64(0)); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s, %s: Candidates = %v, want ErrCorrupt", tt.name, o.name, err)
				}
				if _, err := x.Candidates(nil, tt.matcher, 0, SectionSize-1); err != nil {
					t.Errorf("%s, %s: Candidates in an undamaged section = %v", tt.name, o.name, err)
				}
			}
			if tt.hashOf != 0 {
				if _, err := x.Hash(tt.hashOf); !errors.Is(err, ErrCorrupt) {
					t.Errorf("%s, %s: Hash(%d) = %v, want ErrCorrupt", tt.name, o.name, tt.hashOf, err)
				}
			}
			got, err := x.Candidates(nil, tt.readable, 0, ^uint64(0))
			if want := tt.readable.Scan(nil, 0, c.blooms); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s, %s: a query not reading the damage = %d blocks, %v, want %d", tt.name, o.name, len(got), err, len(want))
			}
			if err := x.Verify(); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s, %s: Verify = %v, want ErrCorrupt", tt.name, o.name, err)
			}
			x.Close()
		}
		restore()
	}
	restore := flip(t, filepath.Join(dir, metaFile), 3)
	if _, err := Open(dir); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open(meta changed) = %v, want ErrCorrupt", err)
	}
	restore()
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.Verify(); err != nil {
		t.Errorf("Verify(restored) = %v", err)
	}
	c.checkSame(t, x, 51)
}

// TestOpenRepairsUnsyncedSections replays a power loss: sections sealed
// after the last Sync kept their records but lost vector data. A writer's
// Open checks exactly those sections and cuts the index back to the first
// bad one; what remains answers like the linear scan, and appending goes on.
func TestOpenRepairsUnsyncedSections(t *testing.T) {
	dir := t.TempDir()
	c := newChain(52, 10, 4*SectionSize+30)
	x, err := Create(dir, c.first)
	if err != nil {
		t.Fatal(err)
	}
	c.blooms, c.hashes = c.blooms[:SectionSize+5], c.hashes[:SectionSize+5]
	c.appendTo(t, x, 0)
	if err := x.Sync(); err != nil { // section 0 durable
		t.Fatal(err)
	}
	full := newChain(52, 10, 4*SectionSize+30)
	full.appendTo(t, x, len(c.blooms)) // sections 1 to 3 sealed, not synced
	x.crash()
	restore := flip(t, filepath.Join(dir, epochName(0)), vectorOffset(77, 2))
	defer restore()
	y, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after a crash = %v", err)
	}
	defer y.Close()
	if y.Len() != 2*SectionSize {
		t.Fatalf("Len() after the repair = %d, want %d (cut at the damaged section 2)", y.Len(), 2*SectionSize)
	}
	full.blooms, full.hashes = full.blooms[:2*SectionSize], full.hashes[:2*SectionSize]
	full.checkSame(t, y, 52)
	more := newChain(52, 10, 4*SectionSize+30)
	more.appendTo(t, y, 2*SectionSize)
	more.checkSame(t, y, 53)
}

func TestOpenRefusesOtherVersions(t *testing.T) {
	dir := t.TempDir()
	c := newChain(53, 0, 10)
	c.build(t, dir)
	os.WriteFile(filepath.Join(dir, metaFile), []byte("chainsieve ethlogs index v1\n0123456789abcdef0123"), 0o644)
	_, err := Open(dir)
	if !errors.Is(err, ErrVersion) {
		t.Fatalf("Open(a v1 index) = %v, want ErrVersion", err)
	}
	if err := Remove(dir); err != nil {
		t.Fatalf("Remove = %v", err)
	}
	x, err := Create(dir, 5)
	if err != nil {
		t.Fatalf("Create after Remove = %v", err)
	}
	x.Close()
}
