package livenode

import "syscall"

// sysProcAttr makes the kernel kill a node when the test process dies
// without running its cleanups (a test timeout panics and exits), so no
// node outlives its test. Pdeathsig fires when the thread that started
// the child exits; the Go runtime keeps its threads unless a goroutine
// exits while locked to one, which this package never does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
