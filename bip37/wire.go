package bip37

import (
	"fmt"

	"github.com/btcsuite/btcd/wire/v2"
)

// MsgFilterLoad returns the filterload message that loads f into a peer. The
// message holds a copy of the filter's bits.
func (f *Filter) MsgFilterLoad() *wire.MsgFilterLoad {
	return wire.NewMsgFilterLoad(append([]byte(nil), f.data...), f.hashFuncs, f.tweak,
		wire.BloomUpdateType(f.flags))
}

// MsgFilterAdd returns the filteradd message that inserts data into the
// filter a peer holds, or an error beyond [MaxFilterAddSize] bytes, which
// Core answers by disconnecting. The message holds a copy of data.
func MsgFilterAdd(data []byte) (*wire.MsgFilterAdd, error) {
	if len(data) > MaxFilterAddSize {
		return nil, fmt.Errorf("bip37: filteradd of %d bytes exceeds %d", len(data), MaxFilterAddSize)
	}
	return wire.NewMsgFilterAdd(append([]byte(nil), data...)), nil
}

// Apply applies a filterload, filteradd or filterclear message from a peer to
// the filter f the peer has loaded (nil for none) and returns the peer's new
// filter, as a Core node does:
//
//   - filterload replaces the filter; beyond [MaxFilterSize] bytes or
//     [MaxHashFuncs] functions it is an error.
//   - filteradd inserts its data into f, which it returns; more than
//     [MaxFilterAddSize] bytes, or no loaded filter, is an error.
//   - filterclear drops the filter: Apply returns nil.
//
// Core disconnects a peer on any of these errors. Any other message is an
// error too.
func Apply(f *Filter, msg wire.Message) (*Filter, error) {
	switch m := msg.(type) {
	case *wire.MsgFilterLoad:
		return Load(m.Filter, m.HashFuncs, m.Tweak, Flags(m.Flags))
	case *wire.MsgFilterAdd:
		if len(m.Data) > MaxFilterAddSize {
			return f, fmt.Errorf("bip37: filteradd of %d bytes exceeds %d", len(m.Data), MaxFilterAddSize)
		}
		if f == nil {
			return nil, fmt.Errorf("bip37: filteradd without a loaded filter")
		}
		f.Add(m.Data)
		return f, nil
	case *wire.MsgFilterClear:
		return nil, nil
	case nil:
		return f, fmt.Errorf("bip37: nil message")
	}
	return f, fmt.Errorf("bip37: %s is not a filter message", msg.Command())
}
