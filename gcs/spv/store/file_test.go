package store

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFile writes a side file, reads it back after a reopen, replaces it,
// and refuses what is not one: a missing file, a flipped byte, a file
// longer than its reader accepts (refused before it is read), a file
// copied under another name, and names that are the store's own.
func TestFile(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	must(t, err)
	if _, err := s.ReadFile("wallet", 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file = %v, want fs.ErrNotExist", err)
	}
	must(t, s.PutFile("wallet", []byte("first")))
	must(t, s.PutFile("wallet", []byte("second state")))
	must(t, s.PutFile("empty", nil))
	must(t, s.Close())

	s, err = Open(dir)
	must(t, err)
	defer s.Close()
	if got, err := s.ReadFile("wallet", 100); err != nil || string(got) != "second state" {
		t.Errorf("ReadFile = %q, %v; want the second state", got, err)
	}
	if got, err := s.ReadFile("empty", 0); err != nil || len(got) != 0 {
		t.Errorf("ReadFile(empty) = %q, %v", got, err)
	}
	if _, err := s.ReadFile("wallet", 11); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Join(dir, "wallet")) {
		t.Errorf("ReadFile with a limit below its size = %v, want ErrCorrupt naming the file", err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "wallet"))
	must(t, err)
	for i := range raw {
		bad := bytes.Clone(raw)
		bad[i] ^= 0x10
		must(t, os.WriteFile(filepath.Join(dir, "bad"), bad, 0o600))
		if _, err := s.ReadFile("bad", 100); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: ReadFile = %v, want ErrCorrupt", i, err)
		}
	}
	must(t, os.WriteFile(filepath.Join(dir, "copy"), raw, 0o600))
	if _, err := s.ReadFile("copy", 100); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a file copied under another name: %v, want ErrCorrupt", err)
	}
	for _, name := range []string{"", "a/b", "..", "state", "headers", "filters", "lock", "wallet.tmp"} {
		if err := s.PutFile(name, nil); err == nil {
			t.Errorf("PutFile(%q) = nil, want an error", name)
		}
	}
}

// TestFileHugeRefused: a file far larger than the limit fails on its size
// alone (the reader must not allocate what the disk says).
func TestFileHugeRefused(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	must(t, err)
	defer s.Close()
	f, err := os.Create(filepath.Join(dir, "peers"))
	must(t, err)
	must(t, f.Truncate(1<<40)) // sparse: a terabyte on paper
	must(t, f.Close())
	if _, err := s.ReadFile("peers", 1<<20); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "1099511627776 bytes") {
		t.Errorf("ReadFile of a 1 TB file = %v", err)
	}
}

// TestFileCrash crashes PutFile at each of its operations, over a file
// that holds an older version, and reads what each kind of disk would
// hold after it: the old data or the new, never an error.
func TestFileCrash(t *testing.T) {
	old, new := []byte("old state"), bytes.Repeat([]byte("new state "), 50)
	probe := newFaultDir()
	s, err := open(probe)
	must(t, err)
	must(t, s.PutFile("wallet", old))
	before := probe.ops
	must(t, s.PutFile("wallet", new))
	total := probe.ops - before
	r := rand.New(rand.NewPCG(3, 4))
	for at := 1; at <= total; at++ {
		d := newFaultDir()
		s, err := open(d)
		must(t, err)
		must(t, s.PutFile("wallet", old))
		d.crashAt = d.ops + at
		if err := s.PutFile("wallet", new); !errors.Is(err, errCrash) {
			t.Fatalf("crash at %d: PutFile = %v", at, err)
		}
		for img := range numImages {
			s, err := open(d.afterCrash(img, r))
			must(t, err)
			got, err := s.ReadFile("wallet", 1000)
			if err != nil || !bytes.Equal(got, old) && !bytes.Equal(got, new) {
				t.Fatalf("crash at %d/%d, image %d: ReadFile = %.20q, %v; want the old or the new data", at, total, img, got, err)
			}
		}
	}
	t.Logf("%d crash points, %d images each", total, numImages)
}

// TestFileMemory: a store in memory keeps its files for the run.
func TestFileMemory(t *testing.T) {
	s := Memory()
	defer s.Close()
	must(t, s.PutFile("wallet", []byte{1, 2, 3}))
	if got, err := s.ReadFile("wallet", 3); err != nil || !bytes.Equal(got, []byte{1, 2, 3}) {
		t.Errorf("ReadFile = %v, %v", got, err)
	}
	if _, err := s.ReadFile("wallet", 2); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ReadFile over its limit = %v", err)
	}
}

// FuzzFile decodes arbitrary side files: no panic, and what decodes is
// the data between the frame's header and its checksum.
func FuzzFile(f *testing.F) {
	d := newFaultDir()
	s, err := open(d)
	if err != nil {
		f.Fatal(err)
	}
	if err := s.PutFile("wallet", []byte("a wallet")); err != nil {
		f.Fatal(err)
	}
	f.Add(d.entries["wallet"].data)
	f.Add([]byte(fileMagic + "\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		data, err := decodeFile("wallet", b)
		if err != nil {
			return
		}
		if len(data)+fileFrame != len(b) || !bytes.Equal(data, b[8:len(b)-4]) {
			t.Fatalf("decoded %d bytes of data from a %d-byte file", len(data), len(b))
		}
	})
}
