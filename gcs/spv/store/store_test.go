package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

var testID = Identity{Net: wire.TestNet, Genesis: chainhash.Hash{0x0f}}

// chain returns n linked headers after prev (the zero hash for a chain's
// first), distinguished by salt: the store checks links, not proof of work.
func chain(prev chainhash.Hash, n int, salt uint32) []wire.BlockHeader {
	hs := make([]wire.BlockHeader, n)
	for i := range hs {
		hs[i] = wire.BlockHeader{Version: 4, PrevBlock: prev, Timestamp: time.Unix(1600000000+int64(i)*600, 0),
			Bits: 0x207fffff, Nonce: uint32(i) ^ salt<<20}
		prev = hs[i].BlockHash()
	}
	return hs
}

func filterHeaders(n int, salt byte) []chainhash.Hash {
	fs := make([]chainhash.Hash, n)
	for i := range fs {
		fs[i] = chainhash.Hash{byte(i), byte(i >> 8), salt}
	}
	return fs
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	must(t, err)
	if !s.Empty() {
		t.Fatalf("Open(new dir).Empty() = false")
	}
	hs := chain(chainhash.Hash{}, 30, 0)
	must(t, s.Init(testID, 100, 110, hs[:11]))
	must(t, s.Append(hs[11:]))
	must(t, s.AppendFilters(105, filterHeaders(20, 1)))
	must(t, s.Commit())
	must(t, s.Close())

	s, err = Open(dir)
	must(t, err)
	defer s.Close()
	st := s.State()
	if st.Base != 100 || st.Anchor != 110 || st.Tip != 129 || st.TipHash != hs[29].BlockHash() || st.AnchorHash != hs[10].BlockHash() ||
		st.FilterBase != 105 || st.FilterTip != 124 || st.Identity != testID || s.Recovered() != nil {
		t.Fatalf("reopened state %+v, recovered %q", st, s.Recovered())
	}
	for i, want := range hs {
		h, hash, err := s.Header(100 + int32(i))
		if err != nil || h.BlockHash() != want.BlockHash() || hash != want.BlockHash() || !h.Timestamp.Equal(want.Timestamp) {
			t.Fatalf("Header(%d) = %v, %s, %v; want %v", 100+i, h, hash, err, want)
		}
	}
	got, err := s.Hashes(nil, 120, 129)
	if err != nil || len(got) != 10 || got[9] != hs[29].BlockHash() {
		t.Errorf("Hashes(120, 129) = %v, %v", got, err)
	}
	fs, err := s.FilterHeaders(nil, 105, 124)
	if err != nil || fs[19] != filterHeaders(20, 1)[19] {
		t.Errorf("FilterHeaders(105, 124) = %v, %v", fs, err)
	}
	for _, h := range []int32{99, 130} {
		if _, _, err := s.Header(h); err == nil {
			t.Errorf("Header(%d) outside 100..129 = nil error", h)
		}
	}
	must(t, s.Verify())
}

func TestStoreRejects(t *testing.T) {
	s := Memory()
	hs := chain(chainhash.Hash{}, 10, 0)
	if err := s.Append(hs); err == nil {
		t.Errorf("Append before Init = nil error")
	}
	must(t, s.Init(testID, 0, 0, hs[:5]))
	other := chain(chainhash.Hash{1}, 2, 0)
	tests := []struct {
		name string
		err  error
	}{
		{"Init twice", s.Init(testID, 0, 0, hs)},
		{"Append that does not link", s.Append(other)},
		{"filters past the header tip", s.AppendFilters(0, filterHeaders(6, 0))},
		{"Truncate below the anchor", s.Truncate(-1)},
		{"Truncate above the tip", s.Truncate(5)},
	}
	for _, tt := range tests {
		if tt.err == nil {
			t.Errorf("%s: nil error", tt.name)
		}
	}
	must(t, s.AppendFilters(2, filterHeaders(2, 0)))
	if err := s.AppendFilters(5, filterHeaders(1, 0)); err == nil {
		t.Errorf("AppendFilters leaving a gap = nil error")
	}
}

func TestStoreLock(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	must(t, err)
	_, err = Open(dir)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d since ", os.Getpid())) {
		t.Errorf("Open(a locked store) = %v, want ErrLocked naming pid %d", err, os.Getpid())
	}
	must(t, s.Close())
	s, err = Open(dir)
	must(t, err)
	s.Close()
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/tmp/cache")
	t.Setenv("HOME", "/tmp/home")
	d, err := DefaultDir("testnet4")
	if err != nil || (d != "/tmp/cache/chainsieve/btc/testnet4" && !strings.HasSuffix(d, filepath.Join("chainsieve", "btc", "testnet4"))) {
		t.Errorf("DefaultDir(testnet4) = %q, %v", d, err)
	}
}

