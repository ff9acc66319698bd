package bip37

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"

	"github.com/chainsieve/chainsieve/core/compactsize"
)

// The merkleblock payload: 80-byte block header ‖ the partial tree, which is
// uint32le transactions ‖ CompactSize(hashes) ‖ 32-byte hashes (internal
// order) ‖ CompactSize(flag bytes) ‖ flag bytes.

const headerSize = 80

// AppendBinary appends the serialised tree to b.
func (t *PartialTree) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint32(b, t.Transactions)
	b = compactsize.Append(b, uint64(len(t.Hashes)))
	for i := range t.Hashes {
		b = append(b, t.Hashes[i][:]...)
	}
	b = compactsize.Append(b, uint64(len(t.Flags)))
	return append(b, t.Flags...), nil
}

// MarshalBinary returns the serialised tree.
func (t *PartialTree) MarshalBinary() ([]byte, error) {
	return t.AppendBinary(make([]byte, 0, 4+9+32*len(t.Hashes)+9+len(t.Flags)))
}

// UnmarshalBinary replaces t with the serialised tree in b. Counts are
// checked against the bytes present before anything is allocated, and bytes
// after the flags are an error. It checks the encoding only: the tree's
// shape is [PartialTree.Extract]'s job.
func (t *PartialTree) UnmarshalBinary(b []byte) error {
	off, err := t.decode(b, 0)
	if err != nil {
		return err
	}
	if off != len(b) {
		return fmt.Errorf("bip37: partial merkle tree: %d unexpected bytes at byte %d", len(b)-off, off)
	}
	return nil
}

// decode reads a tree at b[off:] and returns the offset after it.
func (t *PartialTree) decode(b []byte, off int) (int, error) {
	const what = "partial merkle tree"
	if len(b)-off < 4 {
		return off, fmt.Errorf("bip37: %s: truncated at byte %d, want the transaction count", what, len(b))
	}
	nTx := binary.LittleEndian.Uint32(b[off:])
	nHashes, off, err := readCompactSize(b, off+4, what)
	if err != nil {
		return off, err
	}
	if avail := uint64(len(b)-off) / 32; nHashes > avail {
		return off, fmt.Errorf("bip37: %s: %d hashes at byte %d, but only %d bytes follow", what, nHashes, off, len(b)-off)
	}
	hashes := make([]chainhash.Hash, nHashes)
	for i := range hashes {
		copy(hashes[i][:], b[off:])
		off += 32
	}
	nFlags, flagsAt, err := readCompactSize(b, off, what)
	if err != nil {
		return off, err
	}
	if nFlags > uint64(len(b)-flagsAt) {
		return flagsAt, fmt.Errorf("bip37: %s: %d flag bytes at byte %d, but only %d bytes follow", what, nFlags, flagsAt, len(b)-flagsAt)
	}
	end := flagsAt + int(nFlags)
	*t = PartialTree{Transactions: nTx, Hashes: hashes, Flags: append([]byte(nil), b[flagsAt:end]...)}
	return end, nil
}

// AppendMerkleBlock appends the merkleblock payload of msg to b.
func AppendMerkleBlock(b []byte, msg *wire.MsgMerkleBlock) []byte {
	b = appendHeader(b, &msg.Header)
	b = binary.LittleEndian.AppendUint32(b, msg.Transactions)
	b = compactsize.Append(b, uint64(len(msg.Hashes)))
	for _, h := range msg.Hashes {
		b = append(b, h[:]...)
	}
	b = compactsize.Append(b, uint64(len(msg.Flags)))
	return append(b, msg.Flags...)
}

// DecodeMerkleBlock decodes a merkleblock payload, bounding every count by
// the bytes present and rejecting bytes after the flags. Decoding proves
// nothing: pass the result to [VerifyMerkleBlock].
func DecodeMerkleBlock(b []byte) (*wire.MsgMerkleBlock, error) {
	if len(b) < headerSize {
		return nil, fmt.Errorf("bip37: merkle block: truncated at byte %d, want an 80-byte header", len(b))
	}
	var t PartialTree
	off, err := t.decode(b, headerSize)
	if err != nil {
		return nil, err
	}
	if off != len(b) {
		return nil, fmt.Errorf("bip37: merkle block: %d unexpected bytes at byte %d", len(b)-off, off)
	}
	msg := &wire.MsgMerkleBlock{Header: decodeHeader(b), Transactions: t.Transactions,
		Hashes: make([]*chainhash.Hash, len(t.Hashes)), Flags: t.Flags}
	for i := range t.Hashes {
		msg.Hashes[i] = &t.Hashes[i]
	}
	return msg, nil
}

func appendHeader(b []byte, h *wire.BlockHeader) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Version))
	b = append(b, h.PrevBlock[:]...)
	b = append(b, h.MerkleRoot[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Timestamp.Unix()))
	b = binary.LittleEndian.AppendUint32(b, h.Bits)
	return binary.LittleEndian.AppendUint32(b, h.Nonce)
}

// decodeHeader reads the 80 bytes at the front of b.
func decodeHeader(b []byte) wire.BlockHeader {
	var h wire.BlockHeader
	h.Version = int32(binary.LittleEndian.Uint32(b))
	copy(h.PrevBlock[:], b[4:36])
	copy(h.MerkleRoot[:], b[36:68])
	h.Timestamp = time.Unix(int64(binary.LittleEndian.Uint32(b[68:])), 0)
	h.Bits = binary.LittleEndian.Uint32(b[72:])
	h.Nonce = binary.LittleEndian.Uint32(b[76:])
	return h
}
