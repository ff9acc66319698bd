//go:build unix

package scan_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system: the
// client's and the in-process node's work, which the machine's other
// load does not inflate as it does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
