package lightclient

import (
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// EventKind says what an [Event] reports.
type EventKind int

// The kinds of events.
const (
	// Connected: a block joined the chain the client reports, with the
	// wallet's transactions in it (none for most blocks). Blocks connect
	// in ascending height, after the reorganisation that made room for
	// them, except those with Rescan set.
	Connected EventKind = iota + 1
	// Disconnected: a reported block left the chain in a reorganisation;
	// Txs are the wallet transactions reported with it, now removed from
	// the chain (they may come back in a block of the new branch). Blocks
	// disconnect in descending height, before the new branch connects.
	Disconnected
	// Synced: the client has reported every block up to Height, the tip
	// less the confirmations it waits for. In Follow mode it comes after
	// each catch-up; without, it is the last event.
	Synced
)

func (k EventKind) String() string {
	switch k {
	case Connected:
		return "connected"
	case Disconnected:
		return "disconnected"
	case Synced:
		return "synced"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one entry of the client's stream ([Client.Events]).
type Event struct {
	Kind   EventKind
	Height int32
	Hash   chainhash.Hash // internal byte order
	// Txs are the block's wallet transactions, in block order, those a
	// gap-limit rescan found before the block was reported among them:
	// found (Connected) or removed (Disconnected). A Rescan event holds
	// those found since the block was reported, and those reported before
	// that pay or spend more of the wallet than they were reported with,
	// again, with all their outputs and inputs to the wallet.
	Txs []spv.Tx
	// Rescan marks a Connected event for a block reported before: Txs
	// are transactions found in it since, for scripts the wallet added
	// (the gap limit, AddDescriptors, AddAddresses, Rescan).
	Rescan bool
	// Tip is the height of the verified header chain when the event was
	// made.
	Tip int32
}
