//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package flock

import "os"

// Supported says whether files are locked here.
const Supported = false

// Kind is a kind of lock: many holders may share a [Shared] one; an
// [Exclusive] one excludes every other.
type Kind int

// The kinds of lock.
const (
	Shared Kind = iota
	Exclusive
)

// TryLock always succeeds where flock is missing.
func TryLock(f *os.File, kind Kind) (ok bool, err error) { return true, nil }

// Unlock does nothing where flock is missing.
func Unlock(f *os.File) error { return nil }
