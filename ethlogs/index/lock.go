package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/chainsieve/chainsieve/core/flock"
)

// LockedError is returned when another process holds what an open needs:
// the writer lock (a second writer), or, for [Index.Truncate] into sealed
// blocks and [Remove], the readers' lock. The lock is a flock, so it dies
// with its process: a LockedError always names a live holder (or readers).
type LockedError struct {
	Dir     string
	PID     int       // the writer holding the lock, 0 if it left no record
	Command string    // its command line, clipped
	Since   time.Time // when it took the lock
	Readers bool      // held by snapshot readers, not by a writer
}

func (e *LockedError) Error() string {
	switch {
	case e.Readers:
		return fmt.Sprintf("index: %s is open by snapshot readers; cutting sealed blocks waits until they close", e.Dir)
	case e.PID == 0:
		return fmt.Sprintf("index: %s is locked by another process", e.Dir)
	}
	return fmt.Sprintf("index: %s is locked by pid %d (%s) since %s", e.Dir, e.PID, e.Command, e.Since.UTC().Format("2006-01-02 15:04:05 UTC"))
}

// holder is what the writer records in the lock file, for the messages of
// the processes it keeps out. It is never trusted for locking itself.
type holder struct {
	PID     int       `json:"pid"`
	Since   time.Time `json:"since"`
	Command []string  `json:"cmd"`
}

const maxHolder = 4096 // bytes of holder record read

func encodeHolder() []byte {
	b, _ := json.Marshal(holder{PID: os.Getpid(), Since: time.Now().UTC().Truncate(time.Millisecond), Command: os.Args})
	return b
}

// lockedError describes the holder recorded in data; a record that does
// not decode (being written, or damaged) gives an error without details.
func lockedError(dir string, data []byte) *LockedError {
	e := &LockedError{Dir: dir}
	var h holder
	if len(data) > maxHolder || json.Unmarshal(data, &h) != nil || h.PID <= 0 {
		return e
	}
	e.PID, e.Since, e.Command = h.PID, h.Since, printable(strings.Join(h.Command, " "), 200)
	return e
}

// printable clips s to n runes and escapes control and invalid characters:
// a lock file's text may reach a terminal.
func printable(s string, n int) string {
	var b strings.Builder
	for i, r := range []rune(s) {
		if i == n {
			b.WriteString("…")
			break
		}
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "\\x%02x", r)
		}
	}
	return b.String()
}

// A dirLock is the writer's exclusive flock on the lock file.
type dirLock struct{ f *os.File }

// lockWriter takes the writer lock of dir, polling until ctx is done when
// wait is set, and records this process as the holder.
func lockWriter(ctx context.Context, dir string, wait bool) (*dirLock, error) {
	f, err := os.OpenFile(path(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if err := acquire(ctx, f, dir, flock.Exclusive, wait); err != nil {
		f.Close()
		return nil, err
	}
	rec := encodeHolder()
	if err := errors.Join(f.Truncate(0), writeAt(f, rec, 0)); err != nil {
		f.Close()
		return nil, fmt.Errorf("index: lock record: %w", err)
	}
	return &dirLock{f}, nil
}

func writeAt(f *os.File, b []byte, off int64) error {
	_, err := f.WriteAt(b, off)
	return err
}

func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := errors.Join(flock.Unlock(l.f), l.f.Close())
	l.f = nil
	return err
}

// acquire takes a flock of the given kind on f, failing at once with a
// *LockedError, or polling (10 ms doubling to 250 ms) until ctx is done.
func acquire(ctx context.Context, f *os.File, dir string, kind flock.Kind, wait bool) error {
	delay := 10 * time.Millisecond
	for {
		ok, err := flock.TryLock(f, kind)
		if err != nil {
			return fmt.Errorf("index: lock %s: %w", dir, err)
		}
		if ok {
			return nil
		}
		held := holderOf(dir)
		if kind == flock.Exclusive && f.Name() == path(dir, readersFile) {
			held = &LockedError{Dir: dir, Readers: true}
		}
		if !wait {
			return held
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("index: waiting for the lock: %w", errors.Join(ctx.Err(), held))
		case <-time.After(delay):
		}
		delay = min(2*delay, 250*time.Millisecond)
	}
}

// holderOf reads the writer's record from the lock file.
func holderOf(dir string) *LockedError {
	f, err := os.Open(path(dir, lockFile))
	if err != nil {
		return &LockedError{Dir: dir}
	}
	defer f.Close()
	data := make([]byte, maxHolder+1)
	n, _ := f.ReadAt(data, 0)
	return lockedError(dir, data[:n])
}

// readersLock opens the readers' lock file of dir.
func readersLock(dir string) (*os.File, error) {
	f, err := os.OpenFile(path(dir, readersFile), os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return f, nil
}

// withoutReaders runs fn holding the readers' lock exclusively: no snapshot
// reader is open meanwhile, none can open, and none that opened before
// remains. It fails at once with a *LockedError when readers are open.
func withoutReaders(dir string, fn func() error) error {
	f, err := readersLock(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := acquire(context.Background(), f, dir, flock.Exclusive, false); err != nil {
		return err
	}
	defer flock.Unlock(f)
	return fn()
}
