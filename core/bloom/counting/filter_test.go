package counting

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// key returns element i: its 8-byte little-endian index. Members and
// non-members come from disjoint ranges of i.
func key(i uint64) []byte { return binary.LittleEndian.AppendUint64(nil, i) }

func TestNewShape(t *testing.T) {
	// The oracle is bloom.New: the counting filter must pick the classic
	// filter's shape for the same n and p.
	for _, tt := range []struct {
		n uint64
		p float64
	}{{1000, 0.01}, {1, 0.5}, {100_000, 0.001}, {100_000, 1.0 / 784_931}, {10, 1e-40}} {
		f, err := New(tt.n, tt.p)
		if err != nil {
			t.Errorf("New(%d, %g) error: %v", tt.n, tt.p, err)
			continue
		}
		b, _ := bloom.New(tt.n, tt.p)
		if f.M() != b.M() || f.K() != b.K() {
			t.Errorf("New(%d, %g) = m %d k %d, want m %d k %d", tt.n, tt.p, f.M(), f.K(), b.M(), b.K())
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, tt := range []struct {
		n uint64
		p float64
	}{{0, 0.01}, {10, 0}, {10, 1}, {10, -0.5}, {10, math.NaN()}, {1 << 34, 1e-9}} {
		if f, err := New(tt.n, tt.p); err == nil {
			t.Errorf("New(%d, %g) = m %d, want an error", tt.n, tt.p, f.M())
		}
	}
	for _, tt := range []struct {
		m uint64
		k int
	}{{0, 3}, {64, 0}, {64, bloom.MaxHashes + 1}, {maxCounters + 1, 3}, {1 << 63, 3}} {
		if _, err := NewWithShape(tt.m, tt.k); err == nil {
			t.Errorf("NewWithShape(%d, %d) = nil error, want an error", tt.m, tt.k)
		}
	}
}

// table returns the counters of f as one byte each, from its encoding.
func table(f *Filter) []byte {
	b, _ := f.MarshalBinary()
	packed := b[len(b)-int(f.m+1)/2:]
	c := make([]byte, f.m)
	for i := range c {
		c[i] = packed[i/2] >> (4 * (i % 2)) & 0xf
	}
	return c
}

// TestSamePositionsAsBloom checks the counters that are nonzero against the
// bits of a bloom.Filter of the same shape holding the same elements, read
// from its encoding (bit i in byte i/8 under mask 1<<(i%8)).
func TestSamePositionsAsBloom(t *testing.T) {
	for _, shape := range []struct {
		m uint64
		k int
	}{{1, 1}, {17, 3}, {1001, 5}, {958_506, 7}, {64, 100}} {
		f, _ := NewWithShape(shape.m, shape.k)
		g, _ := bloom.NewWithShape(shape.m, shape.k)
		for i := range uint64(shape.m / 8) {
			f.Add(key(i % 50)) // duplicates too
			g.Add(key(i % 50))
		}
		gb, _ := g.MarshalBinary()
		bits := gb[len(gb)-int(shape.m+7)/8:]
		for i, c := range table(f) {
			if set := bits[i/8]>>(i%8)&1 == 1; set != (c != 0) {
				t.Errorf("m=%d k=%d: counter %d = %d, bloom bit %d set = %t", shape.m, shape.k, i, c, i, set)
				break
			}
		}
	}
}

// TestNoFalseNegativesAndRate is the property test at n = 100,000: no member
// is missed, and the false-positive rate measured over random non-members is
// within 5 binomial standard deviations of bloom.FalsePositiveRate(m, k, n);
// 5σ makes a spurious failure a one-in-a-million event while still catching
// positions that are worse than independent (even a 10 % excess at 1 %).
// BIP158's rate needs many more trials to see false positives at all: 10^8
// trials expect about 128, so 5σ is ±44 % (about 2 s here).
func TestNoFalseNegativesAndRate(t *testing.T) {
	const n = 100_000
	tests := []struct {
		p      float64
		trials uint64
	}{{0.01, 1_000_000}, {0.001, 1_000_000}, {1.0 / 784_931, 100_000_000}}
	if testing.Short() {
		tests = tests[:2]
	}
	for _, tt := range tests {
		f, _ := New(n, tt.p)
		for i := range uint64(n) {
			f.Add(key(i))
		}
		var buf [8]byte
		for i := range uint64(n) {
			if !f.Test(binary.LittleEndian.AppendUint64(buf[:0], i)) {
				t.Fatalf("p=%g: Test(member %d) = false: a false negative", tt.p, i)
			}
		}
		hits := 0
		for i := range tt.trials {
			if f.Test(binary.LittleEndian.AppendUint64(buf[:0], n+i)) {
				hits++
			}
		}
		m, k := float64(f.M()), float64(f.K())
		theory := bloom.FalsePositiveRate(m, k, n)
		trials := float64(tt.trials)
		sigma := math.Sqrt(trials*theory*(1-theory)) / trials
		measured := float64(hits) / trials
		t.Logf("n=%d p=%g m=%d k=%d: theory %.4g, measured %.4g (%d of %d), 5σ = %.3g",
			n, tt.p, f.M(), f.K(), theory, measured, hits, tt.trials, 5*sigma)
		if math.Abs(measured-theory) > 5*sigma {
			t.Errorf("p=%g: measured false-positive rate %.4g, theory %.4g: more than 5σ = %.3g apart", tt.p, measured, theory, 5*sigma)
		}
		// (X/m)^k moves k times as much as the fill X/m, whose relative
		// spread is about 1/√m < 0.1 %: k % is generous.
		if st := f.Stats(); math.Abs(st.FalsePositiveRate-theory) > 0.01*theory*k {
			t.Errorf("p=%g: Stats().FalsePositiveRate = %.4g, theory %.4g", tt.p, st.FalsePositiveRate, theory)
		}
	}
}

func TestStats(t *testing.T) {
	f, _ := NewWithShape(1001, 4)
	for i := range uint64(100) {
		f.Add(key(i))
	}
	st := f.Stats()
	var nonZero, sat uint64
	for _, c := range table(f) {
		if c != 0 {
			nonZero++
		}
		if c == 15 {
			sat++
		}
	}
	want := Stats{Counters: 1001, Hashes: 4, Bits: 4004, Added: 100, NonZero: nonZero, Saturated: sat,
		Fill: float64(nonZero) / 1001, FalsePositiveRate: math.Pow(float64(nonZero)/1001, 4)}
	if st != want {
		t.Errorf("Stats() = %+v, want %+v", st, want)
	}
	f.Reset()
	if st := f.Stats(); st.NonZero != 0 || st.Added != 0 || st.FalsePositiveRate != 0 {
		t.Errorf("Stats() after Reset = %+v, want no counters, Added 0", st)
	}
}

func TestDuplicatesAndRemove(t *testing.T) {
	f, _ := New(1000, 0.01)
	a, b := []byte("alice"), []byte("bob")
	empty, _ := f.MarshalBinary()
	f.Add(a)
	f.Add(a)
	if !f.Remove(a) || !f.Test(a) {
		t.Errorf("Add(a) twice, Remove(a) once: Test(a) = false, want true")
	}
	if !f.Remove(a) || f.Test(a) {
		t.Errorf("Add(a) twice, Remove(a) twice: Test(a) = true, want false")
	}
	if got, _ := f.MarshalBinary(); string(got) != string(empty) {
		t.Errorf("Add(a) twice, Remove(a) twice = %x, want the empty filter %x", got, empty)
	}
	f.Add(a)
	before, _ := f.MarshalBinary()
	if f.Remove(b) {
		t.Errorf("Remove(b) of a non-member = true, want false")
	}
	if after, _ := f.MarshalBinary(); string(after) != string(before) {
		t.Errorf("Remove(b) of a non-member changed the filter: %x, want %x", after, before)
	}
	if f.Added() != 1 {
		t.Errorf("Added() = %d, want 1", f.Added())
	}
}

// TestSaturation adds one element 20 times: its counters stop at 15 and never
// come down, so it stays present after 20 removals (a false positive, never a
// false negative).
func TestSaturation(t *testing.T) {
	f, _ := NewWithShape(1000, 5)
	a := []byte("hot")
	for range 20 {
		f.Add(a)
	}
	if st := f.Stats(); st.Saturated != 5 || st.NonZero != 5 {
		t.Errorf("20 × Add: Stats() = %+v, want 5 saturated of 5 nonzero", st)
	}
	for i := range 20 {
		if !f.Remove(a) {
			t.Fatalf("Remove(a) number %d = false, want true (counters saturated)", i+1)
		}
	}
	if st := f.Stats(); !f.Test(a) || st.Saturated != 5 || st.Added != 0 {
		t.Errorf("20 × Add, 20 × Remove: Test = %t, Stats() = %+v; want true, 5 saturated, Added 0", f.Test(a), st)
	}
	// Added stays at zero however often Remove succeeds.
	f.Remove(a)
	if f.Added() != 0 {
		t.Errorf("Remove past zero: Added() = %d, want 0", f.Added())
	}
}

// TestRemoveNonMemberCorrupts demonstrates the caveat of the package doc:
// removing a false positive takes counts from real members, and some of them
// then test negative.
func TestRemoveNonMemberCorrupts(t *testing.T) {
	const n = 100
	f, _ := NewWithShape(1000, 3)
	for i := range uint64(n) {
		f.Add(key(i))
	}
	fp := uint64(n)
	for !f.Test(key(fp)) {
		fp++
	}
	if !f.Remove(key(fp)) {
		t.Fatalf("Remove(false positive %d) = false, want true", fp)
	}
	lost := 0
	for i := range uint64(n) {
		if !f.Test(key(i)) {
			lost++
		}
	}
	t.Logf("removing false positive %d made %d of %d members test negative", fp, lost, n)
	if lost == 0 {
		t.Errorf("Remove(false positive %d): no member tests negative, want at least one", fp)
	}
}

// TestRandomAddRemove runs random Add and Remove calls against a reference
// multiset, removing only elements the multiset holds: no element still held
// may ever test negative, and Added tracks the multiset's size. In the
// overloaded case (8,000 copies of 300 elements) counters saturate; in the
// normal case (2,000 copies of 10,000 elements, some twice) they do not, and
// removing everything must leave every counter at zero.
func TestRandomAddRemove(t *testing.T) {
	tests := []struct {
		name             string
		universe, target int // distinct elements, multiset size kept near
		wantSaturated    bool
	}{
		{"normal", 10_000, 2000, false},
		{"overloaded", 300, 8000, true},
	}
	for _, tt := range tests {
		rng := rand.New(rand.NewPCG(1, uint64(tt.universe)))
		f, _ := New(2000, 0.01)
		count := map[uint64]int{}
		var held []uint64 // the multiset, one entry per copy
		for step := range 50_000 {
			// Three adds to one removal until the target, then one for one.
			if len(held) < tt.target && rng.IntN(4) != 0 || len(held) == 0 {
				x := rng.Uint64N(uint64(tt.universe))
				f.Add(key(x))
				held = append(held, x)
				count[x]++
			} else {
				i := rng.IntN(len(held))
				x := held[i]
				held[i] = held[len(held)-1]
				held = held[:len(held)-1]
				if !f.Remove(key(x)) {
					t.Fatalf("%s step %d: Remove(held %d) = false, want true", tt.name, step, x)
				}
				count[x]--
			}
			if step%500 == 0 {
				for y, c := range count {
					if c > 0 && !f.Test(key(y)) {
						t.Fatalf("%s step %d: Test(%d held %d times) = false: a false negative", tt.name, step, y, c)
					}
				}
			}
		}
		st := f.Stats()
		t.Logf("%s: %d held after 50,000 steps: %+v", tt.name, len(held), st)
		if st.Added != uint64(len(held)) {
			t.Errorf("%s: Added() = %d, want %d", tt.name, st.Added, len(held))
		}
		if (st.Saturated > 0) != tt.wantSaturated {
			t.Errorf("%s: Stats().Saturated = %d, want saturated %t", tt.name, st.Saturated, tt.wantSaturated)
		}
		for _, x := range held {
			f.Remove(key(x))
		}
		if st := f.Stats(); !tt.wantSaturated && (st.NonZero != 0 || st.Added != 0) {
			t.Errorf("%s: everything removed: Stats() = %+v, want no nonzero counters", tt.name, st)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	f, _ := New(1000, 0.001)
	k := key(1)
	for _, tt := range []struct {
		name string
		op   func()
	}{
		{"Add", func() { f.Add(k) }},
		{"Test", func() { f.Test(k) }},
		{"Remove", func() { f.Remove(k) }},
	} {
		if n := testing.AllocsPerRun(100, tt.op); n != 0 {
			t.Errorf("%s allocates %v times, want 0", tt.name, n)
		}
	}
}
