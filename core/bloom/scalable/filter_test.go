package scalable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// key returns element i: its 8-byte little-endian counter. Members and
// non-members are distinct ranges of the counter.
func key(buf *[8]byte, i uint64) []byte {
	binary.LittleEndian.PutUint64(buf[:], i)
	return buf[:]
}

// grow adds the elements [0, n) and returns how many Add reported new.
func grow(f *Filter, n uint64) uint64 {
	var buf [8]byte
	added := uint64(0)
	for i := range n {
		if f.Add(key(&buf, i)) {
			added++
		}
	}
	return added
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		p     Params
		field string
	}{
		{Params{Capacity: 0, FalsePositiveRate: 0.01}, "Capacity"},
		{Params{Capacity: 10, FalsePositiveRate: 0}, "FalsePositiveRate"},
		{Params{Capacity: 10, FalsePositiveRate: 1}, "FalsePositiveRate"},
		{Params{Capacity: 10, FalsePositiveRate: math.NaN()}, "FalsePositiveRate"},
		{Params{Capacity: 10, FalsePositiveRate: 0.01, Tightening: 1}, "Tightening"},
		{Params{Capacity: 10, FalsePositiveRate: 0.01, Tightening: -0.5}, "Tightening"},
		{Params{Capacity: 10, FalsePositiveRate: 0.01, Tightening: math.NaN()}, "Tightening"},
		{Params{Capacity: 10, FalsePositiveRate: 0.01, Growth: 1}, "Growth"},
		{Params{Capacity: 10, FalsePositiveRate: 0.01, Growth: MaxGrowth + 1}, "Growth"},
		// 2^40 elements at 1 % need about 10^13 bits, beyond 2^37.
		{Params{Capacity: 1 << 40, FalsePositiveRate: 0.01}, "Params"},
		// A first-stage rate below about 2^-100 needs more than 100 hashes.
		{Params{Capacity: 10, FalsePositiveRate: 1e-40}, "Params"},
	}
	for _, tt := range tests {
		f, err := New(tt.p)
		if err == nil {
			t.Errorf("New(%+v) = %d stages, want an error naming %s", tt.p, f.Stages(), tt.field)
			continue
		}
		if !strings.HasPrefix(err.Error(), "scalable: ") || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("New(%+v) error = %q, want it to name %s", tt.p, err, tt.field)
		}
	}
}

