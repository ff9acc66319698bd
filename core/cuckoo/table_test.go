package cuckoo

import (
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
			if probe != 0 && tb.has(i, probe*tb.ones) != wantOK {
				t.Fatalf("f %d: has(bucket %d, %d) = %v, want %v", f, i, probe, !wantOK, wantOK)
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