// workload drives a store through every kind of write: a chain from an
// anchor, appends, filter headers, a reorganisation, filter truncation.
// commits records each state a commit made; pending is set to the state
// being committed while a commit runs.
type workload struct {
	main, alt []wire.BlockHeader
	commits   []State
	pending   *State
}

func newWorkload() *workload {
	main := chain(chainhash.Hash{}, 40, 0)
	return &workload{main: main, alt: chain(main[21].BlockHash(), 30, 7)}
}

func (w *workload) run(s *Store) error {
	steps := []func() error{
		func() error { return s.Init(testID, 0, 10, w.main[:11]) },
		func() error { return s.Append(w.main[11:25]) },
		s.Commit,
		func() error { return s.Append(w.main[25:40]) },
		func() error { return s.AppendFilters(5, filterHeaders(20, 1)) },
		s.Commit,
		func() error { return s.AppendFilters(25, filterHeaders(10, 2)[:10]) },
		func() error { return s.Truncate(21) }, // reorganisation: commits the lowered tips
		func() error { return s.Append(w.alt) },
		func() error { return s.AppendFilters(22, filterHeaders(15, 3)) },
		s.Commit,
		func() error { return s.TruncateFilters(15) },
		func() error { return s.AppendFilters(16, filterHeaders(20, 4)) },
		s.Commit,
	}
	for _, step := range steps {
		before := s.Committed()
		next := s.State()
		w.pending = &next
		err := step()
		if after := s.Committed(); after != before {
			w.commits = append(w.commits, after)
		}
		if err != nil {
			return err
		}
	}
	w.pending = nil
	return nil
}

// TestCrashAtEveryOperation crashes the workload at each of its file
// operations in turn and reopens what each kind of disk would hold after
// it: the store must open, hold exactly the last committed state or the
// one being committed, and every record must check.
func TestCrashAtEveryOperation(t *testing.T) {
	w := newWorkload()
	d := newFaultDir()
	s, err := open(d)
	must(t, err)
	must(t, w.run(s))
	total := d.ops
	r := rand.New(rand.NewPCG(1, 2))
	crashes := 0
	for at := 1; at <= total; at++ {
		d := newFaultDir()
		d.crashAt = at
		w := newWorkload()
		if s, err := open(d); err == nil {
			err = w.run(s)
			if !errors.Is(err, errCrash) {
				t.Fatalf("crash at operation %d: workload returned %v", at, err)
			}
		}
		crashes++
		for img := range numImages {
			checkAfterCrash(t, d.afterCrash(img, r), w, fmt.Sprintf("crash at %d/%d, image %d", at, total, img))
		}
	}
	t.Logf("%d crash points, %d images each", crashes, numImages)
}

func checkAfterCrash(t *testing.T, d *faultDir, w *workload, what string) {
	t.Helper()
	s, err := open(d)
	if err != nil {
		t.Fatalf("%s: reopen = %v", what, err)
	}
	got := s.State()
	if s.Empty() {
		if len(w.commits) > 0 {
			t.Fatalf("%s: reopened empty after %d commits", what, len(w.commits))
		}
		return
	}
	var ok []State
	if len(w.commits) > 0 {
		ok = append(ok, w.commits[len(w.commits)-1])
	}
	if w.pending != nil {
		ok = append(ok, *w.pending)
	}
	matched := false
	for _, st := range ok {
		matched = matched || got == st
	}
	if !matched {
		t.Fatalf("%s: reopened state\n%+v\nwant one of\n%+v (recovered %q)", what, got, ok, s.Recovered())
	}
	if err := s.Verify(); err != nil {
		t.Fatalf("%s: Verify() = %v", what, err)
	}
	if got.Tip > 21 && got.TipHash != w.alt[got.Tip-22].BlockHash() && got.TipHash != w.main[got.Tip].BlockHash() {
		t.Fatalf("%s: tip %d is %s, on neither chain", what, got.Tip, got.TipHash)
	}
}

