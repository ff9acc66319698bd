//go:build !linux

package ethlogs_test

import "testing"

func evict(b *testing.B, dir string) { b.Skip("cold reads need posix_fadvise (linux)") }

const canEvict = false
