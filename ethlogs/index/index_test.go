package index

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// chain is a synthetic run of blocks: blooms built from a small pool of
// values (so that queries have true hits) plus noise bits.
type chain struct {
	first  uint64
	hashes []common.Hash
	blooms []ethlogs.Bloom
	pool   [][]byte
}

func newChain(seed uint64, first uint64, n int) *chain {
	r := rand.New(rand.NewPCG(seed, 7))
	c := &chain{first: first, pool: make([][]byte, 40)}
	for i := range c.pool {
		c.pool[i] = binary.BigEndian.AppendUint64(nil, uint64(i))
	}
	c.extend(r, n, 0)
	return c
}

// extend appends n blocks; salt makes a different branch.
func (c *chain) extend(r *rand.Rand, n int, salt uint64) {
	for range n {
		var b ethlogs.Bloom
		for range r.IntN(6) {
			b.Add(c.pool[r.IntN(len(c.pool))])
		}
		for range r.IntN(300) {
			b[r.IntN(ethlogs.BloomLength)] |= 1 << r.IntN(8)
		}
		num := c.first + uint64(len(c.blooms))
		c.blooms = append(c.blooms, b)
		c.hashes = append(c.hashes, crypto.Keccak256Hash(binary.BigEndian.AppendUint64(nil, num), binary.BigEndian.AppendUint64(nil, salt)))
	}
}

func (c *chain) parent(i int) common.Hash {
	if i == 0 {
		return common.Hash{0xaa}
	}
	return c.hashes[i-1]
}

func (c *chain) appendTo(t *testing.T, x *Index, from int) {
	t.Helper()
	for i := from; i < len(c.blooms); i++ {
		if err := x.AppendBloom(c.first+uint64(i), c.hashes[i], c.parent(i), &c.blooms[i]); err != nil {
			t.Fatalf("AppendBloom(%d) = %v", c.first+uint64(i), err)
		}
	}
}

func (c *chain) queries(r *rand.Rand) []ethlogs.Query {
	addr := func() common.Address { return common.BytesToAddress(c.pool[r.IntN(len(c.pool))]) }
	topic := func() common.Hash { return common.BytesToHash(c.pool[r.IntN(len(c.pool))]) }
	return []ethlogs.Query{
		{},
		{Addresses: []common.Address{addr()}},
		{Topics: [][]common.Hash{{topic()}}},
		{Addresses: []common.Address{addr(), addr()}, Topics: [][]common.Hash{nil, {topic(), topic()}}},
		{Addresses: []common.Address{addr()}, Topics: [][]common.Hash{{topic()}, {topic()}, nil, {topic()}}},
		{Topics: [][]common.Hash{{common.Hash{0xde, 0xad}}}},
	}
}

// checkSame requires the index to give the linear scan's candidates for
// several queries and ranges.
func (c *chain) checkSame(t *testing.T, x *Index, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 9))
	last := c.first + uint64(len(c.blooms)) - 1
	ranges := [][2]uint64{{0, ^uint64(0)}, {c.first, last}}
	for range 3 {
		a := c.first + uint64(r.IntN(len(c.blooms)))
		b := a + uint64(r.IntN(3*SectionSize))
		ranges = append(ranges, [2]uint64{a, b})
	}
	for _, q := range c.queries(r) {
		m := q.Compile()
		for _, rg := range ranges {
			lo, hi := max(rg[0], c.first), min(rg[1], last)
			var want []uint64
			if lo <= hi {
				want = m.Scan(nil, lo, c.blooms[lo-c.first:hi-c.first+1])
			}
			got, err := x.Candidates(nil, m, rg[0], rg[1])
			if err != nil {
				t.Fatalf("Candidates(%v) = %v", rg, err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("Candidates(query %v, %d..%d) = %d blocks, want %d (linear scan)", q.Addresses, rg[0], rg[1], len(got), len(want))
			}
		}
	}
}

