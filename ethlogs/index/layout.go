package index

import (
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

const (
	bloomBits     = 8 * ethlogs.BloomLength
	vectorBytes   = SectionSize / 8             // one bloom bit over a section
	sectionBytes  = bloomBits * vectorBytes     // 1 MiB of vectors per section
	epochSections = 256                         // sections per epoch file
	rowBytes      = epochSections * vectorBytes // one bloom bit over an epoch
	tailRecord    = 8 + common.HashLength + ethlogs.BloomLength + 4
	sectionRecord = 8 // vectors and hashes checksums
	metaSize      = len(magic) + 8 + 8 + 4
	magic         = "chainsieve ethlogs index v1\n"
)

// ErrCorrupt is wrapped by the errors of an index whose files fail their
// checksums or do not fit together; rebuilding it from headers is the cure.
var ErrCorrupt = errors.New("index: corrupt")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// File names inside the index directory.
const (
	metaFile     = "meta"
	hashesFile   = "hashes"   // 32 bytes per block of a sealed section
	tailFile     = "tail"     // tailRecord per block of the unfinished section
	sectionsFile = "sections" // sectionRecord per sealed section
)

func epochFile(dir string, epoch uint64) string {
	return filepath.Join(dir, fmt.Sprintf("epoch-%05d", epoch))
}

// vectorOffset is where the vector of bloom bit b for a section lies in its
// epoch file.
func vectorOffset(b int, section uint64) int64 {
	return int64(b)*rowBytes + int64(section%epochSections)*vectorBytes
}

func encodeMeta(first uint64) []byte {
	b := append([]byte(magic), make([]byte, 16)...)
	binary.LittleEndian.PutUint64(b[len(magic):], first)
	binary.LittleEndian.PutUint64(b[len(magic)+8:], SectionSize)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func decodeMeta(b []byte) (first uint64, err error) {
	if len(b) != metaSize || string(b[:len(magic)]) != magic {
		return 0, fmt.Errorf("%w: %s is not an index header", ErrCorrupt, metaFile)
	}
	if crc32.Checksum(b[:metaSize-4], castagnoli) != binary.LittleEndian.Uint32(b[metaSize-4:]) {
		return 0, fmt.Errorf("%w: %s checksum", ErrCorrupt, metaFile)
	}
	if size := binary.LittleEndian.Uint64(b[len(magic)+8:]); size != SectionSize {
		return 0, fmt.Errorf("%w: section size %d, this version uses %d", ErrCorrupt, size, SectionSize)
	}
	return binary.LittleEndian.Uint64(b[len(magic):]), nil
}

// tailBlock is one block of the unfinished section.
type tailBlock struct {
	number uint64
	hash   common.Hash
	bloom  ethlogs.Bloom
}

func (t *tailBlock) appendRecord(dst []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint64(dst, t.number)
	dst = append(dst, t.hash[:]...)
	dst = append(dst, t.bloom[:]...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// decodeTailRecord decodes one record; ok is false when its checksum fails.
func decodeTailRecord(b []byte) (t tailBlock, ok bool) {
	body := b[:tailRecord-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[tailRecord-4:]) {
		return t, false
	}
	t.number = binary.LittleEndian.Uint64(body)
	copy(t.hash[:], body[8:])
	copy(t.bloom[:], body[8+common.HashLength:])
	return t, true
}
