//go:build !unix

package store

import "errors"

// ErrLocked marks a store another process is writing.
var ErrLocked = errors.New("store in use")

// lockDir does not lock where flock is missing: one writer at a time is
// then the caller's to ensure.
func lockDir(string) (func() error, error) { return func() error { return nil }, nil }
