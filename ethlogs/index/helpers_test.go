package index

import (
	"os"
	"testing"

	"github.com/chainsieve/chainsieve/core/flock"
)

// crash abandons a writer as a killed process would: nothing synced or
// flushed, files closed and locks released by the "kernel".
func (x *Index) crash() {
	x.closeFiles()
	if x.readers != nil {
		x.readers.Close()
	}
	if x.lock != nil && x.lock.f != nil {
		x.lock.f.Close()
		x.lock.f = nil
	}
}

// flip inverts one bit of a file in place, returning a func that restores it.
func flip(t testing.TB, name string, off int64) (restore func()) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		t.Fatal(err)
	}
	orig := b[0]
	b[0] ^= 0x10
	if _, err := f.WriteAt(b[:], off); err != nil {
		t.Fatal(err)
	}
	return func() {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.WriteAt([]byte{orig}, off)
	}
}

// build makes an index of c in dir and closes it cleanly.
func (c *chain) build(t testing.TB, dir string) {
	t.Helper()
	x, err := Create(dir, c.first)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.blooms {
		if err := x.AppendBloom(c.first+uint64(i), c.hashes[i], c.parent(i), &c.blooms[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

func needFlock(t testing.TB) {
	if !flock.Supported {
		t.Skip("no flock on this system: directories are not locked")
	}
}
