package scalable

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/chainsieve/chainsieve/core/bitset"
	"github.com/chainsieve/chainsieve/core/internal/binenc"
)

// The encoding, version 1:
//
//	"CSSB"        4 bytes, magic
//	version       1 byte, 1
//	n0            uvarint, Params.Capacity, at least 1
//	s             uvarint, Params.Growth, 2..MaxGrowth
//	stages        uvarint, 1..64
//	added         one uvarint per stage, oldest first: every stage but the
//	              newest holds exactly its capacity; the newest at most its
//	              capacity (more only if no further stage can exist) and at
//	              least 1 unless it is the only stage
//	P             8 bytes, Params.FalsePositiveRate, IEEE-754 float64
//	              little-endian, in (0, 1)
//	r             8 bytes, Params.Tightening, likewise
//	bits          each stage's (m_i+7)/8 bytes, oldest first, in core/bloom's
//	              layout (bit j in byte j/8 under mask 1<<(j%8), unused high
//	              bits of a stage's last byte zero)
//
// The stages' sizes and hash counts are not written: the decoder derives
// them from n0, s, P and r as New does, then checks the byte count. The two
// rates follow the uvarints because core/internal/binenc reads fixed-width
// bytes only at the end. Version 1 fixes the hashing and the stage shapes
// described in the package doc: a change to either needs a new version.
const (
	magic   = "CSSB"
	version = 1
)

// ErrCorrupt is wrapped by every error that [Filter.UnmarshalBinary] returns
// for malformed input.
var ErrCorrupt = errors.New("scalable: corrupt encoding")

// AppendBinary appends the versioned encoding of f to b. A zero Filter has
// no encoding: it returns an error.
func (f *Filter) AppendBinary(b []byte) ([]byte, error) {
	if len(f.stages) == 0 {
		return b, errors.New("scalable: encoding a zero Filter; create filters with New")
	}
	b = binenc.AppendHeader(b, magic, version)
	b = binary.AppendUvarint(b, f.params.Capacity)
	b = binary.AppendUvarint(b, f.params.Growth)
	b = binary.AppendUvarint(b, uint64(len(f.stages)))
	for i := range f.stages {
		b = binary.AppendUvarint(b, f.stages[i].added)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.params.FalsePositiveRate))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(f.params.Tightening))
	for i := range f.stages {
		b = f.stages[i].bits.AppendBytes(b)
	}
	return b, nil
}

// MarshalBinary returns the versioned encoding of f.
func (f *Filter) MarshalBinary() ([]byte, error) {
	return f.AppendBinary(make([]byte, 0, 48+10*len(f.stages)+int(f.bits/8)+len(f.stages)))
}

// UnmarshalBinary replaces f with the filter encoded in data. It accepts only
// the canonical encoding (see the format above): no trailing bytes, no bits
// beyond a stage, added counts as [Filter.Add] leaves them. Errors wrap
// [ErrCorrupt] and name the byte offset; f is unchanged on error. Memory use
// is bounded by len(data).
func (f *Filter) UnmarshalBinary(data []byte) error {
	d := binenc.NewDecoder(data, magic, version, ErrCorrupt)
	var p Params
	p.Capacity = d.Uvarint("first capacity", 1, math.MaxUint64)
	p.Growth = d.Uvarint("growth", 2, MaxGrowth)
	countOff := d.Offset()
	count := int(d.Uvarint("stage count", 1, maxStages))
	var added [maxStages]uint64
	var addedOff [maxStages]int
	for i := range count {
		addedOff[i] = d.Offset()
		added[i] = d.Uvarint("added count", 0, math.MaxUint64)
	}
	off := d.Offset()
	tail := d.Rest("rates and bits", uint64(len(data)-off))
	if err := d.Err(); err != nil {
		return err
	}
	if len(tail) < 16 {
		return d.Fail(off, "%d bytes for the two rates, want 16", len(tail))
	}
	p.FalsePositiveRate = math.Float64frombits(binary.LittleEndian.Uint64(tail))
	p.Tightening = math.Float64frombits(binary.LittleEndian.Uint64(tail[8:]))
	if r := p.FalsePositiveRate; !(r > 0 && r < 1) {
		return d.Fail(off, "false-positive rate %g outside (0, 1)", r)
	}
	if r := p.Tightening; !(r > 0 && r < 1) {
		return d.Fail(off+8, "tightening %g outside (0, 1)", r)
	}
	g := Filter{params: p, stages: make([]stage, 0, count)}
	tail, off = tail[16:], off+16
	// Each stage's table is checked present before it is allocated.
	for i := range count {
		sh, err := g.next()
		if err != nil {
			return d.Fail(countOff, "%d stages: %v", count, err)
		}
		n := (sh.m + 7) / 8
		if uint64(len(tail)) < n {
			return d.Fail(off, "%d bytes left for stage %d, want %d", len(tail), i, n)
		}
		set, err := bitset.FromBytes(uint(sh.m), tail[:n])
		if err != nil {
			return d.Fail(off, "stage %d: %v", i, err)
		}
		g.stages = append(g.stages, newStage(sh, set))
		g.bits += sh.m
		tail, off = tail[n:], off+int(n)
	}
	if len(tail) != 0 {
		return d.Fail(off, "%d trailing bytes", len(tail))
	}
	if i, err := g.setAdded(added[:count]); err != nil {
		return d.Fail(addedOff[i], "%v", err)
	}
	*f = g
	return nil
}

// setAdded sets the stages' added counts read from an encoding, checking
// them against what Add can leave; on error it returns the stage at fault.
func (f *Filter) setAdded(added []uint64) (int, error) {
	last := len(f.stages) - 1
	for i, a := range added {
		s := &f.stages[i]
		switch {
		case i < last && a != s.cap:
			return i, fmt.Errorf("stage %d added count %d, want its capacity %d: a stage follows only a full one", i, a, s.cap)
		case i == last && i > 0 && a == 0:
			return i, fmt.Errorf("stage %d is empty: a stage is created for an element", i)
		case i == last && a > s.cap && f.canGrow():
			return i, fmt.Errorf("stage %d added count %d beyond its capacity %d while a further stage can exist", i, a, s.cap)
		}
		sum, carry := bits.Add64(f.added, a, 0)
		if carry != 0 {
			return i, fmt.Errorf("added counts overflow 64 bits at stage %d", i)
		}
		s.added, f.added = a, sum
	}
	return 0, nil
}
