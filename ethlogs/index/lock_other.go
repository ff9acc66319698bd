//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package index

import "os"

// haveFlock says whether directories are locked here.
const haveFlock = false

type lockKind int

const (
	shared lockKind = iota
	exclusive
)

// tryLock always succeeds where flock is missing: there, the caller must
// make sure that one process at a time uses an index directory.
func tryLock(f *os.File, kind lockKind) (bool, error) { return true, nil }

func unlock(f *os.File) error { return nil }
