package bip37

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/twmb/murmur3"
)

func TestMurmurHash3Vectors(t *testing.T) {
	data, err := testvectors.Read("bip37/murmur3_x86_32.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := testvectors.ParseMurmur3(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range f.Vectors {
		if got := MurmurHash3(uint32(v.Seed), v.Data); got != uint32(v.Expected) {
			t.Errorf("MurmurHash3(%08x, %x) = %08x, want %08x", uint32(v.Seed), []byte(v.Data), got, uint32(v.Expected))
		}
	}
}

// TestMurmurHash3MatchesBTCD compares with btcd's implementation on every
// length up to 600 bytes, past the premixed limit.
func TestMurmurHash3MatchesBTCD(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 600 {
		data := randomBytes(r, n)
		seed := r.Uint32()
		if got, want := MurmurHash3(seed, data), bloom.MurmurHash3(seed, data); got != want {
			t.Errorf("MurmurHash3(%08x, %d bytes) = %08x, want %08x", seed, n, got, want)
		}
	}
}

// TestMurmurHash3MatchesTwmb compares with twmb/murmur3, the reference of
// BenchmarkMurmurHash3, on every length up to 100 bytes.
func TestMurmurHash3MatchesTwmb(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := range 101 {
		data := randomBytes(r, n)
		seed := r.Uint32()
		if got, want := MurmurHash3(seed, data), murmur3.SeedSum32(seed, data); got != want {
			t.Errorf("MurmurHash3(%08x, %d bytes) = %08x, twmb %08x", seed, n, got, want)
		}
	}
}

// TestPremixedHashes checks that mixing once and hashing per seed, one or
// four seeds at a time, and hashing two seeds in one pass, with or without
// premixing on the way, give MurmurHash3 under every seed, including seeds
// that wrap past 2³².
func TestPremixedHashes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var lengths []int
	for n := 0; n <= maxPremixed; n += 1 + n/80*6 {
		lengths = append(lengths, n)
	}
	for _, n := range append(lengths, maxPremixed) {
		data := randomBytes(r, n)
		buf := make([]uint32, maxPremixed/4)
		p := premix(buf, data)
		for _, seed := range []uint32{0, r.Uint32(), math.MaxUint32 - seedStep/2} {
			want := [4]uint32{}
			s := seed
			for i := range want {
				want[i] = MurmurHash3(s, data)
				s += seedStep
			}
			var got [4]uint32
			got[0], got[1], got[2], got[3] = p.hash4(seed)
			a, b := hash2(seed, data)
			fused, c, d := premixHash2(make([]uint32, maxPremixed/4), data, seed)
			if got != want || a != want[0] || b != want[1] || c != want[0] || d != want[1] || p.hash(seed) != want[0] || fused.hash(seed) != want[0] {
				t.Errorf("premixed hashes of %d bytes under seed %08x = %08x, hash2 %08x %08x, premixHash2 %08x %08x, %08x, want %08x",
					n, seed, got, a, b, c, d, p.hash(seed), want)
			}
		}
	}
}

// TestOutPointHash2 checks the first two probes hashed from an outpoint's
// fields against MurmurHash3 of its 36 bytes.
func TestOutPointHash2(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 100 {
		op := wire.OutPoint{Hash: chainhash.Hash(randomBytes(r, 32)), Index: r.Uint32()}
		seed := r.Uint32()
		b := outPointBytes(op)
		a, c := outPointHash2(seed, &op)
		if wantA, wantC := MurmurHash3(seed, b[:]), MurmurHash3(seed+seedStep, b[:]); a != wantA || c != wantC {
			t.Errorf("outPointHash2(%08x, %v) = %08x, %08x, want %08x, %08x", seed, op, a, c, wantA, wantC)
		}
	}
}

func TestFastmod(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	divisors := []uint32{1, 2, 3, 7, 8, 24, 280, 4096, 28752, 288000, math.MaxUint32}
	for range 50 {
		divisors = append(divisors, 8*(1+r.Uint32N(MaxFilterSize)))
	}
	for _, d := range divisors {
		m := newFastmod(d)
		hs := []uint32{0, 1, d - 1, d, d + 1, math.MaxUint32, math.MaxUint32 - 1, math.MaxUint32 / d * d, math.MaxUint32/d*d - 1}
		for range 2000 {
			hs = append(hs, r.Uint32())
		}
		for _, h := range hs {
			if got, want := m.reduce(h), h%d; got != want {
				t.Errorf("fastmod(%d).reduce(%d) = %d, want %d", d, h, got, want)
			}
		}
	}
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
