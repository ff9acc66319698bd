package index

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"
	"syscall"
	"testing"
	"unicode"

	"github.com/chainsieve/chainsieve/core/flock"
	"github.com/chainsieve/chainsieve/ethlogs"
)

// The fuzz targets feed arbitrary bytes through each kind of index file
// and then through Open, Candidates, Hash, Append and a snapshot. Each
// starts from a cleanly closed index of 2 sections and 300 tail blocks and
// requires, whatever the bytes: no panic, less than 64 MiB allocated, and
// either an error or the right answer, that of the linear scan over a
// prefix of the original chain (a damaged index may only be cut back,
// never answer otherwise).
//
//	go test -run XXX -fuzz FuzzTail -fuzztime 3m ./ethlogs/index/

var template struct {
	once    sync.Once
	dir     string
	c       *chain
	queries []*ethlogs.Matcher
	answers [][]uint64 // each query's linear scan over the whole chain
	err     error
}

const fuzzBlocks = 2*SectionSize + 300

func fuzzTemplate(t testing.TB) (string, *chain) {
	template.once.Do(func() {
		removeStaleTemplates()
		template.dir, template.err = os.MkdirTemp("", fmt.Sprintf("index-fuzz-%d-", os.Getpid()))
		if template.err != nil {
			return
		}
		c := newChain(70, 7, fuzzBlocks)
		c.build(t, filepath.Join(template.dir, "template"))
		for _, q := range c.queries(rand.New(rand.NewPCG(70, 70))) {
			m := q.Compile()
			template.queries = append(template.queries, m)
			template.answers = append(template.answers, m.Scan(nil, c.first, c.blooms))
		}
		template.c = c
	})
	if template.err != nil {
		t.Fatal(template.err)
	}
	return filepath.Join(template.dir, "template"), template.c
}

// removeStaleTemplates deletes the templates of fuzz workers that are gone:
// the fuzzer kills its workers, so their TestMain never cleans up.
func removeStaleTemplates() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "index-fuzz-*"))
	for _, d := range dirs {
		var pid int
		if _, err := fmt.Sscanf(filepath.Base(d), "index-fuzz-%d-", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		if p, err := os.FindProcess(pid); err != nil || p.Signal(syscall.Signal(0)) != nil {
			os.RemoveAll(d)
		}
	}
}

// fuzzDir copies the template's small files into a new directory and links
// its epoch file, which no fuzzed run writes (none seals or cuts a section).
func fuzzDir(t testing.TB) (dir string, c *chain) {
	src, c := fuzzTemplate(t)
	dir, err := os.MkdirTemp(template.dir, "run")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{metaFile, stateFile, sectionsFile, hashesFile, tailFile} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(src, epochName(0)), filepath.Join(dir, epochName(0))); err != nil {
		t.Fatal(err)
	}
	return dir, c
}

// checkIndex is the oracle: every answer of an index opened on damaged
// files is an error or the original chain's.
func checkIndex(t *testing.T, dir string, c *chain) {
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	defer func() {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
			t.Fatalf("the run allocated %d MiB", d>>20)
		}
	}()
	x, err := Open(dir)
	if err != nil {
		return
	}
	checkAnswers(t, x, c)
	// Appending the chain's next blocks goes on from whatever was kept, and
	// cutting back inside the tail.
	n := int(x.Len())
	for i := n; i < min(n+100, len(c.blooms)); i++ {
		if err := x.AppendBloom(c.first+uint64(i), c.hashes[i], c.parent(i), &c.blooms[i]); err != nil {
			break
		}
	}
	if x.Len() > 10 && x.Len()%SectionSize > 5 {
		x.Truncate(x.first + x.Len() - 5)
	}
	if err := x.Close(); err != nil {
		return
	}
	y, err := OpenSnapshot(dir)
	if err != nil {
		return
	}
	defer y.Close()
	checkAnswers(t, y, c)
}

