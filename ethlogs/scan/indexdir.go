package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/ethereum/go-ethereum/common"
)

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

// openIndex opens the index that can serve the scan: in the chain's
// directory, the one starting at or below the scan's lowest block (From,
// or the anchor where the range starts after it) that reaches it (its
// blocks are contiguous, so it must), the highest such; otherwise a new
// one starting there. Indexes are directories named by their first block.
func (s *scanner) openIndex() error {
	s.chainDir = s.chainDirOf(s.stats.Genesis)
	low := s.low()
	if err := os.MkdirAll(s.chainDir, 0o755); err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	entries, err := os.ReadDir(s.chainDir)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	var firsts []uint64
	for _, e := range entries {
		if n, err := strconv.ParseUint(e.Name(), 10, 64); err == nil && e.IsDir() && n <= low {
			firsts = append(firsts, n)
		}
	}
	slices.Sort(firsts)
	for _, first := range slices.Backward(firsts) {
		x, err := index.Open(s.indexPath(first))
		if err != nil {
			continue // a broken index is left alone; a new one takes over
		}
		if first+x.Len() >= low {
			s.x, s.stats.Index = x, s.indexPath(first)
			return nil
		}
		x.Close()
	}
	path := s.indexPath(low)
	os.RemoveAll(path) // a broken index at the same place
	x, err := index.Create(path, low)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	s.x, s.stats.Index = x, path
	return nil
}

func (s *scanner) indexPath(first uint64) string {
	return filepath.Join(s.chainDir, strconv.FormatUint(first, 10))
}
