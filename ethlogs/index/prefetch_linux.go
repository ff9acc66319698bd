package index

import "syscall"

// prefetch asks the kernel to read a mapped range ahead (MADV_WILLNEED), so
// that a cold query waits for its rows' reads together rather than one
// page fault after another. data must start on a page boundary.
func prefetch(data []byte) { syscall.Madvise(data, syscall.MADV_WILLNEED) }
