package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unsafe"
)

// epoch is an open epoch file: 256 sections' vectors and their checksums.
type epoch struct {
	n    uint64
	f    *os.File
	data []byte // the whole file, mapped; nil when reading with ReadAt
	sums []byte // a writer's writable mapping of the checksums; nil: WriteAt

	// verified[b] has bit s%256 set once the vector of bit b for section s
	// matched its checksum in this process: checked once, before first use.
	verified *[bloomBits][epochSections / 64]uint64
}

// littleEndian says whether mapped vectors can be used as []uint64 in
// place: the file stores them little-endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// epochFile returns epoch e, opening and mapping its file on first use.
// A writer sealing into it creates it; otherwise a missing or short file is
// corrupt, as sealed sections live there.
func (x *Index) epochFile(e uint64, create bool) (*epoch, error) {
	if ep, ok := x.epochs[e]; ok {
		return ep, nil
	}
	name := path(x.dir, epochName(e))
	flag := os.O_RDONLY
	if !x.readOnly {
		flag = os.O_RDWR
		if create {
			flag |= os.O_CREATE
		}
	}
	f, err := os.OpenFile(name, flag, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s is missing", ErrCorrupt, epochName(e))
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	if err := sizeEpoch(f, create); err != nil {
		f.Close()
		return nil, err
	}
	if create {
		x.created = true
	}
	ep := &epoch{n: e, f: f, verified: new([bloomBits][epochSections / 64]uint64)}
	if !x.noMap {
		ep.data = mapFile(f, epochBytes)
		if !x.readOnly {
			ep.sums = mapWritable(f, vectorsBytes, sumsBytes)
		}
	}
	x.epochs[e] = ep
	return ep, nil
}

// sizeEpoch gives a new epoch file its full, fixed size (sparse until
// written), so that no mapping ever reaches past its end; an existing one
// must have it.
func sizeEpoch(f *os.File, create bool) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	switch {
	case fi.Size() == epochBytes:
		return nil
	case create && fi.Size() < epochBytes:
		if err := f.Truncate(epochBytes); err != nil {
			return fmt.Errorf("index: %w", err)
		}
		return nil
	}
	return fmt.Errorf("%w: %s has %d bytes, want %d", ErrCorrupt, fi.Name(), fi.Size(), epochBytes)
}

func (ep *epoch) close() error {
	err := errors.Join(unmapFile(ep.data), unmapFile(ep.sums), ep.f.Close())
	ep.data, ep.sums, ep.f = nil, nil, nil
	return err
}

// putSum stores the checksum of the vector of bit b for section s: a store
// into the mapping where there is one (the 2048 checksums of a section lie
// 1 KiB apart: one write each would double a seal's system calls).
func (ep *epoch) putSum(b int, s uint64, sum uint32) error {
	off := sumOffset(b, s)
	if ep.sums != nil {
		binary.LittleEndian.PutUint32(ep.sums[off-vectorsBytes:], sum)
		return nil
	}
	var buf [4]byte
	binary.LittleEndian.PutUint32(buf[:], sum)
	_, err := ep.f.WriteAt(buf[:], off)
	return err
}

// bytes returns n bytes at off: the mapping itself, or buf filled by ReadAt.
func (ep *epoch) bytes(off int64, n int, buf []byte) ([]byte, error) {
	if ep.data != nil {
		return ep.data[off : off+int64(n)], nil
	}
	buf = buf[:n]
	if _, err := ep.f.ReadAt(buf, off); err != nil {
		return nil, fmt.Errorf("%w: %s at %d: %v", ErrCorrupt, epochName(ep.n), off, err)
	}
	return buf, nil
}

// words returns the vectors of bloom bit b from word w0 to w1 of the epoch
// (64 blocks a word) as []uint64: in place in the mapping on little-endian
// machines, else decoded into scratch.
func (ep *epoch) words(b int, w0, w1 int, scratch *[]uint64, bytesBuf *[]byte) ([]uint64, error) {
	off := int64(b)*rowBytes + int64(w0)*8
	n := (w1 - w0) * 8
	if ep.data != nil && littleEndian {
		raw := ep.data[off : off+int64(n)]
		return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(raw))), w1-w0), nil
	}
	if cap(*bytesBuf) < n {
		*bytesBuf = make([]byte, n)
	}
	raw, err := ep.bytes(off, n, *bytesBuf)
	if err != nil {
		return nil, err
	}
	if cap(*scratch) < w1-w0 {
		*scratch = make([]uint64, w1-w0)
	}
	out := (*scratch)[:w1-w0]
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return out, nil
}

// verify checks the vectors of bloom bit b for sections s0 to s1 of this
// epoch (indexes within the epoch) against their checksums, skipping those
// already checked.
func (x *Index) verifyVectors(ep *epoch, b int, s0, s1 int) error {
	v := &ep.verified[b]
	if rangeSet(v, s0, s1) {
		return nil
	}
	for s := s0; s <= s1; s++ {
		if v[s/64]>>(s%64)&1 != 0 {
			continue
		}
		section := ep.n*epochSections + uint64(s)
		vec, err := ep.bytes(vectorOffset(b, section), vectorBytes, x.vecBuf[:])
		if err != nil {
			return err
		}
		want, err := ep.bytes(sumOffset(b, section), 4, x.sumBuf[:])
		if err != nil {
			return err
		}
		if checksum(vec) != binary.LittleEndian.Uint32(want) {
			return fmt.Errorf("%w: the vector of bloom bit %d in section %d (blocks %d to %d) fails its checksum", ErrCorrupt, b, section, x.first+section*SectionSize, x.first+(section+1)*SectionSize-1)
		}
		v[s/64] |= 1 << (s % 64)
	}
	return nil
}

// prefetchRun asks for the vectors of bit b from word w0 to w1 and their
// checksums to be read ahead, unless this Index checked them already (and
// so read them recently).
func (ep *epoch) prefetchRun(b, w0, w1 int) {
	s0, s1 := w0*64/SectionSize, (w1*64-1)/SectionSize
	if ep.data == nil || rangeSet(&ep.verified[b], s0, s1) {
		return
	}
	page := int64(os.Getpagesize())
	for _, r := range [][2]int64{
		{int64(b)*rowBytes + int64(w0)*8, int64(b)*rowBytes + int64(w1)*8},
		{sumOffset(b, uint64(s0)), sumOffset(b, uint64(s1)) + 4},
	} {
		prefetch(ep.data[r[0]/page*page : r[1]])
	}
}

// rangeSet reports whether bits s0 to s1 of v are all set.
func rangeSet(v *[epochSections / 64]uint64, s0, s1 int) bool {
	for w := s0 / 64; w <= s1/64; w++ {
		m := ^uint64(0)
		if w == s0/64 {
			m &= ^uint64(0) << (s0 % 64)
		}
		if w == s1/64 {
			m &= ^uint64(0) >> (63 - s1%64)
		}
		if v[w]&m != m {
			return false
		}
	}
	return true
}

// clearFrom forgets the checks of sections s and above of this epoch, which
// a truncation is about to rewrite.
func (ep *epoch) clearFrom(s int) {
	for b := range ep.verified {
		v := &ep.verified[b]
		for w := range v {
			switch {
			case w > s/64:
				v[w] = 0
			case w == s/64:
				v[w] &= ^(^uint64(0) << (s % 64))
			}
		}
	}
}
