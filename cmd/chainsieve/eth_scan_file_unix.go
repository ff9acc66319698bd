//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"fmt"
	"os"
	"syscall"
)

// fileID names the file behind fi by device and inode: the same for every
// path and descriptor that reaches it.
func fileID(fi os.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d", uint64(st.Dev), uint64(st.Ino)), true
}

// appends reports whether writes to f go to the end of the file whatever
// its offset (the shell's >>).
func appends(f *os.File) bool {
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETFL, 0)
	return errno == 0 && fl&syscall.O_APPEND != 0
}
