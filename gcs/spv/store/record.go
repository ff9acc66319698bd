package store

import (
	"encoding/binary"
	"hash/crc32"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Record sizes: the payload and a CRC-32C of the payload bound to the height.
const (
	headerSize = wire.MaxBlockHeaderPayload // 80
	filterSize = chainhash.HashSize         // 32
	headerRec  = headerSize + 4
	filterRec  = filterSize + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// seal writes the checksum of rec's payload at height into its last four
// bytes.
func seal(rec []byte, height int32) {
	n := len(rec) - 4
	binary.LittleEndian.PutUint32(rec[n:], sum(rec[:n], height))
}

// intact reports whether rec's checksum matches its payload at height.
func intact(rec []byte, height int32) bool {
	n := len(rec) - 4
	return binary.LittleEndian.Uint32(rec[n:]) == sum(rec[:n], height)
}

// sum is the CRC-32C of payload, bound to height by a multiplicative mix
// (distinct heights give distinct masks), so a record read at another
// height fails.
func sum(payload []byte, height int32) uint32 {
	return crc32.Checksum(payload, castagnoli) ^ uint32(height)*0x9e3779b1
}

// putHeader encodes h into rec[:80] as the wire does.
func putHeader(rec []byte, h *wire.BlockHeader) {
	binary.LittleEndian.PutUint32(rec[0:], uint32(h.Version))
	copy(rec[4:36], h.PrevBlock[:])
	copy(rec[36:68], h.MerkleRoot[:])
	binary.LittleEndian.PutUint32(rec[68:], uint32(h.Timestamp.Unix()))
	binary.LittleEndian.PutUint32(rec[72:], h.Bits)
	binary.LittleEndian.PutUint32(rec[76:], h.Nonce)
}

// getHeader decodes the header in rec[:80].
func getHeader(rec []byte) wire.BlockHeader {
	var h wire.BlockHeader
	h.Version = int32(binary.LittleEndian.Uint32(rec[0:]))
	copy(h.PrevBlock[:], rec[4:36])
	copy(h.MerkleRoot[:], rec[36:68])
	h.Timestamp = unix(binary.LittleEndian.Uint32(rec[68:]))
	h.Bits = binary.LittleEndian.Uint32(rec[72:])
	h.Nonce = binary.LittleEndian.Uint32(rec[76:])
	return h
}