func checkAnswers(t *testing.T, x *Index, c *chain) {
	n := x.Len()
	if x.First() != c.first || n > uint64(len(c.blooms)) {
		t.Fatalf("the index holds blocks %d to %d, the chain %d to %d", x.First(), x.First()+n, c.first, c.first+uint64(len(c.blooms)))
	}
	if head, hash, ok := x.Head(); ok && (head != c.first+n-1 || hash != c.hashes[n-1]) {
		t.Fatalf("Head() = %d %s, want %d %s", head, hash, c.first+n-1, c.hashes[n-1])
	}
	for _, i := range []uint64{0, SectionSize - 1, SectionSize, 2*SectionSize + 7, n - 1} {
		if i >= n {
			continue
		}
		if h, err := x.Hash(c.first + i); err == nil && h != c.hashes[i] {
			t.Fatalf("Hash(%d) = %s, want %s", c.first+i, h, c.hashes[i])
		}
	}
	for k, m := range template.queries {
		got, err := x.Candidates(nil, m, 0, ^uint64(0))
		if err != nil {
			continue
		}
		all := template.answers[k]
		want := all[:sort.Search(len(all), func(i int) bool { return all[i] >= c.first+n })]
		if !slices.Equal(got, want) {
			t.Fatalf("Candidates = %d blocks, the linear scan over the %d blocks held %d", len(got), n, len(want))
		}
	}
}

