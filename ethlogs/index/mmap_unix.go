//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package index

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only and shared, so that the
// index reads the page cache in place and sees the writer's later pwrites.
// It returns nil where mapping fails: the index then reads with ReadAt.
func mapFile(f *os.File, size int) []byte {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return data
}

// mapWritable maps size bytes of f from off (page-aligned) for writing:
// stores reach the page cache as a pwrite does, and fsync flushes them.
func mapWritable(f *os.File, off int64, size int) []byte {
	data, err := syscall.Mmap(int(f.Fd()), off, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return data
}

func unmapFile(data []byte) error {
	if data == nil {
		return nil
	}
	return syscall.Munmap(data)
}
