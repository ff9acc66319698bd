package bip37

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

func TestNewErrors(t *testing.T) {
	if f, err := New(0, 0.01, 0, UpdateAll); err == nil {
		t.Errorf("New(0, 0.01) = %d bytes, nil, want an error", f.Size())
	}
	if f, err := New(1, 0.05, 0, UpdateAll); err == nil {
		t.Errorf("New(1, 0.05) = %d bytes, nil, want an error (empty filter)", f.Size())
	}
}

func TestLoadLimits(t *testing.T) {
	tests := []struct {
		size      int
		hashFuncs uint32
		ok        bool
	}{
		{0, 0, true}, // matches everything, but a peer may send it
		{MaxFilterSize, MaxHashFuncs, true},
		{MaxFilterSize + 1, 1, false},
		{10, MaxHashFuncs + 1, false},
	}
	for _, tt := range tests {
		_, err := Load(make([]byte, tt.size), tt.hashFuncs, 0, UpdateNone)
		if (err == nil) != tt.ok {
			t.Errorf("Load(%d bytes, %d functions) error = %v, want ok %v", tt.size, tt.hashFuncs, err, tt.ok)
		}
	}
}

func TestLoadCopies(t *testing.T) {
	data := []byte{0, 0, 0}
	f, _ := Load(data, 3, 0, UpdateNone)
	f.Add([]byte("x"))
	if !bytes.Equal(data, []byte{0, 0, 0}) {
		t.Errorf("Add changed the caller's slice to %x", data)
	}
}

// TestMatchesAll pins Core's semantics for filters without data or hash
// functions: everything matches and inserting changes nothing.
func TestMatchesAll(t *testing.T) {
	for _, f := range []*Filter{mustLoad(t, nil, 5), mustLoad(t, []byte{0, 0}, 0)} {
		f.Add([]byte("abc"))
		if !f.MatchesAll() || !f.Contains([]byte("anything")) || !f.Contains(nil) {
			t.Errorf("filter of %d bytes, %d functions: MatchesAll %v, Contains false, want everything", f.Size(), f.HashFuncs(), f.MatchesAll())
		}
		if b, _ := f.MarshalBinary(); f.Size() > 0 && !bytes.Equal(b[1:1+f.Size()], make([]byte, f.Size())) {
			t.Errorf("Add set bits in a filter with no hash functions: %x", b)
		}
		if !f.MatchTx(wire.NewMsgTx(1), chainhash.Hash{}) {
			t.Errorf("MatchTx = false on a filter that matches everything")
		}
	}
}

func TestAddContains(t *testing.T) {
	f, err := New(100, 0.001, 12345, UpdateNone)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 8))
	// Lengths cover both stack buffers and the unbuffered path.
	var in [][]byte
	for _, n := range []int{0, 1, 20, 32, 33, 36, 65, 79, 80, 81, 300, 520, 521, 4000} {
		in = append(in, randomBytes(r, n))
	}
	for _, e := range in {
		f.Add(e)
	}
	for _, e := range in {
		if !f.Contains(e) {
			t.Errorf("Contains(%d bytes) = false after Add", len(e))
		}
	}
	f.Reset()
	if f.Fill() != 0 {
		t.Errorf("Fill() = %v after Reset, want 0", f.Fill())
	}
}

// TestFilterMatchesBTCD inserts the same elements into both libraries'
// filters wherever both derive the same parameters: the filterload bytes and
// every membership answer must agree.
func TestFilterMatchesBTCD(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	compared := 0
	for range 300 {
		n := 1 + r.Uint32N(300)
		p := []float64{0.1, 0.01, 1e-4, 1e-6}[r.IntN(4)]
		tweak, flags := r.Uint32(), Flags(r.UintN(3))
		ours, err := New(n, p, tweak, flags)
		theirs := bloom.NewFilter(n, tweak, p, wire.BloomUpdateType(flags))
		if err != nil || ours.HashFuncs() != theirs.MsgFilterLoad().HashFuncs {
			continue
		}
		compared++
		for range n {
			e := randomBytes(r, r.IntN(100))
			ours.Add(e)
			theirs.Add(e)
		}
		want := wireFilterLoad(t, theirs.MsgFilterLoad())
		if got, _ := ours.MarshalBinary(); !bytes.Equal(got, want) {
			t.Fatalf("after %d inserts (%v, tweak %d): filterload %x, btcd %x", n, p, tweak, got, want)
		}
		for range 200 {
			e := randomBytes(r, r.IntN(100))
			if ours.Contains(e) != theirs.Matches(e) {
				t.Fatalf("Contains(%x) = %v, btcd %v", e, ours.Contains(e), theirs.Matches(e))
			}
		}
	}
	if compared < 100 {
		t.Errorf("compared %d filters, want at least 100", compared)
	}
}

func TestOutPointAndHash(t *testing.T) {
	h, _ := chainhash.NewHashFromStr("90c122d70786e899529d71dbeba91ba216982fb6ba58f3bdaab65e73b7e9260b")
	op := wire.OutPoint{Hash: *h, Index: 0x01020304}
	f, _ := New(10, 1e-6, 0, UpdateNone)
	f.AddOutPoint(op)
	f.AddHash(*h)
	raw := append(append([]byte(nil), h[:]...), 4, 3, 2, 1)
	if !f.Contains(raw) || !f.ContainsOutPoint(op) || !f.ContainsHash(*h) || !f.Contains(h[:]) {
		t.Errorf("outpoint or hash not found under its serialisation")
	}
	if f.ContainsOutPoint(wire.OutPoint{Hash: *h, Index: 1}) {
		t.Errorf("ContainsOutPoint(index 1) = true, want false")
	}
}

func TestClone(t *testing.T) {
	f, _ := New(10, 0.01, 1, UpdateAll)
	g := f.Clone()
	g.Add([]byte("only in the clone"))
	if f.Contains([]byte("only in the clone")) {
		t.Errorf("Clone shares bits with the original")
	}
}

func mustLoad(t *testing.T, data []byte, k uint32) *Filter {
	t.Helper()
	f, err := Load(data, k, 0, UpdateAll)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// wireFilterLoad encodes a filterload message with btcd.
func wireFilterLoad(t testing.TB, msg *wire.MsgFilterLoad) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := msg.BtcEncode(&buf, wire.ProtocolVersion, wire.BaseEncoding); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
