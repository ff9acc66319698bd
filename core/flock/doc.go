// Package flock takes advisory whole-file locks (flock(2)) without
// waiting. The kernel releases a flock when the file is closed or its
// holder dies, so a crashed process never leaves a file locked.
//
// A flock belongs to an open file, not to a process: two opens of the same
// path in one process exclude each other. Where flock is missing
// ([Supported] is false), [TryLock] always succeeds and the caller must
// make sure that one process at a time uses the file.
package flock
