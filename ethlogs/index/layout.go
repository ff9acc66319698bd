package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"path/filepath"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
)

// SectionSize is the number of blocks in a section: one 512-byte vector per
// bloom bit. It matches go-ethereum's former bloombits sections.
const SectionSize = 4096

// Version is the on-disk format this package reads and writes. Version 2
// added a checksum per vector (so that a query verifies only what it reads),
// the parent hash in tail records and the sync record; version 1 indexes are
// refused with [ErrVersion].
const Version = 2

const (
	bloomBits     = 8 * ethlogs.BloomLength
	vectorBytes   = SectionSize / 8               // one bloom bit over a section
	epochSections = 256                           // sections per epoch file
	rowBytes      = epochSections * vectorBytes   // one bloom bit over an epoch
	vectorsBytes  = bloomBits * rowBytes          // an epoch's vectors
	sumsBytes     = bloomBits * epochSections * 4 // an epoch's vector checksums
	epochBytes    = vectorsBytes + sumsBytes
	hashesBytes   = SectionSize * common.HashLength // a section's block hashes
	tailRecord    = 8 + 2*common.HashLength + ethlogs.BloomLength + 4
	sectionRecord = 8 // hashes checksum, record checksum
	stateSlot     = 32
	metaSize      = len(magic) + 8 + 8 + 4
	magic         = "chainsieve ethlogs index v2\n"
	magicPrefix   = "chainsieve ethlogs index v"
)

// ErrCorrupt is wrapped by the errors of an index whose files fail their
// checksums or do not fit together; rebuilding it from headers is the cure.
var ErrCorrupt = errors.New("index: corrupt")

// ErrVersion is wrapped by Open's error for an index written in another
// on-disk format. This package does not migrate: [Remove] the index and
// build it again from headers.
var ErrVersion = errors.New("index: unsupported format version")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// File names inside the index directory. The lock files are never removed:
// a lock must stay on the one file every process opens.
const (
	metaFile     = "meta"
	stateFile    = "state"    // two sync records
	hashesFile   = "hashes"   // 32 bytes per block of a sealed section
	tailFile     = "tail"     // tailRecord per block of the unfinished section
	sectionsFile = "sections" // sectionRecord per sealed section: the commit point
	lockFile     = "lock"     // the writer's flock and who holds it
	readersFile  = "readers"  // snapshot readers' shared flock
)

func epochName(e uint64) string { return fmt.Sprintf("epoch-%05d", e) }

// vectorOffset is where the vector of bloom bit b for a section lies in its
// epoch file: bit-major, so one bit over consecutive sections is one run.
func vectorOffset(b int, section uint64) int64 {
	return int64(b)*rowBytes + int64(section%epochSections)*vectorBytes
}

// sumOffset is where the CRC-32C of that vector lies: after the vectors,
// bit-major too, so that a query reading one bit's run of vectors reads
// their checksums as one run (1 KiB an epoch) rather than a page a section.
func sumOffset(b int, section uint64) int64 {
	return vectorsBytes + (int64(b)*epochSections+int64(section%epochSections))*4
}

