package spv

import "time"

// SetCommitEvery sets how often SyncHeaders commits, for tests that want
// a commit after every headers message; it returns a func restoring it.
func SetCommitEvery(d time.Duration) func() {
	old := commitEvery
	commitEvery = d
	return func() { commitEvery = old }
}
