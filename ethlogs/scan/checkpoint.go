package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// checkpoint records how far a scan's output has got: every matching log
// of blocks up to Through has been emitted, Logs of them in all. It is
// written after each batch that emitted logs, so a stopped scan resumes
// without repeating or losing one; it is removed when the scan completes.
type checkpoint struct {
	Key     string `json:"key"`
	Through uint64 `json:"through"`
	Logs    uint64 `json:"logs"`
}

// loadCheckpoint finds the checkpoint of this scan, if the caller named its
// output, and moves From past it.
func (s *scanner) loadCheckpoint() {
	if s.cfg.Resume == "" {
		return
	}
	q, _ := json.Marshal(s.cfg.Query)
	from := strconv.FormatUint(s.cfg.From, 10)
	if s.cfg.FromBlock != nil {
		from = s.cfg.FromBlock.String() // "latest-10" resumes as itself
	}
	sum := sha256.Sum256([]byte(s.cfg.Resume + "\x00" + string(q) + "\x00" + from + "\x00" + s.cfg.Mode.String()))
	s.key = hex.EncodeToString(sum[:12])
	s.checkpoint = filepath.Join(s.chainDir, "resume-"+s.key+".json")
	if s.cfg.Restart {
		return
	}
	data, err := os.ReadFile(s.checkpoint)
	var c checkpoint
	if err != nil || json.Unmarshal(data, &c) != nil || c.Key != s.key || c.Through < s.stats.From {
		return
	}
	if c.Through >= s.stats.To {
		return // nothing left: that scan had finished this range; start over
	}
	s.stats.From, s.stats.Resumed, s.stats.ResumedLogs = c.Through+1, true, c.Logs
}

// saveCheckpoint records that every log up to block through is written.
func (s *scanner) saveCheckpoint(through uint64) error {
	if s.checkpoint == "" {
		return nil
	}
	data, _ := json.Marshal(checkpoint{Key: s.key, Through: through, Logs: s.stats.ResumedLogs + s.stats.Logs})
	tmp := s.checkpoint + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("scan: checkpoint: %w", err)
	}
	if err := os.Rename(tmp, s.checkpoint); err != nil {
		return fmt.Errorf("scan: checkpoint: %w", err)
	}
	return nil
}

// finishCheckpoint removes the checkpoint of a completed scan.
func (s *scanner) finishCheckpoint() error {
	if s.checkpoint == "" {
		return nil
	}
	if err := os.Remove(s.checkpoint); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scan: checkpoint: %w", err)
	}
	return nil
}
