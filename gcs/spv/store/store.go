package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/btcsuite/btcd/wire/v2"
)

// File names in a store directory.
const (
	headersFile = "headers"
	filtersFile = "filters"
	stateFile   = "state"
	stateTemp   = "state.tmp"
)

// tailCheck is how many of the last records Open re-reads, checking
// checksums and (for headers) links: what a crash or a lying disk can have
// touched since the last commit, without reading a million records.
const tailCheck = 4096

// Store is a directory of block headers and filter headers; see the
// package doc.
type Store struct {
	dir              fsys
	release          func() error
	headers, filters file

	empty     bool  // Init not yet called
	committed State // what the state file says
	cur       State // including appends not yet committed
	dirty     bool  // cur differs from committed, or files hold uncommitted records
	failed    error // the first write error: the store refuses writes until reopened
	recovered []string
	buf       []byte // scratch for record reads and writes
}

// DefaultDir returns where the CLI keeps the store of network (a
// chaincfg name: mainnet, testnet3, testnet4, signet, regtest): the user
// cache directory's chainsieve/btc/<network>.
func DefaultDir(network string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("store: %w", err)
	}
	return filepath.Join(cache, "chainsieve", "btc", network), nil
}

// Open opens the store in dir, creating the directory if needed, and takes
// its lock: a second writer gets an error wrapping [ErrLocked] naming the
// holder. It repairs what a crash left ([Store.Recovered]). A new store is
// empty until [Store.Init].
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return open(osDir(dir))
}

// Memory returns an empty store that keeps its records in memory, for one
// run: 84 + 36 bytes a block.
func Memory() *Store {
	s, err := open(newMemDir())
	if err != nil {
		panic(err) // memDir does not fail
	}
	return s
}

func open(dir fsys) (*Store, error) {
	release, err := dir.lock()
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, release: release, buf: make([]byte, headerRec)}
	if err := s.load(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// load opens the files and reconciles them with the state.
func (s *Store) load() (err error) {
	if err := s.dir.remove(stateTemp); err != nil { // a commit that crashed before its rename
		return s.ioErr("remove", stateTemp, err)
	}
	if s.headers, err = s.dir.open(headersFile); err != nil {
		return s.ioErr("open", headersFile, err)
	}
	if s.filters, err = s.dir.open(filtersFile); err != nil {
		return s.ioErr("open", filtersFile, err)
	}
	b, err := s.dir.readFile(stateFile, stateSize)
	if errors.Is(err, fs.ErrNotExist) {
		s.empty = true
		// Records without a state were never committed.
		return errors.Join(s.truncate(s.headers, headersFile, 0), s.truncate(s.filters, filtersFile, 0))
	}
	var big *sizeError
	if errors.As(err, &big) {
		return fmt.Errorf("store: state is %v: %w (in %s; remove the directory to start again)", big, ErrCorrupt, s.dir)
	}
	if err != nil {
		return s.ioErr("read", stateFile, err)
	}
	if s.committed, err = decodeState(b); err != nil {
		return fmt.Errorf("%w (in %s; remove the directory to start again)", err, s.dir)
	}
	s.cur = s.committed
	if err := s.recoverHeaders(); err != nil {
		return err
	}
	if err := s.recoverFilters(); err != nil {
		return err
	}
	if s.cur != s.committed {
		return s.writeState()
	}
	return nil
}

// Close releases the lock and closes the files, without committing.
func (s *Store) Close() error {
	var errs []error
	for _, f := range []file{s.headers, s.filters} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	if s.release != nil {
		errs = append(errs, s.release())
		s.release = nil
	}
	return errors.Join(errs...)
}

// String names the store's directory.
func (s *Store) String() string { return s.dir.String() }

// Recovered lists what Open repaired, one line each; nil after a clean
// shutdown.
func (s *Store) Recovered() []string { return s.recovered }

func (s *Store) note(format string, args ...any) {
	s.recovered = append(s.recovered, fmt.Sprintf(format, args...))
}

// Empty reports whether the store holds no chain yet.
func (s *Store) Empty() bool { return s.empty }

// State returns the store's tips, including appends not yet committed.
func (s *Store) State() State { return s.cur }

// Committed returns what the state file says.
func (s *Store) Committed() State { return s.committed }

// Init starts an empty store's chain of identity id with headers, the
// consecutive headers from height base, the anchor among them, and
// commits it.
func (s *Store) Init(id Identity, base, anchor int32, headers []wire.BlockHeader) error {
	switch {
	case !s.empty:
		return errors.New("store: Init on a store that holds a chain")
	case base < 0 || anchor < base || int(anchor-base) >= len(headers):
		return fmt.Errorf("store: Init with %d headers from %d, anchor %d", len(headers), base, anchor)
	}
	s.cur = State{Identity: id, Base: base, Anchor: anchor, Tip: base - 1, FilterBase: base, FilterTip: base - 1}
	s.cur.AnchorHash = headers[anchor-base].BlockHash()
	s.empty = false
	if err := s.Append(headers); err != nil {
		return err
	}
	return s.Commit()
}

// ioErr wraps a file-system error naming the file.
func (s *Store) ioErr(op, name string, err error) error {
	return fmt.Errorf("store: %s %s: %w", op, filepath.Join(s.dir.String(), name), err)
}

// fail records a write error: later writes return it, since what reached
// the disk is unknown until the store is reopened and checked.
func (s *Store) fail(err error) error {
	if s.failed == nil {
		s.failed = err
	}
	return err
}

func (s *Store) writable() error {
	switch {
	case s.failed != nil:
		return fmt.Errorf("store: an earlier write failed, reopen the store: %w", s.failed)
	case s.empty:
		return errors.New("store: no chain yet (Init)")
	}
	return nil
}

func (s *Store) truncate(f file, name string, size int64) error {
	if err := f.Truncate(size); err != nil {
		return s.fail(s.ioErr("truncate", name, err))
	}
	return nil
}

// Commit makes every append durable: see the package doc for the order.
func (s *Store) Commit() error {
	if err := s.writable(); err != nil {
		return err
	}
	if !s.dirty {
		return nil
	}
	if err := s.headers.Sync(); err != nil {
		return s.fail(s.ioErr("fsync", headersFile, err))
	}
	if err := s.filters.Sync(); err != nil {
		return s.fail(s.ioErr("fsync", filtersFile, err))
	}
	return s.writeState()
}

// writeState replaces the state file with cur: temp, fsync, rename,
// directory fsync.
func (s *Store) writeState() error {
	f, err := s.dir.open(stateTemp)
	if err != nil {
		return s.fail(s.ioErr("create", stateTemp, err))
	}
	b := s.cur.encode()
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(b, 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return s.fail(s.ioErr("write", stateTemp, err))
	}
	if err := s.dir.rename(stateTemp, stateFile); err != nil {
		return s.fail(s.ioErr("rename", stateTemp, err))
	}
	if err := s.dir.syncDir(); err != nil {
		return s.fail(s.ioErr("fsync", s.dir.String(), err))
	}
	s.committed, s.dirty = s.cur, false
	return nil
}
