package spv

import (
	"fmt"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Tx is a wallet transaction a scan found in a verified block.
type Tx struct {
	Msg    *wire.MsgTx
	ID     chainhash.Hash // txid, internal byte order
	Block  chainhash.Hash // internal byte order
	Height int32
	// Position is the transaction's index in its block (0: the coinbase),
	// which orders a block's wallet transactions.
	Position uint32
	Inputs   []Input  // inputs that spend watched coins
	Outputs  []Output // outputs that pay watched addresses
}

// Progress reports how far a scan came: blocks From to Height are done.
type Progress struct {
	Height, From, To int32
}

// Stats are a scan's measurements. The counters a mode does not use stay
// zero.
type Stats struct {
	Mode     string // "bip157" or "bip37"
	From, To int32  // the range scanned, inclusive
	Blocks   int    // blocks scanned: filters matched, or merkle blocks verified
	Headers  int32  // height of the verified header chain

	WalletTxs int // transactions reported to the wallet

	// FalsePositives counts what was downloaded for the wallet and held
	// nothing for it: blocks in bip157 mode (a filter matched), transactions
	// in bip37 mode (the peer's copy of the filter matched).
	FalsePositives int

	// bip157
	FilterHeaders int // filter hashes received in cfheaders
	// FilterHeadersDropped counts stored filter headers dropped because
	// they contradict a checkpoint (a peer lied in an earlier run).
	FilterHeadersDropped int
	Filters              int // cfilter messages verified
	BlocksFetched        int // whole blocks downloaded

	// bip37
	MerkleBlocks int     // merkle blocks verified
	TxsReceived  int     // transactions the merkle blocks proved and the peer sent
	Unfiltered   int     // of those, how many our copy of the filter (Core's rules) does not match: btcd also matches empty pushes (docs/bip37.md)
	FilterSize   int     // bytes of the last filter loaded
	FilterFill   float64 // fraction of its bits set once the scan ended (the peer's copy)

	// The filter's life (bip37): a wallet keeps FilterTweak and
	// FilterCapacity for its next scan, so that its filters keep their bits.
	FilterTweak    uint32
	FilterCapacity uint32  // elements the last filter loaded was sized for
	FilterLoads    int     // filterload messages sent: the first, then one per refresh
	FilterRate     float64 // false-positive rate the last filter's bits predict once the scan ended
	FilterPeakRate float64 // the highest rate the filter's bits predicted after a scanned block
	Refetched      int     // merkle blocks dropped because the filter came due before them, then fetched again
	RefetchedTxs   int     // transactions received with those blocks, dropped with them
	Transactions   int     // transactions in the scanned blocks, as their merkle blocks count them
	// ObservedFPRate is FalsePositives / (Transactions - WalletTxs): the
	// share of the other transactions the peer sent. A transaction tests
	// several elements (txid, output pushes, inputs), so this is several
	// times the filter's per-element rate.
	ObservedFPRate float64

	Traffic  Traffic // the whole session, handshake and header sync included
	Duration time.Duration
}

// Range settles a scan's range against the synced chain: a negative to means
// the tip. It returns an error naming the range if it is empty, negative or
// above the tip.
func (c *Chain) Range(from, to int32) (int32, int32, error) {
	tip := c.Height()
	if to < 0 {
		to = tip
	}
	switch {
	case from < c.Base():
		return from, to, fmt.Errorf("spv: range starts at %d, below the chain's first header %d", from, c.Base())
	case from > to:
		return from, to, fmt.Errorf("spv: range %d to %d is empty or negative", from, to)
	case to > tip:
		return from, to, fmt.Errorf("spv: range ends at %d, above the peer's tip %d", to, tip)
	}
	return from, to, nil
}

// Finish records what every mode measures once a scan ends, however far it
// came, and drops the session when the scan failed. A scan of several
// peers passes a nil session: it counts their traffic itself.
func (st *Stats) Finish(s *Session, c *Chain, began time.Time, err error) {
	if s != nil {
		if err != nil {
			s.Drop(err)
		}
		st.Traffic = s.Traffic()
	}
	st.Headers = c.Height()
	st.Duration = time.Since(began)
}
