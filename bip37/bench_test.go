package bip37

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/wire/v2"
)

// benchElements returns n distinct 32-byte elements, the size of the txids
// and witness programs wallets insert.
func benchElements(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		h := sha256.Sum256(b[:])
		out[i] = h[:]
	}
	return out
}

// BenchmarkAdd inserts 32-byte elements into a filter sized for 1,000
// elements at 1e-6 (3,594 bytes, 19 hash functions in both libraries).
func BenchmarkAdd(b *testing.B) {
	elems := benchElements(1000)
	b.Run("chainsieve", func(b *testing.B) {
		f, _ := New(1000, 1e-6, 7, UpdateNone)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			f.Add(elems[i%len(elems)])
		}
	})
	b.Run("btcd", func(b *testing.B) {
		f := bloom.NewFilter(1000, 7, 1e-6, wire.BloomUpdateNone)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			f.Add(elems[i%len(elems)])
		}
	})
}

func BenchmarkContains(b *testing.B) {
	elems := benchElements(2000)
	ours, _ := New(1000, 1e-6, 7, UpdateNone)
	theirs := bloom.NewFilter(1000, 7, 1e-6, wire.BloomUpdateNone)
	for _, e := range elems[:1000] {
		ours.Add(e)
		theirs.Add(e)
	}
	var sink bool
	for _, c := range []struct {
		name  string
		elems [][]byte
	}{{"member", elems[:1000]}, {"nonmember", elems[1000:]}} {
		b.Run(c.name+"/chainsieve", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != ours.Contains(c.elems[i%len(c.elems)])
			}
		})
		b.Run(c.name+"/btcd", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != theirs.Matches(c.elems[i%len(c.elems)])
			}
		})
	}
}
