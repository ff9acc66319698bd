package flock_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainsieve/chainsieve/core/flock"
)

// TestTryLock opens one file twice: a flock belongs to the open file, so
// the two exclude each other as two processes would.
func TestTryLock(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock on this system")
	}
	name := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b := open(), open()
	for _, tt := range []struct {
		name string
		f    *os.File
		kind flock.Kind
		want bool
	}{
		{"shared", a, flock.Shared, true},
		{"second shared", b, flock.Shared, true},
		{"exclusive over a shared", a, flock.Exclusive, false},
	} {
		if ok, err := flock.TryLock(tt.f, tt.kind); ok != tt.want || err != nil {
			t.Errorf("%s: TryLock = %t, %v, want %t", tt.name, ok, err, tt.want)
		}
	}
	if err := flock.Unlock(b); err != nil {
		t.Fatalf("Unlock = %v", err)
	}
	if ok, err := flock.TryLock(a, flock.Exclusive); !ok || err != nil {
		t.Errorf("exclusive once alone: TryLock = %t, %v, want true", ok, err)
	}
	if ok, err := flock.TryLock(b, flock.Shared); ok || err != nil {
		t.Errorf("shared over an exclusive: TryLock = %t, %v, want false", ok, err)
	}
	a.Close()
	if ok, err := flock.TryLock(b, flock.Exclusive); !ok || err != nil {
		t.Errorf("exclusive after the holder closed: TryLock = %t, %v, want true", ok, err)
	}
}