func TestNewDefaults(t *testing.T) {
	f, err := New(Params{Capacity: 100, FalsePositiveRate: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	want := Params{Capacity: 100, FalsePositiveRate: 0.01, Tightening: DefaultTightening, Growth: DefaultGrowth}
	if got := f.Params(); got != want || f.Stages() != 1 {
		t.Errorf("New(defaults) = %+v, %d stages, want %+v, 1 stage", got, f.Stages(), want)
	}
}

// TestStageShapes grows filters across several stages and checks the
// geometric series: stage i holds n0·s^i at P·(1−r)·r^i, with the m and k
// that core/bloom's New chooses for that n and p, and every stage before
// the newest is exactly full.
func TestStageShapes(t *testing.T) {
	tests := []struct {
		p          Params
		n          uint64
		wantStages int
	}{
		// 1,000 + 2,000 + … + 64,000 = 127,000 ≥ 100,000 > 63,000.
		{Params{Capacity: 1000, FalsePositiveRate: 0.01, Tightening: 0.85, Growth: 2}, 100_000, 7},
		// 1,000 + 4,000 + 16,000 + 64,000 = 85,000 < 100,000.
		{Params{Capacity: 1000, FalsePositiveRate: 0.01, Tightening: 0.5, Growth: 4}, 100_000, 5},
		{Params{Capacity: 1, FalsePositiveRate: 0.1, Tightening: 0.9, Growth: 3}, 100, 5},
	}
	for _, tt := range tests {
		f, err := New(tt.p)
		if err != nil {
			t.Fatal(err)
		}
		added := grow(f, tt.n)
		st := f.Stats()
		if st.Stages != tt.wantStages || f.Stages() != tt.wantStages || st.Added != added || f.Added() != added {
			t.Errorf("%+v after %d: Stats() = %d stages, %d added, want %d stages, %d added", tt.p, tt.n, st.Stages, st.Added, tt.wantStages, added)
		}
		var bitsSum, capSum, addedSum uint64
		for i, s := range st.Stage {
			capacity := tt.p.Capacity * uint64(math.Pow(float64(tt.p.Growth), float64(i)))
			rate := tt.p.FalsePositiveRate * (1 - tt.p.Tightening) * math.Pow(tt.p.Tightening, float64(i))
			oracle, _ := bloom.New(capacity, rate)
			if s.Capacity != capacity || math.Abs(s.Rate-rate) > 1e-12*rate || s.Bits != oracle.M() || s.Hashes != oracle.K() {
				t.Errorf("%+v stage %d = n %d p %g m %d k %d, want n %d p %g m %d k %d", tt.p, i, s.Capacity, s.Rate, s.Bits, s.Hashes, capacity, rate, oracle.M(), oracle.K())
			}
			if i < len(st.Stage)-1 && s.Added != s.Capacity {
				t.Errorf("%+v stage %d added %d, want its capacity %d", tt.p, i, s.Added, s.Capacity)
			}
			bitsSum, capSum, addedSum = bitsSum+s.Bits, capSum+s.Capacity, addedSum+s.Added
		}
		if st.Bits != bitsSum || st.Capacity != capSum || addedSum != added || st.Bound != tt.p.FalsePositiveRate {
			t.Errorf("%+v: Stats() = bits %d capacity %d bound %g, stages add %d, want %d, %d, %g, %d", tt.p, st.Bits, st.Capacity, st.Bound, addedSum, bitsSum, capSum, tt.p.FalsePositiveRate, added)
		}
	}
}

// TestRateBound is the property test. Each filter grows from n0 = 1,000 to
// 100,000 elements (several stages). No member is ever missed, and the rate
// measured over non-members must
//   - sit within 5 standard deviations of theory, 1 − Π(1 − (1 − e^(−k_i·n_i/m_i))^k_i)
//     over the stages' real counts (5σ: a chance failure is below 1 in 10^6);
//   - sit within 5σ of Stats().FalsePositiveRate, the estimate from the fill;
//   - stay below the bound P, plus 5σ of a binomial at rate P.
func TestRateBound(t *testing.T) {
	const n0, n = 1000, 100_000
	tests := []struct {
		p      float64
		r      float64
		s      uint64
		trials uint64
	}{
		{0.01, 0.5, 2, 1_000_000},
		{0.01, 0.85, 2, 1_000_000},
		{0.01, 0.9, 2, 1_000_000},
		{0.01, 0.5, 4, 1_000_000},
		{0.01, 0.85, 4, 1_000_000},
		{0.01, 0.9, 4, 1_000_000},
		{0.001, 0.85, 2, 1_000_000},
		// BIP158's rate: about 3 expected hits in 10^7 trials, so the test
		// checks the bound (a broken filter would give thousands), not the
		// closeness to theory, which 5σ of 3 hits cannot resolve.
		{1.0 / 784_931, 0.85, 2, 10_000_000},
	}
	if testing.Short() {
		tests = tests[:2]
	}
	for _, tt := range tests {
		f, err := New(Params{Capacity: n0, FalsePositiveRate: tt.p, Tightening: tt.r, Growth: tt.s})
		if err != nil {
			t.Fatal(err)
		}
		grow(f, n)
		var buf [8]byte
		for i := range uint64(n) {
			if !f.Test(key(&buf, i)) {
				t.Fatalf("P %g r %g s %d: Test(member %d) = false: a false negative", tt.p, tt.r, tt.s, i)
			}
		}
		hits := 0
		for i := range tt.trials {
			if f.Test(key(&buf, n+i)) {
				hits++
			}
		}
		measured := float64(hits) / float64(tt.trials)
		st := f.Stats()
		miss := 1.0
		for _, s := range st.Stage {
			miss *= 1 - bloom.FalsePositiveRate(float64(s.Bits), float64(s.Hashes), float64(s.Added))
		}
		theory := 1 - miss
		sigma := func(p float64) float64 { return math.Sqrt(p * (1 - p) / float64(tt.trials)) }
		t.Logf("P %g r %g s %d: %d stages, %.2f bits/elem, theory %.3g, estimate %.3g, measured %.3g (%d/%d)",
			tt.p, tt.r, tt.s, st.Stages, float64(st.Bits)/float64(st.Added), theory, st.FalsePositiveRate, measured, hits, tt.trials)
		if measured > tt.p+5*sigma(tt.p) {
			t.Errorf("P %g r %g s %d: measured rate %.3g above the bound %g", tt.p, tt.r, tt.s, measured, tt.p)
		}
		if theory*float64(tt.trials) < 100 {
			continue
		}
		if math.Abs(measured-theory) > 5*sigma(theory) {
			t.Errorf("P %g r %g s %d: measured rate %.4g, theory %.4g: more than 5σ (%.2g) apart", tt.p, tt.r, tt.s, measured, theory, sigma(theory))
		}
		if math.Abs(measured-st.FalsePositiveRate) > 5*sigma(theory) {
			t.Errorf("P %g r %g s %d: Stats().FalsePositiveRate = %.4g, measured %.4g: more than 5σ apart", tt.p, tt.r, tt.s, st.FalsePositiveRate, measured)
		}
	}
}

// TestNoFalseNegativesAtBoundaries checks the elements on both sides of
// every stage change, right after each insertion.
func TestNoFalseNegativesAtBoundaries(t *testing.T) {
	f, _ := New(Params{Capacity: 3, FalsePositiveRate: 0.05, Tightening: 0.5, Growth: 2})
	var buf, buf2 [8]byte
	stages := 1
	for i := range uint64(2000) {
		f.Add(key(&buf, i))
		if f.Stages() != stages {
			stages = f.Stages()
			for j := range i + 1 {
				if !f.Test(key(&buf2, j)) {
					t.Fatalf("after stage %d was created: Test(member %d) = false", stages-1, j)
				}
			}
		}
	}
	if stages < 8 {
		t.Errorf("Stages() = %d after 2,000 elements from n0 = 3, want at least 8", stages)
	}
}

func TestAddDuplicates(t *testing.T) {
	f, _ := New(Params{Capacity: 2, FalsePositiveRate: 0.01})
	steps := []struct {
		data       string
		want       bool
		wantAdded  uint64
		wantStages int
	}{
		{"a", true, 1, 1},
		{"a", false, 1, 1},
		{"b", true, 2, 1},
		{"b", false, 2, 1},
		{"a", false, 2, 1}, // the first stage is full, but a is in it: no new stage
		{"c", true, 3, 2},
		{"c", false, 3, 2},
		{"a", false, 3, 2},
	}
	for _, s := range steps {
		if got := f.Add([]byte(s.data)); got != s.want || f.Added() != s.wantAdded || f.Stages() != s.wantStages {
			t.Errorf("Add(%q) = %t, Added %d, %d stages, want %t, %d, %d", s.data, got, f.Added(), f.Stages(), s.want, s.wantAdded, s.wantStages)
		}
	}
	if added, err := f.Insert([]byte("c")); added || err != nil {
		t.Errorf("Insert(duplicate) = %t, %v, want false, nil", added, err)
	}
}

// TestFull uses a tightening so strong (r = 10^-30) that stage 1's rate
// needs more than 100 hashes: the filter is full once stage 0 is.
func TestFull(t *testing.T) {
	f, err := New(Params{Capacity: 4, FalsePositiveRate: 0.01, Tightening: 1e-30})
	if err != nil {
		t.Fatal(err)
	}
	if added := grow(f, 4); added != 4 {
		t.Fatalf("grow(4) added %d, want 4", added)
	}
	before, _ := f.MarshalBinary()
	data := []byte("fifth")
	if added, err := f.Insert(data); added || !errors.Is(err, ErrFull) {
		t.Errorf("Insert on a full filter = %t, %v, want false, ErrFull", added, err)
	}
	if after, _ := f.MarshalBinary(); string(after) != string(before) {
		t.Errorf("failed Insert changed the filter")
	}
	if !f.Add(data) || !f.Test(data) || f.Stages() != 1 || f.Added() != 5 {
		t.Errorf("Add on a full filter: Test %t, %d stages, Added %d, want true, 1, 5 (overfilled)", f.Test(data), f.Stages(), f.Added())
	}
	// An overfilled filter is canonical too.
	b, _ := f.MarshalBinary()
	var g Filter
	if err := g.UnmarshalBinary(b); err != nil || g.Added() != 5 {
		t.Errorf("UnmarshalBinary(overfilled) = %v, Added %d, want nil, 5", err, g.Added())
	}
}

func TestReset(t *testing.T) {
	f, _ := New(Params{Capacity: 10, FalsePositiveRate: 0.01})
	empty, _ := f.MarshalBinary()
	grow(f, 500)
	if f.Stages() < 2 {
		t.Fatalf("Stages() = %d after 500 elements, want several", f.Stages())
	}
	f.Reset()
	st := f.Stats()
	if b, _ := f.MarshalBinary(); string(b) != string(empty) || st.Stages != 1 || st.Added != 0 || st.Stage[0].SetBits != 0 || st.Bits != st.Stage[0].Bits {
		t.Errorf("after Reset: Stats() = %+v, want one empty stage", st)
	}
	if added := grow(f, 500); f.Added() != added || f.Stages() < 2 {
		t.Errorf("after Reset and 500 elements: Added %d, %d stages, want %d, several", f.Added(), f.Stages(), added)
	}
}

func TestZeroValuePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "scalable: ") {
			t.Errorf("Add on a zero Filter: recover() = %v, want a scalable: panic", r)
		}
	}()
	var f Filter
	if f.Test([]byte("x")) {
		t.Errorf("Test on a zero Filter = true, want false")
	}
	if b, err := f.MarshalBinary(); err == nil {
		t.Errorf("MarshalBinary(zero Filter) = %x, want an error", b)
	}
	f.Add([]byte("x"))
}

func TestZeroAllocs(t *testing.T) {
	f, _ := New(Params{Capacity: 100_000, FalsePositiveRate: 0.01})
	grow(f, 1000)
	var buf [8]byte
	i := uint64(1 << 32)
	allocs := map[string]float64{
		"Add":             testing.AllocsPerRun(100, func() { i++; f.Add(key(&buf, i)) }),
		"Insert":          testing.AllocsPerRun(100, func() { i++; _, _ = f.Insert(key(&buf, i)) }),
		"Test":            testing.AllocsPerRun(100, func() { i++; f.Test(key(&buf, i)) }),
		"Add (duplicate)": testing.AllocsPerRun(100, func() { f.Add(key(&buf, 7)) }),
	}
	for op, n := range allocs {
		if n != 0 {
			t.Errorf("%s allocates %v times, want 0", op, n)
		}
	}
	if f.Stages() != 1 {
		t.Errorf("Stages() = %d, want 1: the filter was not to grow", f.Stages())
	}
}
