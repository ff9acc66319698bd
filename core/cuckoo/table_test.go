package cuckoo

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestTableFind checks the SWAR bucket search against a slot-by-slot scan
// for every fingerprint width, with values chosen to collide often.
func TestTableFind(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for f := uint(2); f <= 32; f++ {
		tb := newTable(13, f)
		// Few distinct values, so buckets hold matches and near misses.
		values := []uint64{1, 2, tb.fpMask, tb.fpMask - 1, 1 << (f - 1), 1<<(f-1) - 1}
		for range 2000 {
			pos := r.Uint64N(13*slotsPerBucket) * tb.f
			v := values[r.IntN(len(values))]
			if r.IntN(4) == 0 {
				v = 0
			}
			tb.set(pos, v)
			if got := tb.slot(pos); got != v {
				t.Fatalf("f %d: slot(%d) after set(%d) = %d", f, pos, v, got)
			}
			i := r.Uint64N(13)
			probe := values[r.IntN(len(values))]
			if r.IntN(3) == 0 {
				probe = 0
			}
			want, wantOK := naiveFind(&tb, i, probe)
			got, ok := tb.find(i, probe*tb.ones)
			if ok != wantOK || (ok && got != want) {
				t.Fatalf("f %d: find(bucket %d, %d) = %d, %v, want %d, %v", f, i, probe, got, ok, want, wantOK)
			}
		}
	}
}

func naiveFind(tb *table, i, v uint64) (uint64, bool) {
	for j := range uint64(slotsPerBucket) {
		pos := (i*slotsPerBucket + j) * tb.f
		if tb.slot(pos) == v {
			return pos, true
		}
	}
	return 0, false
}

// TestTestEveryWidth checks Test's SWAR test of both buckets (one load
// per bucket up to f = 16, two halves above) against a slot-by-slot scan of
// the element's two buckets, for every fingerprint width, on tables full
// enough that buckets hold near misses.
func TestTestEveryWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for w := 2; w <= 32; w++ {
		f, _ := NewWithShape(7, w)
		key := make([]byte, 8)
		for range 40 {
			binary.LittleEndian.PutUint64(key, r.Uint64())
			_ = f.Add(key)
		}
		for range 2000 {
			binary.LittleEndian.PutUint64(key, r.Uint64())
			i, fp := f.hash(key)
			_, in1 := naiveFind(&f.t, i, fp)
			_, in2 := naiveFind(&f.t, f.alt(i, fp), fp)
			if got := f.Test(key); got != (in1 || in2) {
				t.Fatalf("f = %d: Test(%x) = %v, want %v from a slot scan", w, key, got, in1 || in2)
			}
		}
	}
}
