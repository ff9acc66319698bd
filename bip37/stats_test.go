package bip37

import (
	"math"
	"testing"
)

func TestStats(t *testing.T) {
	f, _ := New(1000, 0.01, 0, UpdateNone)
	if f.Fill() != 0 || f.EstimatedCount() != 0 {
		t.Errorf("empty filter: Fill %v, EstimatedCount %v, want 0, 0", f.Fill(), f.EstimatedCount())
	}
	for _, e := range benchElements(1000) {
		f.Add(e)
	}
	// At its design load a filter with the optimal count is about half full
	// and estimates its own load closely.
	if fill := f.Fill(); fill < 0.45 || fill > 0.55 {
		t.Errorf("Fill() = %v at design load, want about 0.5", fill)
	}
	if n := f.EstimatedCount(); math.Abs(n-1000) > 50 {
		t.Errorf("EstimatedCount() = %v, want about 1000", n)
	}
	if p := f.FalsePositiveRate(1000); p < 0.008 || p > 0.012 {
		t.Errorf("FalsePositiveRate(1000) = %v, want about 0.01", p)
	}
	if p, want := f.FilledFalsePositiveRate(), math.Pow(f.Fill(), float64(f.HashFuncs())); p != want {
		t.Errorf("FilledFalsePositiveRate() = %v, want Fill^k = %v", p, want)
	}
	all, _ := Load(nil, 0, 0, UpdateNone)
	if all.Fill() != 1 || !math.IsInf(all.EstimatedCount(), 1) || all.FalsePositiveRate(0) != 1 || all.FilledFalsePositiveRate() != 1 {
		t.Errorf("match-all filter: Fill %v, EstimatedCount %v, FalsePositiveRate %v, FilledFalsePositiveRate %v, want 1, +Inf, 1, 1",
			all.Fill(), all.EstimatedCount(), all.FalsePositiveRate(0), all.FilledFalsePositiveRate())
	}
}

func TestMerge(t *testing.T) {
	a, _ := New(10, 0.01, 5, UpdateAll)
	b, _ := New(10, 0.01, 5, UpdateAll)
	a.Add([]byte("a"))
	b.Add([]byte("b"))
	if err := a.Merge(b); err != nil || !a.Contains([]byte("a")) || !a.Contains([]byte("b")) {
		t.Errorf("Merge = %v, want a filter containing a and b", err)
	}
	for _, other := range []*Filter{
		mustNew(t, 20, 0.01, 5, UpdateAll), mustNew(t, 10, 0.01, 6, UpdateAll), mustNew(t, 10, 0.01, 5, UpdateNone),
	} {
		before := mustMarshal(t, a)
		if err := a.Merge(other); err == nil || string(mustMarshal(t, a)) != string(before) {
			t.Errorf("Merge(%d bytes, tweak %d, flags %d) = %v, want an error and no change", other.Size(), other.Tweak(), other.Flags(), err)
		}
	}
}

func mustNew(t *testing.T, n uint32, p float64, tweak uint32, flags Flags) *Filter {
	t.Helper()
	f, err := New(n, p, tweak, flags)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
