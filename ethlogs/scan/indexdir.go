package scan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/ethereum/go-ethereum/common"
)

// Several scans may share an index directory (the default one is shared
// by every scan of a user): an index has one writer at a time and any
// number of snapshot readers ([index.OpenSnapshot]). A scan writes only
// in its header phase, and reads a snapshot in its receipts phase, so
// that other scans can extend the index meanwhile. A scan whose blocks are
// all indexed and linked already reads a snapshot beside a writer instead
// of waiting for it; otherwise it waits, saying who holds the index
// ([Config.Waiting]). An index is never removed while open elsewhere.

// DefaultIndexDir returns where indexes live unless told otherwise:
// chainsieve/eth-index under the user's cache directory
// (~/.cache/chainsieve/eth-index on Linux).
func DefaultIndexDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("scan: no cache directory for the index (pass one): %w", err)
	}
	return filepath.Join(dir, "chainsieve", "eth-index"), nil
}

// chainDirOf is the directory of a chain's indexes, named by the first 8
// bytes of its genesis hash.
func (s *scanner) chainDirOf(genesis common.Hash) string {
	return filepath.Join(s.cfg.IndexDir, genesis.Hex()[:18])
}

func (s *scanner) indexPath(first uint64) string {
	return filepath.Join(s.chainDir, strconv.FormatUint(first, 10))
}

// openIndex opens the index the scan uses (see pick): for writing, or,
// while another process writes it, a snapshot if it holds every block the
// scan needs, linked to the anchor, else for writing once that process
// lets go.
func (s *scanner) openIndex(ctx context.Context) error {
	path, first, err := s.pick(ctx)
	if err != nil {
		return err
	}
	s.stats.Index, s.indexFirst = path, first
	s.x, s.writing, err = s.open(ctx, path, first)
	if err == nil && !s.writing {
		s.stats.HeadersIndexed = s.stats.Blocks()
	}
	return err
}

// pick chooses the index among those in the chain's directory, named by
// their first block: the one starting highest at or below the scan's
// lowest block (From, or the anchor where the range starts after it) that
// reaches it (its blocks are contiguous, so it must); else a new one
// starting there. A directory that holds no readable index is left alone.
func (s *scanner) pick(ctx context.Context) (path string, first uint64, err error) {
	s.chainDir = s.chainDirOf(s.stats.Genesis)
	low := s.low()
	if err := os.MkdirAll(s.chainDir, 0o755); err != nil {
		return "", 0, fmt.Errorf("scan: %w", err)
	}
	entries, err := os.ReadDir(s.chainDir)
	if err != nil {
		return "", 0, fmt.Errorf("scan: %w", err)
	}
	var firsts []uint64
	for _, e := range entries {
		if n, err := strconv.ParseUint(e.Name(), 10, 64); err == nil && e.IsDir() && n <= low {
			firsts = append(firsts, n)
		}
	}
	slices.Sort(firsts)
	for _, f := range slices.Backward(firsts) {
		n, ok, err := s.indexLen(ctx, s.indexPath(f))
		if err != nil {
			return "", 0, err
		}
		if ok && f+n >= low {
			return s.indexPath(f), f, nil
		}
	}
	return s.indexPath(low), low, nil
}

// indexLen returns how many blocks the index in dir holds, read from a
// snapshot; ok is false where there is no readable index.
func (s *scanner) indexLen(ctx context.Context, dir string) (n uint64, ok bool, err error) {
	for {
		x, err := index.OpenSnapshot(dir)
		if err == nil {
			n = x.Len()
			return n, true, x.Close()
		}
		var held *index.LockedError
		if !errors.As(err, &held) {
			return 0, false, nil
		}
		if err := s.wait(ctx, held); err != nil { // its writer is cutting sealed blocks
			return 0, false, err
		}
	}
}

