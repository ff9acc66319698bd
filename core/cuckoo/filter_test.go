package cuckoo

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func key(i uint64) []byte {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:], i)
	binary.LittleEndian.PutUint64(b[8:], ^i*0x9e3779b97f4a7c15)
	return b[:]
}

func mustMarshal(t *testing.T, f *Filter) []byte {
	t.Helper()
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestNewShape(t *testing.T) {
	tests := []struct {
		n           uint64
		p           float64
		wantBuckets uint64
		wantBits    int
	}{
		// f = max(⌈log2(8/p)⌉, 8); buckets = ⌈(n + 2√n + 6)/(4·0.94)⌉,
		// at least n/2 + 2 below 64: hand-computed.
		{100_000, 0.01, 26766, 10},
		{100_000, 0.001, 26766, 13},
		{100_000, 1.0 / 784931, 26766, 23},
		{1000, 0.5, 285, 8},
		{1, 0.01, 3, 10},
		{10, 0.01, 7, 10},
		{63, 0.01, 33, 10},
		{64, 0.01, 23, 10},
		{10, 2e-9, 7, 32}, // log2(4e9) = 31.9
	}
	for _, tt := range tests {
		f, err := New(tt.n, tt.p)
		if err != nil {
			t.Errorf("New(%d, %g) error: %v", tt.n, tt.p, err)
			continue
		}
		st := f.Stats()
		if st.Buckets != tt.wantBuckets || st.FingerprintBits != tt.wantBits {
			t.Errorf("New(%d, %g) = %d buckets of %d bits, want %d of %d", tt.n, tt.p, st.Buckets, st.FingerprintBits, tt.wantBuckets, tt.wantBits)
		}
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		n uint64
		p float64
	}{
		{0, 0.01}, {10, 0}, {10, 1}, {10, -0.5}, {10, math.NaN()}, {10, 1e-10}, {1 << 40, 0.01}, {math.MaxUint64, 0.01},
	}
	for _, tt := range tests {
		if f, err := New(tt.n, tt.p); err == nil {
			t.Errorf("New(%d, %g) = %+v, want an error", tt.n, tt.p, f.Stats())
		}
	}
	shapes := []struct {
		buckets uint64
		bits    int
	}{{0, 8}, {10, 1}, {10, 33}, {maxBits/32 + 1, 8}, {maxBits/128 + 1, 32}}
	for _, s := range shapes {
		if _, err := NewWithShape(s.buckets, s.bits); err == nil {
			t.Errorf("NewWithShape(%d, %d) = nil error, want an error", s.buckets, s.bits)
		}
	}
	if _, err := NewWithShape(maxBits/128, 32); err != nil {
		t.Errorf("NewWithShape(2^37/128, 32) needs no more than 2^37 bits: %v", err)
	}
}

// TestNewRateBound checks the sizing rule against the load-based rate: a
// filter of New(n, p) filled to DesignLoad expects a rate of at most p.
func TestNewRateBound(t *testing.T) {
	for p := 0.999; p >= 8.0/(1<<32); p *= 0.83 {
		f, err := New(1000, p)
		if err != nil {
			t.Fatalf("New(1000, %g) error: %v", p, err)
		}
		if got := falsePositiveRate(int(f.t.f), DesignLoad); got > p {
			t.Errorf("New(1000, %g): rate at load %g = %g, want ≤ %g", p, DesignLoad, got, p)
		}
	}
}

// TestNoFalseNegativesAndRate is the property test at n = 100,000. Each
// filter New(n, p) takes its n members without a failure and finds every
// one; the rate measured over trials non-members must be within 5 binomial
// standard deviations of Stats().FalsePositiveRate (the load-based rate) and
// at most p plus 5 standard deviations of a rate of p. Five σ keeps the test
// meaningful (a rate off by a few tens of percent fails) without flakiness;
// the inputs are fixed, so the outcome is reproducible.
func TestNoFalseNegativesAndRate(t *testing.T) {
	const n = 100_000
	tests := []struct {
		p      float64
		trials uint64
	}{
		{0.01, 1_000_000},
		{0.001, 2_000_000},
		// BIP158's rate: about 18 expected hits; ±5σ still catches a
		// rate off by a factor of two.
		{1.0 / 784931, 20_000_000},
	}
	for _, tt := range tests {
		if testing.Short() && tt.trials > 2_000_000 {
			continue // the BIP158 rate (20 million trials) runs without -short
		}
		f, err := New(n, tt.p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range uint64(n) {
			if err := f.Add(key(i)); err != nil {
				t.Fatalf("New(%d, %g).Add(member %d) error: %v", n, tt.p, i, err)
			}
		}
		for i := range uint64(n) {
			if !f.Test(key(i)) {
				t.Fatalf("Test(member %d) = false: a false negative", i)
			}
		}
		hits := 0.0
		for i := range tt.trials {
			if f.Test(key(n + i)) {
				hits++
			}
		}
		N := float64(tt.trials)
		est := f.Stats().FalsePositiveRate
		sigma := math.Sqrt(N * est * (1 - est))
		if math.Abs(hits-N*est) > 5*sigma {
			t.Errorf("New(%d, %g): %v false positives in %v, want %.1f ± %.1f (5σ) from the load", n, tt.p, hits, N, N*est, 5*sigma)
		}
		if limit := N*tt.p + 5*math.Sqrt(N*tt.p*(1-tt.p)); hits > limit {
			t.Errorf("New(%d, %g): %v false positives in %v, want ≤ %.1f (p plus 5σ)", n, tt.p, hits, N, limit)
		}
		t.Logf("p %.4g f %d load %.4f: measured %.4g (%v/%v), estimate %.4g", tt.p, f.t.f, f.Stats().LoadFactor, hits/N, hits, N, est)
	}
}

// TestNewFillsWithoutFailure inserts n random elements into New(n, p) for
// many seeds; none may fail (the sizing promise, measured more widely by
// TestMeasureDesignLoad).
func TestNewFillsWithoutFailure(t *testing.T) {
	for _, n := range []uint64{1, 2, 5, 9, 15, 31, 40, 63, 64, 100, 300, 1000, 5000} {
		for seed := range uint64(40) {
			f, _ := New(n, 0.01)
			r := rand.New(rand.NewPCG(seed, n))
			for i := range n {
				if err := f.Add(key(r.Uint64())); err != nil {
					t.Fatalf("New(%d, 0.01) seed %d: Add #%d error: %v", n, seed, i, err)
				}
			}
		}
	}
}

// TestRemoveAgainstModel runs random insert, delete and lookup sequences
// against a multiset. A small universe of keys makes duplicates common.
func TestRemoveAgainstModel(t *testing.T) {
	for _, shape := range []struct {
		buckets uint64
		bits    int
	}{{37, 8}, {64, 12}, {50, 23}, {13, 32}, {20, 4}} {
		f, _ := NewWithShape(shape.buckets, shape.bits)
		model := map[uint64]int{}
		var total uint64
		r := rand.New(rand.NewPCG(uint64(shape.buckets), 1))
		for step := range 20_000 {
			k := r.Uint64N(3 * shape.buckets)
			switch op := r.IntN(3); {
			case op == 0 && total < 3*shape.buckets && model[k] < 2:
				if err := f.Add(key(k)); err != nil {
					if !errors.Is(err, ErrFull) {
						t.Fatalf("step %d: Add(%d) error %v does not wrap ErrFull", step, k, err)
					}
					continue
				}
				model[k]++
				total++
			case op == 1 && model[k] > 0:
				if !f.Remove(key(k)) {
					t.Fatalf("%d×%d step %d: Remove(member %d) = false, want true", shape.buckets, shape.bits, step, k)
				}
				model[k]--
				total--
			case op == 1 && !f.Test(key(k)):
				// An absent element that tests negative has no
				// fingerprint to remove.
				before := mustMarshal(t, f)
				if f.Remove(key(k)) {
					t.Fatalf("step %d: Remove(absent %d) = true, want false", step, k)
				}
				if string(mustMarshal(t, f)) != string(before) {
					t.Fatalf("step %d: Remove(absent %d) changed the table", step, k)
				}
			}
			if model[k] > 0 && !f.Test(key(k)) {
				t.Fatalf("%d×%d step %d: Test(member %d ×%d) = false: a false negative", shape.buckets, shape.bits, step, k, model[k])
			}
			if f.Count() != total {
				t.Fatalf("step %d: Count() = %d, want %d", step, f.Count(), total)
			}
		}
		for k, c := range model {
			if c > 0 && !f.Test(key(k)) {
				t.Errorf("%d×%d: Test(member %d) = false at the end", shape.buckets, shape.bits, k)
			}
		}
		if got := f.t.occupied(); got != total {
			t.Errorf("%d×%d: %d slots in use, want %d", shape.buckets, shape.bits, got, total)
		}
	}
}

// TestFullLeavesTableUnchanged fills small tables until Add fails, checks
// that the failed call changed nothing and that the filter still works.
func TestFullLeavesTableUnchanged(t *testing.T) {
	for _, shape := range []struct {
		buckets uint64
		bits    int
	}{{100, 8}, {101, 12}, {7, 16}, {250, 23}, {33, 32}} {
		f, _ := NewWithShape(shape.buckets, shape.bits)
		var i uint64
		for ; ; i++ {
			before := mustMarshal(t, f)
			err := f.Add(key(i))
			if err == nil {
				continue
			}
			if !errors.Is(err, ErrFull) {
				t.Fatalf("Add error %v does not wrap ErrFull", err)
			}
			if after := mustMarshal(t, f); string(after) != string(before) {
				t.Fatalf("%d×%d: failed Add changed the table", shape.buckets, shape.bits)
			}
			break
		}
		if f.Count() != i {
			t.Errorf("%d×%d: Count() = %d after %d inserts", shape.buckets, shape.bits, f.Count(), i)
		}
		for j := range i {
			if !f.Test(key(j)) {
				t.Fatalf("%d×%d: Test(member %d) = false after ErrFull", shape.buckets, shape.bits, j)
			}
		}
		if !f.Remove(key(0)) {
			t.Fatalf("%d×%d: Remove(member 0) = false after ErrFull", shape.buckets, shape.bits)
		}
		if err := f.Add(key(0)); err != nil {
			t.Errorf("%d×%d: Add after a Remove freed a slot: %v", shape.buckets, shape.bits, err)
		}
		t.Logf("%d buckets of %d bits: full at load %.4f", shape.buckets, shape.bits, f.Stats().LoadFactor)
	}
}

// TestAltInvolution checks that the alternate bucket of the alternate bucket
// is the first, for odd, even and power-of-two bucket counts.
func TestAltInvolution(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, buckets := range []uint64{1, 2, 3, 7, 64, 1000, 26766, 1<<31 - 1} {
		f, _ := NewWithShape(buckets, 16)
		for range 1000 {
			i, fp := r.Uint64N(buckets), 1+r.Uint64N(f.t.fpMask)
			j := f.alt(i, fp)
			if j >= buckets || f.alt(j, fp) != i {
				t.Fatalf("%d buckets: alt(%d, %d) = %d, alt of that = %d, want %d", buckets, i, fp, j, f.alt(j, fp), i)
			}
		}
	}
}

// findKey returns an element whose two buckets coincide (same) or differ.
func findKey(f *Filter, same bool) []byte {
	for i := uint64(0); ; i++ {
		i1, fp := f.hash(key(i))
		if (f.alt(i1, fp) == i1) == same {
			return key(i)
		}
	}
}

// TestDuplicates inserts one element until it fails: 8 copies fit when its
// buckets differ (2b), 4 when they coincide; each copy is deleted once.
func TestDuplicates(t *testing.T) {
	for _, tt := range []struct {
		same bool
		want int
	}{{false, 8}, {true, 4}} {
		f, _ := NewWithShape(10, 12)
		k := findKey(f, tt.same)
		got := 0
		for ; f.Add(k) == nil; got++ {
		}
		if got != tt.want {
			t.Errorf("same bucket %v: Add succeeded %d times, want %d", tt.same, got, tt.want)
		}
		for range got {
			if !f.Test(k) || !f.Remove(k) {
				t.Fatalf("same bucket %v: Test or Remove of a stored copy failed", tt.same)
			}
		}
		if f.Test(k) || f.Remove(k) || f.Count() != 0 {
			t.Errorf("same bucket %v: after deleting every copy Test or Remove = true, Count %d", tt.same, f.Count())
		}
	}
}

func TestStatsAndReset(t *testing.T) {
	f, _ := NewWithShape(100, 12)
	for i := range uint64(300) {
		if err := f.Add(key(i)); err != nil {
			t.Fatal(err)
		}
	}
	st := f.Stats()
	want := Stats{Bits: 4800, Buckets: 100, FingerprintBits: 12, Items: 300, LoadFactor: 0.75}
	want.FalsePositiveRate = -math.Expm1(6 * math.Log1p(-1.0/4095))
	if st != want {
		t.Errorf("Stats() = %+v, want %+v", st, want)
	}
	if st.FalsePositiveRate > 6.0/4095 || st.FalsePositiveRate < 5.99/4095 {
		t.Errorf("Stats().FalsePositiveRate = %g, want about 8·0.75/4095", st.FalsePositiveRate)
	}
	f.Reset()
	empty, _ := NewWithShape(100, 12)
	if f.Count() != 0 || f.Test(key(1)) || string(mustMarshal(t, f)) != string(mustMarshal(t, empty)) || f.rng != empty.rng {
		t.Errorf("Reset left Count %d or a fingerprint or generator state", f.Count())
	}
}

func TestZeroAllocs(t *testing.T) {
	f, _ := New(1000, 0.001)
	k := key(1)
	if n := testing.AllocsPerRun(100, func() {
		if f.Add(k) == nil {
			f.Remove(k)
		}
	}); n != 0 {
		t.Errorf("Add and Remove allocate %v times, want 0", n)
	}
	for i := range uint64(900) {
		_ = f.Add(key(i))
	}
	var kb [8]byte
	i := uint64(0)
	if n := testing.AllocsPerRun(100, func() {
		i++
		binary.LittleEndian.PutUint64(kb[:], i)
		if f.Add(kb[:]) == nil {
			f.Remove(kb[:])
		}
	}); n != 0 {
		t.Errorf("Add and Remove near full load allocate %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { f.Test(k) }); n != 0 {
		t.Errorf("Test allocates %v times, want 0", n)
	}
}
