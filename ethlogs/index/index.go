package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/chainsieve/chainsieve/core/flock"
	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Index is a persistent header-bloom index of a run of consecutive blocks
// starting at [Index.First]. A writer ([Create], [Open], [OpenWait]) holds
// the directory's lock and may Append, Truncate and Sync; a snapshot
// ([OpenSnapshot]) answers for the blocks indexed when it opened. Query with
// [Index.Candidates]; Close when done. An Index is not safe for concurrent
// use: give each goroutine its own (they may share a directory).
type Index struct {
	dir      string
	first    uint64
	readOnly bool
	noMap    bool // read epochs with ReadAt (tests of that path)

	sealed    uint64      // sections stored transposed
	synced    uint64      // sections the last sync record made durable
	stateSeq  uint64      // sequence number of that record
	tail      []tailBlock // blocks of the unfinished section, fewer than SectionSize
	flushed   int         // tail blocks written to the tail file
	head      common.Hash // hash of the last block, when there is one
	created   bool        // files created since the last Sync (the directory needs syncing)
	tailDirty bool        // the tail file written since the last Sync
	sealDirty bool        // sections sealed or cut since the last Sync
	dirtyFrom uint64      // first epoch written since the last Sync

	lock                           *dirLock // writers
	readers                        *os.File // snapshots: a shared flock
	state, hashes, tailf, sections *os.File
	epochs                         map[uint64]*epoch
	hashesOK                       map[uint64]bool // sections whose hashes matched their record

	vectors *[bloomBits][SectionSize / 64]uint64 // sealing scratch, 1 MiB
	buf     []byte                               // I/O scratch
	vecBuf  [vectorBytes]byte
	sumBuf  [4]byte
	query   queryScratch
}

// Create makes a new, empty index in dir (created if missing) whose first
// block will be first, and opens it for writing. It fails with a
// *[LockedError] if another process holds the directory, and with an error
// wrapping fs.ErrExist if dir already holds an index.
func Create(dir string, first uint64) (*Index, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	l, err := lockWriter(context.Background(), dir, false)
	if err != nil {
		return nil, err
	}
	if err := initialize(dir, first); err != nil {
		l.release()
		return nil, err
	}
	return open(dir, l, false)
}

// initialize writes the files of an empty index, meta last: an index
// exists once its meta file does, and files left by an interrupted Create
// or Remove are garbage.
func initialize(dir string, first uint64) error {
	if _, err := os.Stat(path(dir, metaFile)); err == nil {
		return fmt.Errorf("index: %s: %w", dir, fs.ErrExist)
	}
	if err := removeData(dir); err != nil {
		return err
	}
	// Empty files need only their directory entries synced; a lost state
	// record reads as nothing durable, which is the truth.
	for _, f := range []struct {
		name string
		data []byte
	}{
		{stateFile, encodeState(1, 0)}, {sectionsFile, nil}, {hashesFile, nil}, {tailFile, nil}, {metaFile, encodeMeta(first)},
	} {
		if err := writeFile(path(dir, f.name), f.data, f.name == metaFile); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return syncDir(dir)
}

// Open opens the index in dir for writing. It takes the directory's writer
// lock, failing at once with a *[LockedError] naming the holder if another
// process has it (use [OpenWait] to wait), and repairs what a crash can
// leave: a torn tail record, a half-written section, and sealed sections
// not yet made durable by [Index.Sync] that fail their checksums are cut
// off. Nothing else is read: sealed data is verified when a query or
// [Index.Hash] first reads it. An index in an older format fails with
// [ErrVersion]; a missing one with an error wrapping fs.ErrNotExist.
func Open(dir string) (*Index, error) { return openWriter(context.Background(), dir, false) }

// OpenWait is [Open] that waits for the writer lock until ctx is done; the
// error then wraps ctx's error and a *[LockedError] naming the holder.
func OpenWait(ctx context.Context, dir string) (*Index, error) {
	return openWriter(ctx, dir, true)
}

func openWriter(ctx context.Context, dir string, wait bool) (*Index, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	l, err := lockWriter(ctx, dir, wait)
	if err != nil {
		return nil, err
	}
	return open(dir, l, false)
}

// OpenSnapshot opens the index in dir read-only, as it is now: the blocks a
// writer committed before this call, whatever it appends or truncates after.
// Any number of snapshots may be open beside one writer. A snapshot is
// never blocked by the writer, except during a truncation into sealed
// blocks, which needs every snapshot closed: then OpenSnapshot fails at once
// with a *[LockedError]. A snapshot repairs nothing; Append, Truncate and
// Sync fail on it.
func OpenSnapshot(dir string) (*Index, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	f, err := readersLock(dir)
	if err != nil {
		return nil, err
	}
	if err := acquire(context.Background(), f, dir, flock.Shared, false); err != nil {
		f.Close()
		if errors.As(err, new(*LockedError)) {
			return nil, holderOf(dir) // the writer cutting sealed blocks
		}
		return nil, err
	}
	x, err := open(dir, nil, true)
	if err != nil {
		flock.Unlock(f)
		f.Close()
		return nil, err
	}
	x.readers = f
	return x, nil
}

func open(dir string, l *dirLock, readOnly bool) (*Index, error) {
	x := &Index{dir: dir, lock: l, readOnly: readOnly, epochs: map[uint64]*epoch{}, hashesOK: map[uint64]bool{}}
	if !readOnly {
		x.vectors = new([bloomBits][SectionSize / 64]uint64)
	}
	err := guard(func() error {
		meta, err := os.ReadFile(path(dir, metaFile))
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
		if x.first, err = decodeMeta(meta); err != nil {
			return err
		}
		if err := x.openFiles(); err != nil {
			return err
		}
		return x.load()
	})
	if err != nil {
		x.closeFiles()
		l.release()
		return nil, err
	}
	return x, nil
}

func (x *Index) openFiles() error {
	flag := os.O_RDWR
	if x.readOnly {
		flag = os.O_RDONLY
	}
	var err error
	for _, f := range []struct {
		name string
		file **os.File
	}{{stateFile, &x.state}, {hashesFile, &x.hashes}, {tailFile, &x.tailf}, {sectionsFile, &x.sections}} {
		if *f.file, err = os.OpenFile(path(x.dir, f.name), flag, 0o644); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%w: %s is missing", ErrCorrupt, f.name)
			}
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// guard runs fn, turning a fault reading a mapped file (one truncated
// behind the index's back) into an error instead of a crash.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(runtime.Error)
			if _, fault := r.(interface{ Addr() uintptr }); !ok || !fault {
				panic(r)
			}
			err = fmt.Errorf("%w: reading a mapped file: %v", ErrCorrupt, re)
		}
	}()
	return fn()
}

