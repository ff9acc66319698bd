//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package index

import (
	"errors"
	"os"
	"syscall"
)

// haveFlock says whether directories are locked here.
const haveFlock = true

type lockKind int

const (
	shared    lockKind = syscall.LOCK_SH
	exclusive lockKind = syscall.LOCK_EX
)

// tryLock takes a flock without waiting; ok is false when another open
// file holds a conflicting one. The kernel releases a flock when its holder
// dies, so a crashed process never leaves the index locked.
func tryLock(f *os.File, kind lockKind) (ok bool, err error) {
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

func unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
