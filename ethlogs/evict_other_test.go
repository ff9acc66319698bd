//go:build !linux

package ethlogs_test

import (
	"os"
	"testing"
)

func evict(b *testing.B, dir string) { b.Skip("cold reads need posix_fadvise (linux)") }

const canEvict = false

func allocated(fi os.FileInfo) int64 { return fi.Size() }