// fuzzWholeFile is a target for a small file, replaced whole.
func fuzzWholeFile(f *testing.F, name string) {
	src, _ := fuzzTemplate(f)
	orig, err := os.ReadFile(filepath.Join(src, name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(orig)
	f.Add([]byte{})
	if len(orig) > 3 {
		f.Add(orig[:len(orig)-3])
		f.Add(append(slices.Clone(orig), orig[:len(orig)/2]...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir, c := fuzzDir(t)
		defer os.RemoveAll(dir)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkIndex(t, dir, c)
	})
}

func FuzzMeta(f *testing.F)     { fuzzWholeFile(f, metaFile) }
func FuzzState(f *testing.F)    { fuzzWholeFile(f, stateFile) }
func FuzzSections(f *testing.F) { fuzzWholeFile(f, sectionsFile) }

// FuzzTail also gets seeds made of whole records moved around: records
// with good checksums in the wrong place.
func FuzzTail(f *testing.F) {
	src, _ := fuzzTemplate(f)
	orig, err := os.ReadFile(filepath.Join(src, tailFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(slices.Concat(orig[:tailRecord*10], orig[tailRecord*12:tailRecord*13], orig[tailRecord*11:]))
	f.Add(slices.Concat(orig[:tailRecord*5], orig[tailRecord*4:]))
	fuzzWholeFile(f, tailFile)
}

// patch applies the edits encoded in data to a file: 5 bytes each, a
// region selector, a 3-byte offset within the region, a byte to XOR.
func patch(t *testing.T, name string, data []byte, region func(sel byte, off uint32) int64) (restore func()) {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type edit struct {
		off  int64
		orig byte
	}
	var undo []edit
	for ; len(data) >= 5; data = data[5:] {
		off := region(data[0], uint32(data[1])|uint32(data[2])<<8|uint32(data[3])<<16)
		var b [1]byte
		if _, err := f.ReadAt(b[:], off); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		undo = append(undo, edit{off, b[0]})
		b[0] ^= data[4]
		if _, err := f.WriteAt(b[:], off); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, e := range slices.Backward(undo) {
			f.WriteAt([]byte{e.orig}, e.off)
		}
	}
}

func edits(es ...[5]byte) []byte {
	var out []byte
	for _, e := range es {
		out = append(out, e[:]...)
	}
	return out
}

// FuzzEpoch edits the vectors and checksums of the two sealed sections (or
// any byte of the file), and the file's length.
func FuzzEpoch(f *testing.F) {
	f.Add(edits([5]byte{0, 1, 2, 3, 0x10}), uint32(0))
	f.Add(edits([5]byte{1, 9, 0, 0, 0xff}, [5]byte{0, 9, 0, 0, 1}), uint32(0))
	f.Add([]byte{}, uint32(12345))
	f.Fuzz(func(t *testing.T, data []byte, size uint32) {
		dir, c := fuzzDir(t)
		defer os.RemoveAll(dir)
		name := filepath.Join(dir, epochName(0))
		if size%7 == 1 { // a file of the wrong length, replacing the link
			os.Remove(name)
			if err := os.WriteFile(name, make([]byte, int(size>>3)%(1<<20)), 0o644); err != nil {
				t.Fatal(err)
			}
		} else { // edits to the template's file, undone after the run
			defer patch(t, name, data, func(sel byte, off uint32) int64 {
				s := uint64(sel & 1)
				switch sel >> 1 % 3 {
				case 0: // a vector byte: bit, byte within the vector
					return vectorOffset(int(off>>9)%bloomBits, s) + int64(off%vectorBytes)
				case 1: // a checksum byte
					return sumOffset(int(off>>2)%bloomBits, s) + int64(off%4)
				}
				return int64(off) * 97 % epochBytes
			})()
		}
		checkIndex(t, dir, c)
	})
}

// FuzzHashes edits the block hashes of the two sealed sections and the
// file's length.
func FuzzHashes(f *testing.F) {
	f.Add(edits([5]byte{0, 1, 2, 0, 0x10}), uint32(2*hashesBytes))
	f.Add([]byte{}, uint32(hashesBytes+5))
	f.Fuzz(func(t *testing.T, data []byte, size uint32) {
		dir, c := fuzzDir(t)
		defer os.RemoveAll(dir)
		name := filepath.Join(dir, hashesFile)
		patch(t, name, data, func(sel byte, off uint32) int64 { return int64(off) % (2 * hashesBytes) })
		if size%5 == 0 {
			if err := os.Truncate(name, int64(size)%(3*hashesBytes)); err != nil {
				t.Fatal(err)
			}
		}
		checkIndex(t, dir, c)
	})
}

// FuzzLock writes arbitrary bytes as the writer's record: while another
// open file holds the lock, Open fails with a *LockedError whose message is
// short and printable; once free, Open succeeds.
func FuzzLock(f *testing.F) {
	needFlock(f)
	f.Add([]byte(`{"pid":42,"since":"2026-11-25T09:32:00Z","cmd":["chainsieve","eth","scan"]}`))
	f.Add([]byte(`{"pid":42,"cmd":["` + "\x1b[31m\u202e" + `"]}`))
	f.Add([]byte{0xff, 0xfe, '{'})
	f.Fuzz(func(t *testing.T, data []byte) {
		dir, _ := fuzzDir(t)
		defer os.RemoveAll(dir)
		if err := os.WriteFile(filepath.Join(dir, lockFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		holder, err := os.Open(filepath.Join(dir, lockFile))
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		if ok, err := flock.TryLock(holder, flock.Exclusive); !ok || err != nil {
			t.Fatalf("flock.TryLock = %v, %v", ok, err)
		}
		_, err = Open(dir)
		var le *LockedError
		if !errors.As(err, &le) {
			t.Fatalf("Open of a held index = %v, want a *LockedError", err)
		}
		msg := le.Error()
		if len(msg) > 200*4+len(dir)+200 {
			t.Fatalf("the message has %d bytes", len(msg))
		}
		for _, r := range msg {
			if !unicode.IsPrint(r) {
				t.Fatalf("the message holds %U: %q", r, msg)
			}
		}
		flock.Unlock(holder)
		x, err := Open(dir)
		if err != nil {
			t.Fatalf("Open once free = %v", err)
		}
		x.Close()
	})
}
