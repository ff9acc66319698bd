package store

import (
	"bytes"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// FuzzState decodes arbitrary state files: no panic, and whatever decodes
// encodes back to the same bytes.
func FuzzState(f *testing.F) {
	st := State{Identity: testID, Base: 3, Anchor: 13, Tip: 20, FilterBase: 13, FilterTip: 19}
	f.Add(st.encode())
	f.Add(make([]byte, stateSize))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeState(b)
		if err != nil {
			return
		}
		if got := s.encode(); !bytes.Equal(got, b) {
			t.Fatalf("decode then encode changed the state:\n%x\n%x", b, got)
		}
	})
}

// FuzzOpen opens directories of arbitrary state, header and filter files:
// Open must not panic, and a store it opens must hold consistent tips and
// records that all check (the fuzzed stores are shorter than the tail Open
// re-reads).
func FuzzOpen(f *testing.F) {
	d := newFaultDir()
	s, err := open(d)
	if err != nil {
		f.Fatal(err)
	}
	if err := newWorkload().run(s); err != nil {
		f.Fatal(err)
	}
	f.Add(d.entries[stateFile].data, d.entries[headersFile].data, d.entries[filtersFile].data)
	f.Add(d.entries[stateFile].data, d.entries[headersFile].data[:100], d.entries[filtersFile].data[:50])
	f.Add([]byte{}, []byte{1, 2, 3}, []byte{})
	f.Fuzz(func(t *testing.T, state, headers, filters []byte) {
		d := newFaultDir()
		for name, b := range map[string][]byte{stateFile: state, headersFile: headers, filtersFile: filters} {
			ff := &faultFile{d: d, data: bytes.Clone(b), synced: bytes.Clone(b)}
			d.entries[name], d.durable[name] = ff, ff
		}
		s, err := open(d)
		if err != nil {
			return
		}
		if s.Empty() {
			if n, _ := s.headers.size(); n != 0 {
				t.Fatalf("empty store kept %d bytes of headers", n)
			}
			return
		}
		st := s.State()
		if err := st.check(); err != nil {
			t.Fatalf("opened with inconsistent tips: %v", err)
		}
		if err := s.Verify(); err != nil {
			t.Fatalf("opened a store whose records fail: %v", err)
		}
		// The store must take writes after a repair.
		if err := s.AppendFilters(st.FilterTip+1, []chainhash.Hash{{1}}); st.FilterTip < st.Tip && err != nil {
			t.Fatalf("AppendFilters after Open = %v", err)
		}
	})
}
