//go:build !unix

package livenode

import "context"

// lockFile is a no-op where flock is missing: concurrent builds may then
// both run, and the rename into place keeps the cache consistent.
func lockFile(ctx context.Context, name string) (unlock func(), err error) {
	return func() {}, ctx.Err()
}
