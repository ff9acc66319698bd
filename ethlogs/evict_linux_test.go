//go:build linux

package ethlogs_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// evict drops the files of dir from the page cache (posix_fadvise
// DONTNEED on each, after they were synced), so that the next read is cold.
func evict(b *testing.B, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		const dontNeed = 4
		if _, _, errno := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, dontNeed, 0, 0); errno != 0 {
			b.Fatalf("fadvise %s: %v", e.Name(), errno)
		}
		f.Close()
	}
}

const canEvict = true

// allocated is the space a file takes on disk, holes left out.
func allocated(fi os.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return fi.Size()
}