func TestIndexMatchesLinearScan(t *testing.T) {
	c := newChain(1, 1000, 3*SectionSize+700)
	x, err := Create(t.TempDir(), c.first)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	c.appendTo(t, x, 0)
	if n, h, ok := x.Head(); !ok || n != c.first+uint64(len(c.blooms))-1 || h != c.hashes[len(c.hashes)-1] {
		t.Fatalf("Head() = %d, %s, %v, want the last block", n, h, ok)
	}
	c.checkSame(t, x, 1)
	c.checkHashes(t, x)
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	// A snapshot beside the writer, mapped and read with ReadAt (the path
	// of big-endian machines and of systems without mmap).
	for _, noMap := range []bool{false, true} {
		y, err := OpenSnapshot(x.dir)
		if err != nil {
			t.Fatal(err)
		}
		y.noMap = noMap
		c.checkSame(t, y, 2)
		c.checkHashes(t, y)
		y.Close()
	}
}

func (c *chain) checkHashes(t *testing.T, x *Index) {
	t.Helper()
	for _, i := range []int{0, 5, SectionSize, 2*SectionSize + 17, len(c.blooms) - 1} {
		if i >= len(c.blooms) {
			continue
		}
		if h, err := x.Hash(c.first + uint64(i)); err != nil || h != c.hashes[i] {
			t.Errorf("Hash(%d) = %s, %v, want %s", c.first+uint64(i), h, err, c.hashes[i])
		}
	}
}

// TestIndexPersists writes without mappings (as on systems without mmap)
// and reads back with them.
func TestIndexPersists(t *testing.T) {
	dir := t.TempDir()
	c := newChain(2, 0, 2*SectionSize+300)
	x, err := Create(dir, c.first)
	if err != nil {
		t.Fatal(err)
	}
	x.noMap = true
	c.appendTo(t, x, 0)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir, 0); err == nil {
		t.Fatal("Create over an existing index = nil error")
	}
	y, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	if y.Len() != uint64(len(c.blooms)) {
		t.Fatalf("Len() after reopening = %d, want %d", y.Len(), len(c.blooms))
	}
	c.checkSame(t, y, 2)
	if err := y.Verify(); err != nil {
		t.Fatalf("Verify = %v", err)
	}
	// Appending continues across a reopen, through the next seal.
	r := rand.New(rand.NewPCG(3, 3))
	n := len(c.blooms)
	c.extend(r, SectionSize, 0)
	c.appendTo(t, y, n)
	c.checkSame(t, y, 3)
}

func TestIndexRefusesUnlinked(t *testing.T) {
	c := newChain(4, 50, 10)
	x, err := Create(t.TempDir(), c.first)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.AppendBloom(51, c.hashes[1], c.parent(1), &c.blooms[1]); !errors.Is(err, ethlogs.ErrParentLink) {
		t.Errorf("AppendBloom(block 51 first) = %v, want ErrParentLink", err)
	}
	c.appendTo(t, x, 0)
	if err := x.AppendBloom(60, common.Hash{1}, common.Hash{2}, &c.blooms[0]); !errors.Is(err, ethlogs.ErrParentLink) {
		t.Errorf("AppendBloom(wrong parent) = %v, want ErrParentLink", err)
	}
	if err := x.AppendBloom(61, common.Hash{1}, c.hashes[9], &c.blooms[0]); !errors.Is(err, ethlogs.ErrParentLink) {
		t.Errorf("AppendBloom(gap) = %v, want ErrParentLink", err)
	}
}

func TestIndexTruncate(t *testing.T) {
	tests := []struct {
		name string
		keep int // blocks kept
	}{
		{"inside the tail", 2*SectionSize + 100},
		{"inside a sealed section", SectionSize + 1234},
		{"at a section boundary", SectionSize},
		{"to the first block", 0},
	}
	for i, tt := range tests {
		dir := t.TempDir()
		c := newChain(uint64(10+i), 7, 2*SectionSize+500)
		x, err := Create(dir, c.first)
		if err != nil {
			t.Fatal(err)
		}
		c.appendTo(t, x, 0)
		if err := x.Truncate(c.first + uint64(tt.keep)); err != nil {
			t.Fatalf("%s: Truncate = %v", tt.name, err)
		}
		if x.Len() != uint64(tt.keep) {
			t.Fatalf("%s: Len() = %d, want %d", tt.name, x.Len(), tt.keep)
		}
		c.blooms, c.hashes = c.blooms[:tt.keep], c.hashes[:tt.keep]
		if tt.keep > 0 {
			c.checkSame(t, x, uint64(i))
		}
		// The new branch: other blooms, other hashes, across a seal.
		c.extend(rand.New(rand.NewPCG(uint64(i), 99)), SectionSize+50, 1)
		c.appendTo(t, x, tt.keep)
		c.checkSame(t, x, uint64(i)+100)
		x.Close()
		y, err := Open(dir)
		if err != nil {
			t.Fatalf("%s: Open after truncate = %v", tt.name, err)
		}
		c.checkSame(t, y, uint64(i)+200)
		y.Close()
	}
}

