//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
)

// ErrLocked marks a store another process is writing.
var ErrLocked = errors.New("store in use")

// lockDir takes an exclusive flock on path and writes the holder's pid and
// start time into it, for the error another opener gets. The kernel drops
// the lock when the process dies, so a kill -9 leaves no stale lock.
func lockDir(path string) (func() error, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("store: %s is held by %s: %w", path, describeHolder(holder), ErrLocked)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	f.Truncate(0)
	fmt.Fprintf(f, "pid %d since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	return f.Close, nil // closing the descriptor releases the lock
}

// describeHolder clips what the lock file says (another process wrote it).
func describeHolder(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 80 {
		s = s[:80]
	}
	if s == "" {
		return "another process"
	}
	return fmt.Sprintf("%q", s)
}
