//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Supported says whether files are locked here.
const Supported = true

// Kind is a kind of lock: many holders may share a [Shared] one; an
// [Exclusive] one excludes every other.
type Kind int

// The kinds of lock.
const (
	Shared    Kind = syscall.LOCK_SH
	Exclusive Kind = syscall.LOCK_EX
)

// TryLock takes a lock of the given kind on f without waiting; ok is false
// when another open file holds a conflicting one.
func TryLock(f *os.File, kind Kind) (ok bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), int(kind)|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case !errors.Is(err, syscall.EINTR):
			return false, err
		}
	}
}

// Unlock releases f's lock; closing f does too.
func Unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
