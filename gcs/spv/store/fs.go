package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// fsys is what a store needs of a directory. osDir is the real one; memDir
// keeps a store in memory, and the tests inject faults and crashes through
// their own.
type fsys interface {
	open(name string) (file, error) // read-write, created if missing
	// readFile reads a whole file, or fails with a *sizeError without
	// reading it if it holds more than limit bytes.
	readFile(name string, limit int64) ([]byte, error)
	rename(from, to string) error
	remove(name string) error // no error if missing
	syncDir() error
	lock() (release func() error, err error)
	String() string
}

type file interface {
	io.ReaderAt
	io.WriterAt
	Truncate(size int64) error
	Sync() error
	Close() error
	size() (int64, error)
}

// osDir is a directory on disk.
type osDir string

func (d osDir) path(name string) string { return filepath.Join(string(d), name) }
func (d osDir) String() string          { return string(d) }

func (d osDir) open(name string) (file, error) {
	f, err := os.OpenFile(d.path(name), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

func (d osDir) rename(from, to string) error { return os.Rename(d.path(from), d.path(to)) }

func (d osDir) readFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(d.path(name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, &sizeError{fi.Size(), limit}
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// sizeError is a file larger than its reader accepts.
type sizeError struct{ size, limit int64 }

func (e *sizeError) Error() string {
	return fmt.Sprintf("%d bytes, more than the %d it may hold", e.size, e.limit)
}

func (d osDir) remove(name string) error {
	if err := os.Remove(d.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func (d osDir) syncDir() error {
	f, err := os.Open(string(d))
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func (d osDir) lock() (func() error, error) { return lockDir(d.path("lock")) }

type osFile struct{ *os.File }

func (f osFile) size() (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// memDir keeps a store's files in memory: a store for one run.
type memDir struct {
	mu    sync.Mutex
	files map[string]*memFile
}

func newMemDir() *memDir { return &memDir{files: make(map[string]*memFile)} }

func (d *memDir) String() string { return "memory" }

func (d *memDir) open(name string) (file, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.files[name]
	if !ok {
		f = new(memFile)
		d.files[name] = f
	}
	return f, nil
}

func (d *memDir) readFile(name string, limit int64) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.files[name]
	switch {
	case !ok:
		return nil, fs.ErrNotExist
	case f.n > limit:
		return nil, &sizeError{f.n, limit}
	}
	return f.bytes(), nil
}

func (d *memDir) rename(from, to string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.files[from]
	if !ok {
		return fs.ErrNotExist
	}
	d.files[to] = f
	delete(d.files, from)
	return nil
}

func (d *memDir) remove(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.files, name)
	return nil
}

func (d *memDir) syncDir() error              { return nil }
func (d *memDir) lock() (func() error, error) { return func() error { return nil }, nil }

// memFile keeps a file in chunks, so that a growing file is never copied
// (a copy of a slice of 100 MB briefly needs twice that).
type memFile struct {
	chunks [][]byte
	n      int64
}

const memChunk = 1 << 20

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.n {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off < f.n {
		c := f.chunks[off/memChunk][off%memChunk:]
		m := copy(p[n:], c[:min(int64(len(c)), f.n-off)])
		n, off = n+m, off+int64(m)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *memFile) WriteAt(p []byte, off int64) (int, error) {
	if end := off + int64(len(p)); end > f.n {
		f.Truncate(end)
	}
	for n := 0; n < len(p); {
		m := copy(f.chunks[off/memChunk][off%memChunk:], p[n:])
		n, off = n+m, off+int64(m)
	}
	return len(p), nil
}

func (f *memFile) Truncate(size int64) error {
	for int64(len(f.chunks))*memChunk < size {
		f.chunks = append(f.chunks, make([]byte, memChunk))
	}
	if size < f.n { // what a later extension reads must be zeros
		if size%memChunk != 0 {
			clear(f.chunks[size/memChunk][size%memChunk:])
		}
		f.chunks = f.chunks[:(size+memChunk-1)/memChunk]
	}
	f.n = size
	return nil
}

func (f *memFile) bytes() []byte {
	b := make([]byte, f.n)
	f.ReadAt(b, 0)
	return b
}

func (f *memFile) Sync() error          { return nil }
func (f *memFile) Close() error         { return nil }
func (f *memFile) size() (int64, error) { return f.n, nil }
