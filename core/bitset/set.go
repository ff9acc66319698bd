package bitset

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Set is a fixed-length set of bits. The zero value is an empty set of length 0.
type Set struct {
	words []uint64
	n     uint
}

// New returns a set of n bits, all clear.
func New(n uint) *Set {
	return &Set{words: make([]uint64, wordsFor(n)), n: n}
}

func wordsFor(n uint) uint { return (n + 63) / 64 }

// Len returns the number of bits in the set.
func (s *Set) Len() uint { return s.n }

// Set sets bit i. It panics if i >= s.Len().
func (s *Set) Set(i uint) {
	s.check(i)
	s.words[i/64] |= 1 << (i % 64)
}

// Clear clears bit i. It panics if i >= s.Len().
func (s *Set) Clear(i uint) {
	s.check(i)
	s.words[i/64] &^= 1 << (i % 64)
}

// Test reports whether bit i is set. It panics if i >= s.Len().
func (s *Set) Test(i uint) bool {
	s.check(i)
	return s.words[i/64]&(1<<(i%64)) != 0
}

// check keeps the accessors under the inlining budget, so its message
// carries no numbers.
func (s *Set) check(i uint) {
	if i >= s.n {
		panic("bitset: index out of range")
	}
}

// Count returns the number of set bits (the population count).
func (s *Set) Count() int {
	// A plain loop measured faster than unrolling with four accumulators.
	c := 0
	for _, w := range s.words {
		c += bits.OnesCount64(w)
	}
	return c
}

// Reset clears every bit.
func (s *Set) Reset() { clear(s.words) }

// Or sets s to s ∪ t. It panics if the lengths differ.
func (s *Set) Or(t *Set) {
	s.sameLen(t)
	dst, src := s.words, t.words[:len(s.words)]
	for i := range dst {
		dst[i] |= src[i]
	}
}

// And sets s to s ∩ t. It panics if the lengths differ.
func (s *Set) And(t *Set) {
	s.sameLen(t)
	dst, src := s.words, t.words[:len(s.words)]
	for i := range dst {
		dst[i] &= src[i]
	}
}

// Equal reports whether s and t have the same length and the same bits.
func (s *Set) Equal(t *Set) bool {
	if s.n != t.n {
		return false
	}
	for i, w := range s.words {
		if t.words[i] != w {
			return false
		}
	}
	return true
}

func (s *Set) sameLen(t *Set) {
	if s.n != t.n {
		panic(fmt.Sprintf("bitset: length mismatch %d != %d", s.n, t.n))
	}
}

// AppendBytes appends the set in the [LittleEndian] layout, (Len()+7)/8 bytes,
// to dst and returns the extended slice.
func (s *Set) AppendBytes(dst []byte) []byte {
	nb := int((s.n + 7) / 8)
	for i, w := range s.words {
		if rest := nb - i*8; rest < 8 {
			for j := range rest {
				dst = append(dst, byte(w>>(8*j)))
			}
			break
		}
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	return dst
}

// FromBytes returns a set of n bits read from b in the [LittleEndian] layout.
// b must be exactly (n+7)/8 bytes long and must not set bits at or beyond n,
// so that every set has exactly one encoding.
func FromBytes(n uint, b []byte) (*Set, error) {
	if uint64(len(b)) != (uint64(n)+7)/8 {
		return nil, fmt.Errorf("bitset: %d bytes for %d bits, want %d", len(b), n, (uint64(n)+7)/8)
	}
	s := New(n)
	for i := range s.words {
		var buf [8]byte
		copy(buf[:], b[i*8:])
		s.words[i] = binary.LittleEndian.Uint64(buf[:])
	}
	if r := n % 64; r != 0 && s.words[len(s.words)-1]>>r != 0 {
		return nil, fmt.Errorf("bitset: bits set beyond length %d", n)
	}
	return s, nil
}
