package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// stateSize is the length of an encoded [State].
const stateSize = 164

// stateMagic opens the state file; stateVersion is the layout described in
// the package doc.
const (
	stateMagic   = "CSBS"
	stateVersion = 1
)

// ErrCorrupt marks a state file that fails its checksum or does not
// describe a store: the directory is not one Open can repair.
var ErrCorrupt = errors.New("store corrupt")

// Identity is the chain a store holds: its message magic and genesis hash
// (Bitcoin's regtest and Litecoin's share the magic, not the genesis).
type Identity struct {
	Net     wire.BitcoinNet
	Genesis chainhash.Hash
}

// State is what the state file commits:
//
//	0   magic "CSBS", version (uint16), 2 reserved bytes
//	8   network magic (uint32), genesis hash
//	44  Base: height of the first header record
//	48  Anchor height and hash: the block the chain was trusted from
//	84  Tip height and hash: the last committed header
//	120 FilterBase, FilterTip: the committed filter headers (FilterTip
//	    is FilterBase-1 while there are none)
//	128 TipFilter: the filter header at FilterTip (zero if none)
//	160 CRC-32C of bytes 0-159
//
// Integers are little-endian, hashes in internal byte order.
type State struct {
	Identity
	Base                  int32
	Anchor, Tip           int32
	AnchorHash, TipHash   chainhash.Hash
	FilterBase, FilterTip int32
	TipFilter             chainhash.Hash
}

// encode returns s as the state file holds it.
func (s *State) encode() []byte {
	b := make([]byte, stateSize)
	copy(b, stateMagic)
	binary.LittleEndian.PutUint16(b[4:], stateVersion)
	binary.LittleEndian.PutUint32(b[8:], uint32(s.Net))
	copy(b[12:44], s.Genesis[:])
	binary.LittleEndian.PutUint32(b[44:], uint32(s.Base))
	binary.LittleEndian.PutUint32(b[48:], uint32(s.Anchor))
	copy(b[52:84], s.AnchorHash[:])
	binary.LittleEndian.PutUint32(b[84:], uint32(s.Tip))
	copy(b[88:120], s.TipHash[:])
	binary.LittleEndian.PutUint32(b[120:], uint32(s.FilterBase))
	binary.LittleEndian.PutUint32(b[124:], uint32(s.FilterTip))
	copy(b[128:160], s.TipFilter[:])
	binary.LittleEndian.PutUint32(b[160:], sum(b[:160], 0))
	return b
}

// decodeState parses a state file, checking its magic, version, checksum
// and that its heights describe a store.
func decodeState(b []byte) (State, error) {
	var s State
	switch {
	case len(b) != stateSize:
		return s, fmt.Errorf("store: state is %d bytes, want %d: %w", len(b), stateSize, ErrCorrupt)
	case string(b[:4]) != stateMagic:
		return s, fmt.Errorf("store: state starts with %q, not %q: %w", b[:4], stateMagic, ErrCorrupt)
	case binary.LittleEndian.Uint16(b[4:]) != stateVersion:
		return s, fmt.Errorf("store: state version %d, this code reads %d: %w", binary.LittleEndian.Uint16(b[4:]), stateVersion, ErrCorrupt)
	case binary.LittleEndian.Uint32(b[160:]) != sum(b[:160], 0):
		return s, fmt.Errorf("store: state checksum mismatch: %w", ErrCorrupt)
	}
	s.Net = wire.BitcoinNet(binary.LittleEndian.Uint32(b[8:]))
	copy(s.Genesis[:], b[12:44])
	s.Base = int32(binary.LittleEndian.Uint32(b[44:]))
	s.Anchor = int32(binary.LittleEndian.Uint32(b[48:]))
	copy(s.AnchorHash[:], b[52:84])
	s.Tip = int32(binary.LittleEndian.Uint32(b[84:]))
	copy(s.TipHash[:], b[88:120])
	s.FilterBase = int32(binary.LittleEndian.Uint32(b[120:]))
	s.FilterTip = int32(binary.LittleEndian.Uint32(b[124:]))
	copy(s.TipFilter[:], b[128:160])
	return s, s.check()
}

// check reports heights that no store can have.
func (s *State) check() error {
	switch {
	case s.Base < 0 || s.Anchor < s.Base || s.Tip < s.Anchor:
		return fmt.Errorf("store: state heights base %d, anchor %d, tip %d are out of order: %w", s.Base, s.Anchor, s.Tip, ErrCorrupt)
	case s.FilterBase < s.Base || s.FilterTip < s.FilterBase-1 || s.FilterTip > s.Tip:
		return fmt.Errorf("store: state filter headers %d to %d do not fit headers %d to %d: %w", s.FilterBase, s.FilterTip, s.Base, s.Tip, ErrCorrupt)
	}
	return nil
}

func unix(sec uint32) time.Time { return time.Unix(int64(sec), 0) }