func encodeMeta(first uint64) []byte {
	b := append([]byte(magic), make([]byte, 16)...)
	binary.LittleEndian.PutUint64(b[len(magic):], first)
	binary.LittleEndian.PutUint64(b[len(magic)+8:], SectionSize)
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

func decodeMeta(b []byte) (first uint64, err error) {
	if len(b) >= len(magicPrefix)+2 && string(b[:len(magicPrefix)]) == magicPrefix && string(b[:len(magic)]) != magic {
		v := b[len(magicPrefix):min(len(b), len(magicPrefix)+8)]
		if i := bytes.IndexByte(v, '\n'); i >= 0 {
			v = v[:i]
		}
		return 0, fmt.Errorf("%w: the index is in format v%s, this build reads v%d: remove it and build it again", ErrVersion, printable(string(v), 8), Version)
	}
	if len(b) != metaSize || string(b[:len(magic)]) != magic {
		return 0, fmt.Errorf("%w: %s is not an index header", ErrCorrupt, metaFile)
	}
	if checksum(b[:metaSize-4]) != binary.LittleEndian.Uint32(b[metaSize-4:]) {
		return 0, fmt.Errorf("%w: %s checksum", ErrCorrupt, metaFile)
	}
	if size := binary.LittleEndian.Uint64(b[len(magic)+8:]); size != SectionSize {
		return 0, fmt.Errorf("%w: section size %d, this version uses %d", ErrCorrupt, size, SectionSize)
	}
	return binary.LittleEndian.Uint64(b[len(magic):]), nil
}

// tailBlock is one block of the unfinished section.
type tailBlock struct {
	number       uint64
	hash, parent common.Hash
	bloom        ethlogs.Bloom
}

func (t *tailBlock) appendRecord(dst []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, t.number)
	dst = append(dst, t.hash[:]...)
	dst = append(dst, t.parent[:]...)
	dst = append(dst, t.bloom[:]...)
	return binary.LittleEndian.AppendUint32(dst, checksum(dst[start:]))
}

// decodeTailRecord decodes one record; ok is false when its checksum fails.
func decodeTailRecord(b []byte) (t tailBlock, ok bool) {
	body := b[:tailRecord-4]
	if checksum(body) != binary.LittleEndian.Uint32(b[tailRecord-4:]) {
		return t, false
	}
	t.number = binary.LittleEndian.Uint64(body)
	copy(t.hash[:], body[8:])
	copy(t.parent[:], body[8+common.HashLength:])
	copy(t.bloom[:], body[8+2*common.HashLength:])
	return t, true
}

// sectionRecordOf is the commit record of section s: the CRC-32C of its
// block hashes, then a CRC-32C binding that to s.
func sectionRecordOf(s uint64, hashes uint32) [sectionRecord]byte {
	var rec [sectionRecord]byte
	binary.LittleEndian.PutUint32(rec[:], hashes)
	binary.LittleEndian.PutUint32(rec[4:], recordSum(s, hashes))
	return rec
}

func recordSum(s uint64, hashes uint32) uint32 {
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:], s)
	binary.LittleEndian.PutUint32(b[8:], hashes)
	return checksum(b[:])
}

// decodeSectionRecord returns the hashes checksum of section s's record.
func decodeSectionRecord(s uint64, rec []byte) (uint32, bool) {
	h := binary.LittleEndian.Uint32(rec)
	return h, recordSum(s, h) == binary.LittleEndian.Uint32(rec[4:])
}

// The state file holds two slots, written alternately, each a sequence
// number, the count of sections made durable by the last Sync, and a
// checksum: the valid slot with the higher sequence number is current, so a
// torn write leaves the previous record.
func encodeState(seq, synced uint64) []byte {
	b := make([]byte, 0, stateSlot)
	b = binary.LittleEndian.AppendUint64(b, seq)
	b = binary.LittleEndian.AppendUint64(b, synced)
	b = binary.LittleEndian.AppendUint32(b, checksum(b))
	return append(b, make([]byte, stateSlot-len(b))...)
}

// decodeState returns the current slot; ok is false when neither is valid.
func decodeState(b []byte) (seq, synced uint64, ok bool) {
	for i := 0; i+stateSlot <= len(b) && i < 2*stateSlot; i += stateSlot {
		s := b[i : i+stateSlot]
		if checksum(s[:16]) != binary.LittleEndian.Uint32(s[16:]) {
			continue
		}
		if q := binary.LittleEndian.Uint64(s); !ok || q > seq {
			seq, synced, ok = q, binary.LittleEndian.Uint64(s[8:]), true
		}
	}
	return seq, synced, ok
}

func path(dir, name string) string { return filepath.Join(dir, name) }
