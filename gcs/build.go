package gcs

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/chainsieve/chainsieve/core/bitio"
	"github.com/chainsieve/chainsieve/core/compactsize"
)

// Build encodes the set of elements as a Golomb-coded set under key. Equal
// elements count once (N is the number of distinct byte strings), while
// distinct elements whose hashed values collide are all kept, each after the
// first coded as a zero delta, as BIP158 and Bitcoin Core require. The
// elements are not retained. To build many filters, reuse a [Builder].
func Build(p Params, key Key, elements [][]byte) (Filter, error) {
	var b Builder
	return b.Build(p, key, elements)
}

// Builder builds filter after filter, such as one per block for an index,
// reusing its scratch space, so that each filter allocates only its
// encoding. The zero Builder is ready to use. It is not safe for concurrent
// use.
type Builder struct {
	hashes   []uint64 // in element order, then sorted
	counts   []uint32
	elements [][]byte
}

// Build is [Build] with b's scratch space.
func (b *Builder) Build(p Params, key Key, elements [][]byte) (Filter, error) {
	if err := p.check(); err != nil {
		return Filter{}, err
	}
	if uint64(len(elements)) > 1<<32-1 {
		return Filter{}, fmt.Errorf("gcs: %d elements, want below 2^32", len(elements))
	}
	n := len(elements)
	b.hashes = slices.Grow(b.hashes[:0], 2*n)[:2*n]
	hashes := hashAll(b.hashes[:n], key, elements)
	sorted := sortHashes(b.hashes[n:], hashes, &b.counts)
	sorted = dedupe(sorted, hashes, elements)
	enc := encode(make([]byte, 0, encodedSize(len(sorted), p.P)), p, sorted)
	return DecodeUnchecked(p, key, enc) // well formed by construction
}

// hashAll sets h[i] to the SipHash of elements[i].
func hashAll(h []uint64, key Key, elements [][]byte) []uint64 {
	k0, k1 := binary.LittleEndian.Uint64(key[:8]), binary.LittleEndian.Uint64(key[8:])
	for i, el := range elements {
		h[i] = sipHash24(k0, k1, el)
	}
	return h
}

// hashEntries fills e with the SipHash of every element and its index.
func hashEntries(e []entry, key Key, elements [][]byte) []entry {
	k0, k1 := binary.LittleEndian.Uint64(key[:8]), binary.LittleEndian.Uint64(key[8:])
	for i, el := range elements {
		e[i] = entry{h: sipHash24(k0, k1, el), i: uint32(i)}
	}
	return e
}

// dedupe removes repeated elements from sorted, the sorted hashes of
// elements (byElement holds them in element order). Equal elements have
// equal hashes, so only runs of equal hashes need a look at the bytes; they
// are rare (repeated scripts) and each costs a scan of byElement.
func dedupe(sorted, byElement []uint64, elements [][]byte) []uint64 {
	first := 1
	for first < len(sorted) && sorted[first] != sorted[first-1] {
		first++
	}
	if first >= len(sorted) {
		return sorted // no two hashes are equal
	}
	out := sorted[:first-1]
	for i := first - 1; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		keep := 1
		if j-i > 1 {
			keep = distinctWithHash(sorted[i], byElement, elements)
		}
		for range keep {
			out = append(out, sorted[i])
		}
		i = j
	}
	return out
}

// distinctWithHash counts the distinct elements whose hash is h.
func distinctWithHash(h uint64, byElement []uint64, elements [][]byte) int {
	var seen [][]byte
	for i, x := range byElement {
		if x == h && !slices.ContainsFunc(seen, func(s []byte) bool { return bytes.Equal(s, elements[i]) }) {
			seen = append(seen, elements[i])
		}
	}
	return len(seen)
}

// encode appends CompactSize N ‖ the Golomb-Rice codes of the deltas between
// the hashes' values; reduction preserves their order.
func encode(dst []byte, p Params, sorted []uint64) []byte {
	f := uint64(len(sorted)) * p.M
	w := bitio.NewWriter(compactsize.Append(dst, uint64(len(sorted))))
	var last uint64
	for _, h := range sorted {
		v := reduce(h, f)
		w.WriteRice(v-last, uint(p.P))
		last = v
	}
	return w.Bytes()
}

// encodedSize estimates the encoding of n items: P+1 bits per code plus about
// 1.5 bits of unary quotient, with room for the padding and CompactSize.
func encodedSize(n int, p uint8) int {
	return 9 + (n*(int(p)+3)+7)/8
}