// open opens the index in dir for writing (writer true), creating it (its
// first block first) where there is none and rebuilding it where it is
// broken. While another process writes it, it returns a snapshot if that
// holds all the scan needs, else it reports the holder and waits.
func (s *scanner) open(ctx context.Context, dir string, first uint64) (x *index.Index, writer bool, err error) {
	for range 10 {
		x, err := index.Open(dir)
		var held *index.LockedError
		switch {
		case err == nil:
			return x, true, nil
		case errors.As(err, &held):
			if x := s.snapshotHoldingAll(dir); x != nil {
				return x, false, nil
			}
			s.notify(held)
			if x, err = index.OpenWait(ctx, dir); err == nil {
				return x, true, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, false, fmt.Errorf("scan: %w", err)
			}
			// Its holder stopped before the index existed: create it.
		case errors.Is(err, fs.ErrNotExist):
		case errors.Is(err, index.ErrCorrupt), errors.Is(err, index.ErrVersion):
			if err := index.Remove(dir); err != nil {
				return nil, false, fmt.Errorf("scan: rebuilding %s: %w", dir, err)
			}
		default:
			return nil, false, fmt.Errorf("scan: %w", err)
		}
		x, err = index.Create(dir, first)
		if err == nil {
			return x, true, nil
		}
		if !errors.Is(err, fs.ErrExist) && !errors.As(err, &held) {
			return nil, false, fmt.Errorf("scan: %w", err)
		}
		// Another scan created it first: open it.
	}
	return nil, false, fmt.Errorf("scan: the index %s keeps changing under this scan", dir)
}

// snapshotHoldingAll returns a snapshot of the index in dir if it holds
// the scan's blocks and the anchor, linked to the anchor and, after it, to
// the node's block at To; else nil.
func (s *scanner) snapshotHoldingAll(dir string) *index.Index {
	x, err := index.OpenSnapshot(dir)
	if err != nil {
		return nil
	}
	if s.holdsAll(x) {
		return x
	}
	x.Close()
	return nil
}

func (s *scanner) holdsAll(x *index.Index) bool {
	top := max(s.stats.AnchorNumber, s.stats.To)
	if x.First() > s.low() || x.First()+x.Len() <= top {
		return false
	}
	prev := s.x
	s.x = x
	defer func() { s.x = prev }()
	return s.checkAnchor() == nil && s.checkTip() == nil
}

// headers brings the index up to the anchor and To and checks that it
// leads to them (chain), unless a snapshot beside another writer already
// did; it then swaps the writer for a snapshot, so that other scans can
// write the index during the receipts phase.
func (s *scanner) headers(ctx context.Context) error {
	if !s.writing {
		return nil
	}
	if err := s.chain(ctx); err != nil {
		return err
	}
	err := s.x.Close()
	s.x, s.writing = nil, false
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	if x := s.snapshotHoldingAll(s.stats.Index); x != nil {
		s.x = x
		return nil
	}
	// Another scan cut what this one verified (it saw a reorganisation)
	// before the snapshot opened: verify again, and keep the writer.
	if s.x, s.writing, err = s.open(ctx, s.stats.Index, s.indexFirst); err != nil {
		return err
	}
	if !s.writing {
		return nil
	}
	return s.chain(ctx)
}

// truncate cuts the index back to block n, waiting while snapshot readers
// (other scans) keep it from cutting sealed blocks.
func (s *scanner) truncate(ctx context.Context, n uint64) error {
	for {
		err := s.x.Truncate(n)
		var held *index.LockedError
		if !errors.As(err, &held) {
			if err != nil {
				return fmt.Errorf("scan: %w", err)
			}
			return nil
		}
		if err := s.wait(ctx, held); err != nil {
			return err
		}
	}
}

// notify tells Config.Waiting who holds the index, once per holder.
func (s *scanner) notify(held *index.LockedError) {
	if msg := held.Error(); s.cfg.Waiting != nil && msg != s.waited {
		s.waited = msg
		s.cfg.Waiting(held)
	}
}

// wait reports held and waits a moment before the caller tries again.
func (s *scanner) wait(ctx context.Context, held *index.LockedError) error {
	s.notify(held)
	select {
	case <-ctx.Done():
		return fmt.Errorf("scan: waiting for the index: %w", errors.Join(ctx.Err(), held))
	case <-time.After(100 * time.Millisecond):
		return nil
	}
}
