package cuckoo

import (
	"encoding/binary"
	"errors"
	"flag"
	"math/rand/v2"
	"slices"
	"testing"
)

var measure = flag.Bool("cuckoo.measure", false, "measure failure loads and New's fills (slow; figures in DesignLoad's doc)")

// TestMeasureDesignLoad prints the measurements behind DesignLoad, minNewBits
// and New's slack: the load at the first ErrFull of random fills, and how
// many fills of New(n, p) fail. Run with
//
//	go test -run TestMeasureDesignLoad -cuckoo.measure -v -timeout 1h ./core/cuckoo/
func TestMeasureDesignLoad(t *testing.T) {
	if !*measure {
		t.Skip("a measurement, not a test: run with -cuckoo.measure")
	}
	for _, c := range []struct {
		buckets, seeds uint64
		bits           int
	}{{25000, 1000, 12}, {25000, 200, 8}, {25000, 200, 16}, {25000, 200, 23}, {25000, 200, 32},
		{25000, 100, 4}, {25000, 100, 6}, {250, 1000, 12}, {250_000, 30, 12}, {2_500_000, 4, 12}} {
		var loads []float64
		for seed := range c.seeds {
			f, _ := NewWithShape(c.buckets, c.bits)
			r := rand.New(rand.NewPCG(seed, 99))
			var k [8]byte
			for {
				binary.LittleEndian.PutUint64(k[:], r.Uint64())
				if err := f.Add(k[:]); errors.Is(err, ErrFull) {
					break
				}
			}
			loads = append(loads, f.Stats().LoadFactor)
		}
		slices.Sort(loads)
		t.Logf("%d buckets of %d bits, %d fills: first failure at load min %.4f, 1%% %.4f, median %.4f, max %.4f",
			c.buckets, c.bits, c.seeds, loads[0], loads[len(loads)/100], loads[len(loads)/2], loads[len(loads)-1])
	}
	for _, c := range []struct {
		n, seeds uint64
		p        float64
	}{{1, 40000, 0.01}, {5, 40000, 0.01}, {10, 40000, 0.01}, {15, 40000, 0.01}, {20, 40000, 0.01}, {40, 40000, 0.01},
		{63, 40000, 0.01}, {64, 40000, 0.01}, {100, 40000, 0.01}, {300, 10000, 0.01}, {1000, 5000, 0.01},
		{10_000, 1000, 0.01}, {100_000, 300, 0.01}, {100_000, 100, 0.001}, {100_000, 100, 1.0 / 784931},
		{100_000, 100, 0.5}, {1_000_000, 10, 0.01}, {4_000_000, 2, 0.1}} {
		fails, longest := 0, 0
		var shape Stats
		for seed := range c.seeds {
			f, _ := New(c.n, c.p)
			shape = f.Stats()
			r := rand.New(rand.NewPCG(seed, 7))
			var k [8]byte
			for range c.n {
				binary.LittleEndian.PutUint64(k[:], r.Uint64())
				kicks := f.insertCountingKicks(k[:])
				if kicks < 0 {
					fails++
					break
				}
				longest = max(longest, kicks)
			}
		}
		t.Logf("New(%d, %.3g): %d buckets of %d bits, load %.4f; %d fills: %d failed, longest relocation chain %d",
			c.n, c.p, shape.Buckets, shape.FingerprintBits, float64(c.n)/float64(4*shape.Buckets), c.seeds, fails, longest)
	}
}

// insertCountingKicks is Add reporting the relocations it needed, or -1
// for a failure (whose relocations it undoes like Add).
func (f *Filter) insertCountingKicks(data []byte) int {
	rng := f.rng
	if f.Add(data) != nil {
		return -1
	}
	if f.rng == rng {
		return 0
	}
	// Replay the generator: Add draws once for the starting bucket and
	// once per relocation.
	kicks := 0
	for g := (&Filter{rng: rng}); g.rng != f.rng; g.next() {
		kicks++
	}
	return kicks - 1
}
