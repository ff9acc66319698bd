package spvtest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// CheckStore opens the store in dir (as a process killed while writing
// it left it), checks every record, and, given the directory of a
// reference store an uninterrupted run wrote, that its headers and filter
// headers are a prefix of the reference's. It returns the store's state.
func CheckStore(t testing.TB, dir, ref string) store.State {
	t.Helper()
	s, err := store.Open(dir)
	if err != nil {
		t.Fatalf("store %s after the kill: %v", dir, err)
	}
	defer s.Close()
	if err := s.Verify(); err != nil {
		t.Fatalf("store %s: %v", dir, err)
	}
	st := s.State()
	if ref == "" || s.Empty() {
		return st
	}
	for _, name := range []string{"headers", "filters"} {
		want, _ := os.ReadFile(filepath.Join(ref, name))
		got, _ := os.ReadFile(filepath.Join(dir, name))
		if len(got) > len(want) || !bytes.Equal(got, want[:len(got)]) {
			t.Fatalf("store %s: %s (%d bytes) are not a prefix of the uninterrupted run's", dir, name, len(got))
		}
	}
	return st
}

// SameFiles reports an error for each of the store files in dir that
// differs, byte for byte, from the reference store's in ref.
func SameFiles(t testing.TB, dir, ref string) {
	t.Helper()
	for _, name := range []string{"headers", "filters"} {
		want, _ := os.ReadFile(filepath.Join(ref, name))
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("store %s: %s differ from the uninterrupted run's (%d bytes, %d; %v)", dir, name, len(got), len(want), err)
		}
	}
}
