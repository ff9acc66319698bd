package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Index is a persistent header-bloom index of a run of consecutive blocks
// starting at [Index.First]. Create or Open one, Append verified headers,
// query with [Index.Candidates], Close when done.
type Index struct {
	dir    string
	first  uint64
	sealed uint64      // sections stored transposed
	tail   []tailBlock // blocks of the unfinished section, fewer than SectionSize
	synced int         // tail blocks written to the tail file
	head   common.Hash // hash of the last block, when there is one

	hashes, tailf, sections *os.File
	epochs                  map[uint64]*os.File

	vectors *[bloomBits][SectionSize / 64]uint64 // sealing scratch, 1 MiB
	buf     []byte                               // I/O scratch
}

// Create makes a new, empty index in dir (created if missing) whose first
// block will be first. It fails if dir already holds an index.
func Create(dir string, first uint64) (*Index, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	meta := filepath.Join(dir, metaFile)
	f, err := os.OpenFile(meta, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	_, err = f.Write(encodeMeta(first))
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return Open(dir)
}

// Open opens the index in dir and verifies it: every section's vector and
// hash checksums, and every record of the unfinished section. A tail left
// half-written by a crash is cut back to its last whole block; corrupt
// sealed data is an error wrapping [ErrCorrupt].
func Open(dir string) (*Index, error) {
	meta, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	first, err := decodeMeta(meta)
	if err != nil {
		return nil, err
	}
	x := &Index{dir: dir, first: first, epochs: map[uint64]*os.File{}, vectors: new([bloomBits][SectionSize / 64]uint64)}
	if err := x.openFiles(); err != nil {
		x.Close()
		return nil, err
	}
	if err := x.load(); err != nil {
		x.Close()
		return nil, err
	}
	return x, nil
}

func (x *Index) openFiles() error {
	var err error
	for _, f := range []struct {
		name string
		file **os.File
	}{{hashesFile, &x.hashes}, {tailFile, &x.tailf}, {sectionsFile, &x.sections}} {
		if *f.file, err = os.OpenFile(filepath.Join(x.dir, f.name), os.O_RDWR|os.O_CREATE, 0o644); err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

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

// Hash returns the hash of block n, which must be indexed.
func (x *Index) Hash(n uint64) (common.Hash, error) {
	if n < x.first || n-x.first >= x.Len() {
		return common.Hash{}, fmt.Errorf("index: block %d not in [%d, %d)", n, x.first, x.first+x.Len())
	}
	i := n - x.first
	if t := x.tailStart(); n >= t {
		return x.tail[n-t].hash, nil
	}
	var h common.Hash
	if _, err := x.hashes.ReadAt(h[:], int64(i)*common.HashLength); err != nil {
		return h, fmt.Errorf("index: block %d hash: %w", n, err)
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
	next := x.first + x.Len()
	if number != next {
		return &ethlogs.BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: the index expects block %d next", ethlogs.ErrParentLink, next)}
	}
	if x.Len() > 0 && parent != x.head {
		return &ethlogs.BlockError{Number: number, Hash: hash, Err: fmt.Errorf("%w: parentHash %s, block %d is %s", ethlogs.ErrParentLink, parent, number-1, x.head)}
	}
	x.tail = append(x.tail, tailBlock{number: number, hash: hash, bloom: *bloom})
	x.head = hash
	if len(x.tail) == SectionSize {
		return x.seal()
	}
	if len(x.tail)-x.synced >= 256 {
		return x.flushTail()
	}
	return nil
}

// flushTail writes the tail blocks not yet in the tail file.
func (x *Index) flushTail() error {
	x.buf = x.buf[:0]
	for i := x.synced; i < len(x.tail); i++ {
		x.buf = x.tail[i].appendRecord(x.buf)
	}
	if _, err := x.tailf.WriteAt(x.buf, int64(x.synced)*tailRecord); err != nil {
		return fmt.Errorf("index: tail: %w", err)
	}
	x.synced = len(x.tail)
	return nil
}

// Sync writes buffered blocks and flushes every file to stable storage.
// Blocks appended since the last Sync may be lost in a crash; the index
// still opens, ending at an earlier block.
func (x *Index) Sync() error {
	if err := x.flushTail(); err != nil {
		return err
	}
	errs := []error{x.hashes.Sync(), x.tailf.Sync(), x.sections.Sync()}
	for _, f := range x.epochs {
		errs = append(errs, f.Sync())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("index: sync: %w", err)
	}
	return nil
}

// Close syncs and closes the index.
func (x *Index) Close() error {
	var errs []error
	if x.tailf != nil && x.hashes != nil && x.sections != nil {
		errs = append(errs, x.Sync())
	}
	for _, f := range []*os.File{x.hashes, x.tailf, x.sections} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	for _, f := range x.epochs {
		errs = append(errs, f.Close())
	}
	x.epochs = map[uint64]*os.File{}
	return errors.Join(errs...)
}

// epoch returns the open file of an epoch, creating it when create is set.
func (x *Index) epoch(e uint64, create bool) (*os.File, error) {
	if f, ok := x.epochs[e]; ok {
		return f, nil
	}
	flag := os.O_RDWR
	if create {
		flag |= os.O_CREATE
	}
	f, err := os.OpenFile(epochFile(x.dir, e), flag, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s missing", ErrCorrupt, filepath.Base(epochFile(x.dir, e)))
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	x.epochs[e] = f
	return f, nil
}
