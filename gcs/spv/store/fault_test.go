package store

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"slices"
	"sync"
)

var errCrash = errors.New("crashed")

// faultDir is a directory that can crash at any operation and then show
// what a disk that honours fsync would hold: every synced byte, and any
// subset of what was written since, a write possibly torn. Directory
// entries (create, rename, remove) are durable once the directory is
// synced.
type faultDir struct {
	mu      sync.Mutex
	entries map[string]*faultFile // what opens see
	durable map[string]*faultFile // the entries at the last syncDir
	ops     int                   // operations so far
	crashAt int                   // the operation that crashes; -1 never
	failAt  int                   // the operation that fails with EIO once; -1 never
	crashed bool
}

type faultFile struct {
	d      *faultDir
	data   []byte // what reads see
	synced []byte // what survives a crash for sure
	log    []write
}

// write is an operation on a file since its last sync: data at off, or a
// truncate to off when data is nil.
type write struct {
	off  int64
	data []byte
}

var errIO = errors.New("input/output error")

func newFaultDir() *faultDir {
	return &faultDir{entries: map[string]*faultFile{}, durable: map[string]*faultFile{}, crashAt: -1, failAt: -1}
}

// step counts an operation and returns the error it fails with.
func (d *faultDir) step() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.crashed {
		return errCrash
	}
	d.ops++
	switch d.ops {
	case d.crashAt:
		d.crashed = true
		return errCrash
	case d.failAt:
		return errIO
	}
	return nil
}

func (d *faultDir) String() string { return "faultdir" }

func (d *faultDir) open(name string) (file, error) {
	if err := d.step(); err != nil {
		return nil, err
	}
	f, ok := d.entries[name]
	if !ok {
		f = &faultFile{d: d}
		d.entries[name] = f
	}
	return f, nil
}

func (d *faultDir) readFile(name string, limit int64) ([]byte, error) {
	if err := d.step(); err != nil {
		return nil, err
	}
	f, ok := d.entries[name]
	switch {
	case !ok:
		return nil, fs.ErrNotExist
	case int64(len(f.data)) > limit:
		return nil, &sizeError{int64(len(f.data)), limit}
	}
	return slices.Clone(f.data), nil
}

func (d *faultDir) rename(from, to string) error {
	if err := d.step(); err != nil {
		return err
	}
	f, ok := d.entries[from]
	if !ok {
		return fs.ErrNotExist
	}
	d.entries[to] = f
	delete(d.entries, from)
	return nil
}

func (d *faultDir) remove(name string) error {
	if err := d.step(); err != nil {
		return err
	}
	delete(d.entries, name)
	return nil
}

func (d *faultDir) syncDir() error {
	if err := d.step(); err != nil {
		return err
	}
	d.durable = make(map[string]*faultFile, len(d.entries))
	for k, v := range d.entries {
		d.durable[k] = v
	}
	return nil
}

func (d *faultDir) lock() (func() error, error) { return func() error { return nil }, nil }

func (f *faultFile) ReadAt(p []byte, off int64) (int, error) {
	if err := f.d.step(); err != nil {
		return 0, err
	}
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *faultFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.d.step(); err != nil {
		return 0, err
	}
	f.data = apply(f.data, write{off, p})
	f.log = append(f.log, write{off, slices.Clone(p)})
	return len(p), nil
}

func (f *faultFile) Truncate(size int64) error {
	if err := f.d.step(); err != nil {
		return err
	}
	f.data = apply(f.data, write{off: size})
	f.log = append(f.log, write{off: size})
	return nil
}

func (f *faultFile) Sync() error {
	if err := f.d.step(); err != nil {
		return err
	}
	f.synced, f.log = slices.Clone(f.data), nil
	return nil
}

func (f *faultFile) Close() error { return nil }

func (f *faultFile) size() (int64, error) {
	if err := f.d.step(); err != nil {
		return 0, err
	}
	return int64(len(f.data)), nil
}

// apply returns b after w.
func apply(b []byte, w write) []byte {
	if w.data == nil {
		if int(w.off) <= len(b) {
			return b[:w.off]
		}
		return append(b, make([]byte, int(w.off)-len(b))...)
	}
	if end := int(w.off) + len(w.data); end > len(b) {
		b = append(b, make([]byte, end-len(b))...)
	}
	copy(b[w.off:], w.data)
	return b
}

// image is how the disk looks after a crash.
type image int

const (
	syncedOnly   image = iota // nothing unsynced reached the disk
	everything                // all of it did
	torn                      // all but the last write, which reached it halfway
	randomSubset              // a random subset of the unsynced writes, in order
	numImages
)

// afterCrash returns a new directory holding what the disk holds after a
// crash, as img says.
func (d *faultDir) afterCrash(img image, r *rand.Rand) *faultDir {
	nd := newFaultDir()
	for name, f := range d.durable {
		b := slices.Clone(f.synced)
		for i, w := range f.log {
			switch {
			case img == syncedOnly, img == randomSubset && r.IntN(2) == 0:
				continue
			case img == torn && i == len(f.log)-1 && w.data != nil:
				w.data = w.data[:len(w.data)/2]
			}
			b = apply(b, w)
		}
		nf := &faultFile{d: nd, data: b, synced: slices.Clone(b)}
		nd.entries[name], nd.durable[name] = nf, nf
	}
	return nd
}
