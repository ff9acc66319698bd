//go:build !linux

package livenode

import "syscall"

// sysProcAttr has nothing to add outside Linux: a node outlives a test
// process that dies without running its cleanups.
func sysProcAttr() *syscall.SysProcAttr { return nil }
