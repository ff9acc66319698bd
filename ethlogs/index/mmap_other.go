//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package index

import "os"

// mapFile does not map where syscall.Mmap is missing: the index reads with
// ReadAt.
func mapFile(f *os.File, size int) []byte { return nil }

func mapWritable(f *os.File, off int64, size int) []byte { return nil }

func unmapFile(data []byte) error { return nil }
