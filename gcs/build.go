package gcs

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/chainsieve/chainsieve/core/bitio"
)

// Build encodes the set of elements as a Golomb-coded set under key. Equal
// elements count once (N is the number of distinct byte strings), while
// distinct elements whose hashed values collide are all kept, each after the
// first coded as a zero delta, as BIP158 and Bitcoin Core require. The
// elements are not retained.
func Build(p Params, key Key, elements [][]byte) (Filter, error) {
	if err := p.check(); err != nil {
		return Filter{}, err
	}
	if uint64(len(elements)) > 1<<32-1 {
		return Filter{}, fmt.Errorf("gcs: %d elements, want below 2^32", len(elements))
	}
	var counts []uint32
	e := hashEntries(make([]entry, len(elements)), key, elements)
	e = sortEntries(e, make([]entry, len(e)), &counts)
	e = dedupe(e, elements)
	enc := encode(make([]byte, 0, encodedSize(len(e), p.P)), p, e)
	return DecodeUnchecked(p, key, enc) // well formed by construction
}

// hashEntries fills e with the SipHash of every element and its index.
func hashEntries(e []entry, key Key, elements [][]byte) []entry {
	k0, k1 := binary.LittleEndian.Uint64(key[:8]), binary.LittleEndian.Uint64(key[8:])
	for i, el := range elements {
		e[i] = entry{h: sipHash24(k0, k1, el), i: uint32(i)}
	}
	return e
}

// dedupe drops repeated elements from e, sorted by hash. Equal elements have
// equal hashes, so each is compared only with the distinct elements of its
// run of equal hashes, almost always none.
func dedupe(e []entry, elements [][]byte) []entry {
	out := e[:0]
	run := 0 // start of the current run of equal hashes in out
	for _, x := range e {
		if len(out) == 0 || out[len(out)-1].h != x.h {
			run = len(out)
			out = append(out, x)
			continue
		}
		if !containsElement(out[run:], elements, elements[x.i]) {
			out = append(out, x)
		}
	}
	return out
}

func containsElement(run []entry, elements [][]byte, el []byte) bool {
	for _, y := range run {
		if bytes.Equal(elements[y.i], el) {
			return true
		}
	}
	return false
}

// encode appends CompactSize N ‖ the Golomb-Rice codes of the deltas between
// the sorted hashed values. Reduction preserves the order of e.
func encode(dst []byte, p Params, e []entry) []byte {
	f := uint64(len(e)) * p.M
	w := bitio.NewWriter(appendCompactSize(dst, uint64(len(e))))
	var last uint64
	for _, x := range e {
		v := reduce(x.h, f)
		d := v - last
		w.WriteUnary(d >> p.P)
		w.WriteBits(d, uint(p.P))
		last = v
	}
	return w.Bytes()
}

// encodedSize estimates the encoding of n items: P+1 bits per code plus about
// 1.5 bits of unary quotient, with room for the padding and CompactSize.
func encodedSize(n int, p uint8) int {
	return 9 + (n*(int(p)+3)+7)/8
}