// TestOpenRepairsTornTail appends half a record and a record that does not
// continue the chain, as a crash mid-write can leave: Open keeps the whole
// records before them.
func TestOpenRepairsTornTail(t *testing.T) {
	dir := t.TempDir()
	c := newChain(21, 0, SectionSize+20)
	x, err := Create(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	c.appendTo(t, x, 0)
	x.Close()
	path := filepath.Join(dir, tailFile)
	data, _ := os.ReadFile(path)
	torn := append(slices.Clone(data[:len(data)-tailRecord]), data[len(data)-tailRecord:len(data)-10]...)
	os.WriteFile(path, torn, 0o644)
	y, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n, h, _ := y.Head(); n != uint64(len(c.blooms))-2 || h != c.hashes[len(c.hashes)-2] {
		t.Errorf("Head() after a torn write = %d %s, want %d %s", n, h, len(c.blooms)-2, c.hashes[len(c.hashes)-2])
	}
	y.Close()
}

// TestOpenRepairsInterruptedSeal replays the two crashes a seal can meet:
// after the section record (the tail file still holds the sealed blocks) and
// before it (the vectors and hashes written, the record not).
func TestOpenRepairsInterruptedSeal(t *testing.T) {
	for _, recorded := range []bool{true, false} {
		dir := t.TempDir()
		c := newChain(30, 0, SectionSize)
		x, err := Create(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		last := len(c.blooms) - 1
		c.blooms, c.hashes = c.blooms[:last], c.hashes[:last]
		c.appendTo(t, x, 0)
		x.Sync()
		tail, _ := os.ReadFile(filepath.Join(dir, tailFile))
		state, _ := os.ReadFile(filepath.Join(dir, stateFile))
		full := newChain(30, 0, SectionSize)
		if err := x.AppendBloom(uint64(last), full.hashes[last], full.hashes[last-1], &full.blooms[last]); err != nil {
			t.Fatal(err)
		}
		x.Close()
		os.WriteFile(filepath.Join(dir, tailFile), tail, 0o644)
		os.WriteFile(filepath.Join(dir, stateFile), state, 0o644) // the crash came before any later sync
		want := SectionSize
		if !recorded {
			os.Truncate(filepath.Join(dir, sectionsFile), 0)
			want = SectionSize - 1
		}
		y, err := Open(dir)
		if err != nil {
			t.Fatalf("recorded %v: Open = %v", recorded, err)
		}
		if y.Len() != uint64(want) {
			t.Errorf("recorded %v: Len() = %d, want %d", recorded, y.Len(), want)
		}
		if !recorded {
			full.appendTo(t, y, last)
		}
		full.checkSame(t, y, 30)
		y.Close()
	}
}

// TestAppendAllocs pins the per-header path: appending, flushing the tail
// and sealing reuse the index's buffers.
func TestAppendAllocs(t *testing.T) {
	c := newChain(40, 0, 2*SectionSize-500)
	x, err := Create(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	c.appendTo(t, x, 0) // grows the buffers in a first seal
	i := len(c.blooms)
	c.extend(rand.New(rand.NewPCG(40, 40)), 1001, 0)
	allocs := testing.AllocsPerRun(1000, func() { // through the second seal
		if err := x.AppendBloom(uint64(i), c.hashes[i], c.parent(i), &c.blooms[i]); err != nil {
			t.Fatal(err)
		}
		i++
	})
	if allocs != 0 {
		t.Errorf("AppendBloom allocates %v times per header, want 0", allocs)
	}
}
