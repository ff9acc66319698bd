//go:build unix

package scan_test

import (
	"io/fs"
	"syscall"
)

// allocated returns the bytes a file takes on disk: the index's epoch
// files are sized for 256 sections up front and sparse until written.
func allocated(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