// errReadOnly is returned by the methods that change a snapshot.
var errReadOnly = errors.New("index: a snapshot is read-only")

// First returns the number of the first block the index holds or will hold.
func (x *Index) First() uint64 { return x.first }

// Len returns the number of blocks indexed.
func (x *Index) Len() uint64 { return x.sealed*SectionSize + uint64(len(x.tail)) }

// Head returns the last block indexed; ok is false for an empty index.
func (x *Index) Head() (number uint64, hash common.Hash, ok bool) {
	if x.Len() == 0 {
		return 0, common.Hash{}, false
	}
	return x.first + x.Len() - 1, x.head, true
}

// Hash returns the hash of block n, which must be indexed. The hashes of a
// sealed section are checked against its record when first read.
func (x *Index) Hash(n uint64) (h common.Hash, err error) {
	if n < x.first || n-x.first >= x.Len() {
		return h, fmt.Errorf("index: block %d not in [%d, %d)", n, x.first, x.first+x.Len())
	}
	if t := x.tailStart(); n >= t {
		return x.tail[n-t].hash, nil
	}
	i := n - x.first
	if err := x.verifyHashes(i / SectionSize); err != nil {
		return h, err
	}
	if _, err := x.hashes.ReadAt(h[:], int64(i)*common.HashLength); err != nil {
		return h, fmt.Errorf("%w: block %d hash: %v", ErrCorrupt, n, err)
	}
	return h, nil
}

// tailStart is the number of the first block of the unfinished section.
func (x *Index) tailStart() uint64 { return x.first + x.sealed*SectionSize }

// Append adds the next block's header. It computes the header's hash and
// requires the header to follow the last block: its number one more and its
// parentHash the last block's hash (the first block is accepted as given:
// the caller anchors it). A header that does not link is refused with an
// [*ethlogs.BlockError] wrapping ethlogs.ErrParentLink.
func (x *Index) Append(h *types.Header) error {
	if h.Number == nil || !h.Number.IsUint64() {
		return fmt.Errorf("index: header without a valid number")
	}
	return x.AppendBloom(h.Number.Uint64(), h.Hash(), h.ParentHash, ethlogs.FromGeth(&h.Bloom))
}

// AppendBloom is [Index.Append] for a caller that already hashed the header
// (as ethlogs.DecodeHeader does): the block's number, hash, parent hash and
// logsBloom.
func (x *Index) AppendBloom(number uint64, hash, parent common.Hash, bloom *ethlogs.Bloom) error {
	if x.readOnly {
		return errReadOnly
	}
	next := x.first + x.Len()
	if number != next {
		return &ethlogs.BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: the index expects block %d next", ethlogs.ErrParentLink, next)}
	}
	if x.Len() > 0 && parent != x.head {
		return &ethlogs.BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: parentHash %s, block %d is %s", ethlogs.ErrParentLink, parent, number-1, x.head)}
	}
	x.tail = append(x.tail, tailBlock{number: number, hash: hash, parent: parent, bloom: *bloom})
	x.head = hash
	if len(x.tail) == SectionSize {
		return guard(x.seal)
	}
	if len(x.tail)-x.flushed >= 256 {
		return x.flushTail()
	}
	return nil
}