// TestFailedWrite fails each operation of the workload once with an I/O
// error: the error reaches the caller, later writes are refused, and a
// reopened store holds a committed state.
func TestFailedWrite(t *testing.T) {
	probe := newFaultDir()
	s, err := open(probe)
	must(t, err)
	must(t, newWorkload().run(s))
	for at := 1; at <= probe.ops; at++ {
		d := newFaultDir()
		d.failAt = at
		w := newWorkload()
		s, err := open(d)
		if err != nil {
			continue // the failure hit Open itself, which reported it
		}
		if err := w.run(s); err == nil {
			continue // a read that failed and was not needed: none expected, but harmless
		} else if !errors.Is(err, errIO) {
			t.Fatalf("fail at %d: workload returned %v, want the I/O error", at, err)
		}
		if err := s.Append(nil); s.failed != nil && err == nil {
			// Append(nil) is a no-op; a real write must be refused.
			if err := s.AppendFilters(s.cur.FilterTip+1, filterHeaders(1, 9)); err == nil {
				t.Fatalf("fail at %d: a write after the failure succeeded", at)
			}
		}
		d.failAt = -1
		checkAfterCrash(t, d.afterCrash(syncedOnly, nil), w, fmt.Sprintf("I/O error at %d", at))
	}
}

// TestLyingDisk reopens stores whose files lost synced data or hold
// garbage: Open lowers the tips, says so, and keeps the anchor.
func TestLyingDisk(t *testing.T) {
	w := newWorkload()
	base := newFaultDir()
	s, err := open(base)
	must(t, err)
	must(t, w.run(s))
	st := s.State()
	tests := []struct {
		name     string
		mangle   func(hdr, flt *faultFile)
		wantTip  int32
		wantFTip int32
	}{
		{"headers file short by 3 records", func(h, _ *faultFile) { h.data = h.data[:len(h.data)-3*headerRec] }, st.Tip - 3, st.FilterTip},
		{"partial last header", func(h, _ *faultFile) { h.data = h.data[:len(h.data)-10] }, st.Tip - 1, st.FilterTip},
		{"a header flipped 5 from the tip", func(h, _ *faultFile) { h.data[len(h.data)-5*headerRec+7] ^= 1 }, st.Tip - 5, st.FilterTip},
		{"zeros where the last 2 headers were", func(h, _ *faultFile) { clear(h.data[len(h.data)-2*headerRec:]) }, st.Tip - 2, st.FilterTip},
		{"a filter header flipped", func(_, f *faultFile) { f.data[len(f.data)-filterRec] ^= 1 }, st.Tip, st.FilterTip - 1},
		{"headers cut below the filter tip", func(h, _ *faultFile) { h.data = h.data[:(st.FilterTip-3-st.Base+1)*headerRec] }, st.FilterTip - 3, st.FilterTip - 3},
		{"filters file empty", func(_, f *faultFile) { f.data = nil }, st.Tip, st.FilterBase - 1},
	}
	for _, tt := range tests {
		d := base.afterCrash(everything, nil)
		tt.mangle(d.entries[headersFile], d.entries[filtersFile])
		s, err := open(d)
		if err != nil {
			t.Errorf("%s: Open = %v", tt.name, err)
			continue
		}
		got := s.State()
		if got.Tip != tt.wantTip || got.FilterTip != tt.wantFTip || len(s.Recovered()) == 0 || s.Verify() != nil {
			t.Errorf("%s: tips %d, %d (recovered %q, verify %v), want %d, %d", tt.name, got.Tip, got.FilterTip, s.Recovered(), s.Verify(), tt.wantTip, tt.wantFTip)
		}
		if s.Committed() != got {
			t.Errorf("%s: the repaired state was not committed", tt.name)
		}
	}
	d := base.afterCrash(everything, nil)
	d.entries[headersFile].data = d.entries[headersFile].data[:5*headerRec]
	if _, err := open(d); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open(headers lost below the anchor) = %v, want ErrCorrupt", err)
	}
	d = base.afterCrash(everything, nil)
	d.entries[stateFile].data[100] ^= 1
	if _, err := open(d); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "remove the directory") {
		t.Errorf("Open(state with a flipped bit) = %v, want ErrCorrupt", err)
	}
}

// TestMemFile checks the chunked in-memory file against a byte slice on
// writes across chunk boundaries, truncations and extensions.
func TestMemFile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var f memFile
	var want []byte
	for range 120 {
		switch r.IntN(3) {
		case 0, 1:
			off := r.Int64N(3 * memChunk)
			p := make([]byte, r.IntN(memChunk/2))
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			f.WriteAt(p, off)
			want = apply(want, write{off, p})
		case 2:
			size := r.Int64N(3 * memChunk)
			f.Truncate(size)
			want = apply(want, write{off: size})
		}
		if got := f.bytes(); string(got) != string(want) {
			t.Fatalf("memFile holds %d bytes unlike the %d written", len(got), len(want))
		}
	}
}