// flushTail writes the tail blocks not yet in the tail file.
func (x *Index) flushTail() error {
	x.buf = x.buf[:0]
	for i := x.flushed; i < len(x.tail); i++ {
		x.buf = x.tail[i].appendRecord(x.buf)
	}
	if len(x.buf) == 0 {
		return nil
	}
	if _, err := x.tailf.WriteAt(x.buf, int64(x.flushed)*tailRecord); err != nil {
		return fmt.Errorf("index: tail: %w", err)
	}
	x.flushed, x.tailDirty = len(x.tail), true
	return nil
}

// Sync writes buffered blocks, flushes every file to stable storage, and
// then records the sealed sections as durable, so that the next Open need
// not check them. Blocks appended since the last Sync may be lost in a
// crash; the index still opens, ending at an earlier block. A snapshot has
// nothing to sync.
func (x *Index) Sync() error {
	if x.readOnly {
		return nil
	}
	if err := x.flushTail(); err != nil {
		return err
	}
	var errs []error
	if x.tailDirty {
		errs = append(errs, fsync(x.tailf))
	}
	if x.sealDirty {
		errs = append(errs, fsync(x.hashes), fsync(x.sections))
		for e, ep := range x.epochs {
			if e >= x.dirtyFrom {
				errs = append(errs, fsync(ep.f))
			}
		}
	}
	if x.created {
		errs = append(errs, syncDir(x.dir))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("index: sync: %w", err)
	}
	x.created, x.tailDirty, x.sealDirty, x.dirtyFrom = false, false, false, x.sealed/epochSections
	if x.synced == x.sealed {
		return nil
	}
	return x.writeState(x.sealed)
}

// writeState records synced as the count of durable sections, in the slot
// the previous record did not use.
func (x *Index) writeState(synced uint64) error {
	seq := x.stateSeq + 1
	if _, err := x.state.WriteAt(encodeState(seq, synced), int64(seq%2)*stateSlot); err != nil {
		return fmt.Errorf("index: state: %w", err)
	}
	if err := fsync(x.state); err != nil {
		return fmt.Errorf("index: state: %w", err)
	}
	x.stateSeq, x.synced = seq, synced
	return nil
}

// Close syncs a writer, closes the index and releases its lock.
func (x *Index) Close() error {
	var errs []error
	if !x.readOnly && x.state != nil && x.tailf != nil && x.hashes != nil && x.sections != nil {
		errs = append(errs, x.Sync())
	}
	errs = append(errs, x.closeFiles())
	if x.readers != nil {
		errs = append(errs, flock.Unlock(x.readers), x.readers.Close())
		x.readers = nil
	}
	errs = append(errs, x.lock.release())
	return errors.Join(errs...)
}

func (x *Index) closeFiles() error {
	var errs []error
	for _, f := range []**os.File{&x.state, &x.hashes, &x.tailf, &x.sections} {
		if *f != nil {
			errs = append(errs, (*f).Close())
			*f = nil
		}
	}
	for e, ep := range x.epochs {
		errs = append(errs, ep.close())
		delete(x.epochs, e)
	}
	return errors.Join(errs...)
}

// Remove deletes the index in dir, leaving the directory and its lock
// files: a lock must stay on the one file every process opens. It fails
// with a *[LockedError] while a writer or a snapshot has the index open.
// Create may then build a new index in dir.
func Remove(dir string) error {
	l, err := lockWriter(context.Background(), dir, false)
	if err != nil {
		return err
	}
	defer l.release()
	return withoutReaders(dir, func() error { return removeData(dir) })
}

// removeData deletes the index files of dir, meta first: without it the
// rest is garbage whatever remains after a crash.
func removeData(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	names := []string{metaFile, stateFile, sectionsFile, hashesFile, tailFile}
	for _, e := range entries {
		var n uint64
		if _, err := fmt.Sscanf(e.Name(), "epoch-%05d", &n); err == nil && e.Name() == epochName(n) {
			names = append(names, e.Name())
		}
	}
	for _, name := range names {
		if err := os.Remove(path(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("index: %w", err)
		}
	}
	return syncDir(dir)
}

func writeFile(name string, data []byte, sync bool) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if sync {
		err = errors.Join(err, fsync(f))
	}
	return errors.Join(err, f.Close())
}

// syncDir makes the directory's entries (files created or removed) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	err = fsync(d)
	if errors.Is(err, errors.ErrUnsupported) || (err != nil && runtime.GOOS == "windows") {
		err = nil
	}
	return errors.Join(err, d.Close())
}

// fsync flushes a file to stable storage. Tests that replay crashes by
// editing files swap it for a no-op: the disk's flush latency is not what
// they test, and on a loaded machine it dominates their time.
var fsync = (*os.File).Sync
