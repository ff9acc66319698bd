package scan

import (
	"fmt"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Mode is how much of the node's answer a scan verifies. Each mode's name
// is the one it prints and parses (the CLI's --verify values).
type Mode int

const (
	// Full checks everything: header hashes and parent links up to the
	// anchor, and each candidate block's receipts against its receiptsRoot,
	// each receipt bloom against its logs and their union against the
	// header's logsBloom. Only bloom candidates are fetched.
	Full Mode = iota
	// BloomUntrusted is for chains that have published wrong header blooms:
	// the receipts of every block in the range are fetched and checked
	// against the receiptsRoot only; no bloom decides anything.
	BloomUntrusted
	// None skips the anchor and receipt checks: the node is believed. Only
	// for a node of one's own; parent links are still checked, as the index
	// requires them.
	None
)

var modeNames = []string{"full", "bloom-untrusted", "none"}

// ParseMode reads a mode by its name: full, bloom-untrusted or none.
func ParseMode(s string) (Mode, error) {
	for i, name := range modeNames {
		if s == name {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("scan: unknown verify mode %q (full, bloom-untrusted or none)", s)
}

func (m Mode) String() string { return modeNames[m] }

// Config describes one scan.
type Config struct {
	Client *Client
	// Query selects the logs: addresses and topics with eth_getLogs
	// semantics. Its block fields are ignored: From and To bound the scan.
	Query ethlogs.Query
	From  uint64
	To    *uint64 // nil: the node's tip (latest)
	// FromBlock and ToBlock, when set, replace From and To with a number,
	// a tag or a tag less N ("latest-10"), resolved by the node at the
	// start ([ParseBlock]). Where the anchor is finalized, "finalized" is
	// the anchor.
	FromBlock, ToBlock *Block
	// Anchor chooses the block the header chain is verified from, and who
	// vouches for it ([Anchor]); the zero value is the node's finalized
	// block, or its tip where it reports none. Blocks of the range after
	// it are verified as a chain linked forward to it.
	Anchor Anchor
	// TrustTxHashes passes each log's transactionHash on as the node's
	// receipts give it. By default the transactions of every block with
	// matching logs are fetched and proven against its transactionsRoot.
	TrustTxHashes bool
	// IndexDir holds the persistent header indexes, one directory per
	// chain (named by its genesis hash) and per first block; see
	// [DefaultIndexDir].
	IndexDir string
	Mode     Mode

	Concurrency   int // requests in flight; 0: 4
	HeaderBatch   int // most headers per request; 0: 500 (halved on refusals)
	ReceiptsBatch int // most blocks' receipts per request; 0: 16

	// Resume continues a stopped scan from a [Checkpoint] it reported: it
	// answers the same question (the chain, the anchor by hash and the
	// range by number that the stopped scan resolved, whatever the node's
	// tags say now) from the block after the last one whose logs were all
	// emitted. Query, Mode and TrustTxHashes must be the stopped scan's;
	// Anchor, From, To, FromBlock and ToBlock are ignored.
	Resume *Checkpoint
	// Checkpoint, if set, is called with where the scan stands: once
	// before the first Emit, after each batch of logs Emit accepted, and
	// last when the scan is complete ([Checkpoint.Done]). A caller that
	// makes what Emit wrote durable and then persists the checkpoint can
	// resume from the last one persisted, whenever the scan stopped, with
	// no log repeated or lost. An error stops the scan.
	Checkpoint func(Checkpoint) error

	// Emit receives each batch of matching logs in block and log-index
	// order. It is called from one goroutine.
	Emit func(logs []*types.Log) error
	// Started, if set, is called once the range, anchor and resume point
	// are known, before the long work.
	Started func(Stats)
	// Progress, if set, is called after each batch of headers or receipts.
	Progress func(Progress)
	// Waiting, if set, is called when another process keeps the scan from
	// the index (it writes the index, or its snapshot readers keep a
	// reorganised part from being cut), before the scan waits for it
	// until ctx is done.
	Waiting func(*index.LockedError)
}

// Progress is how far a scan has come in its current phase.
type Progress struct {
	Phase       string // "headers" or "receipts"
	Done, Total uint64 // blocks
	Elapsed     time.Duration
}

// Stats describe a scan: what it covered, trusted, fetched and found.
type Stats struct {
	Genesis        common.Hash
	From, To       uint64 // the range searched in this run
	AnchorNumber   uint64
	AnchorHash     common.Hash
	AnchorFromNode bool         // the node chose the anchor (a tag, a number, or no anchor given)
	AnchorSource   AnchorSource // where the anchor came from
	AnchorNote     string       // with NodeTip: the node's answer for its finalized block, escaped
	Beacon         *beacon.Finalized
	Confirmations  []Confirmation // one per Anchor.Confirm endpoint, in order
	// Unfinalized is the number of blocks of the range after the anchor:
	// linked to it by parent hashes, not covered by its finality.
	Unfinalized, UnfinalizedLogs uint64
	Resumed                      bool   // Config.Resume was set: From is its next block
	ResumedLogs                  uint64 // logs the stopped scan emitted before its checkpoint
	Index                        string // the index directory used

	// Linked says that the header phase completed: every header of the
	// range is linked to the anchor (and, after it, to the node's block at
	// To). Until then nothing is verified and no log is emitted.
	Linked bool
	// Next is the first block whose matching logs are not known to be all
	// emitted: those of blocks From to Next-1 are. To+1 once the scan is
	// complete.
	Next uint64

	HeadersFetched uint64 // headers fetched and verified in this run
	HeadersIndexed uint64 // headers of the range taken from the index
	Candidates     uint64 // blocks whose receipts were fetched
	Matched        uint64 // blocks with at least one matching log
	Logs           uint64 // logs emitted in this run (with Removed ones)
	Following      bool   // a follow's range is done: it follows the node's heads
	Heads          uint64 // a follow's steps: heads of the node handled ([Follow])
	Reorgs         uint64 // reorganisations a follow met
	Removed        uint64 // logs a follow emitted removed
	PerTransaction bool   // receipts came one transaction at a time
	TxProven       uint64 // blocks whose transactions proved their logs' transactionHash
	TxBytes        int64  // JSON of those transactions, part of ReceiptBytes

	HeaderBytes, ReceiptBytes int64 // JSON received in each phase
	Requests, Calls, Retries  int64
	Splits                    int64 // requests split after a provider refused them
	Elapsed                   time.Duration

	knownPeak int // the most candidates' headers held at once, for tests
}

// Blocks returns the number of blocks in the range searched.
func (s *Stats) Blocks() uint64 {
	if s.To < s.From {
		return 0
	}
	return s.To - s.From + 1
}

// FalsePositiveRate returns the fraction of the range's blocks without a
// match whose bloom passed anyway: the receipts fetched for nothing.
func (s *Stats) FalsePositiveRate() float64 {
	if s.Blocks() == s.Matched {
		return 0
	}
	return float64(s.Candidates-s.Matched) / float64(s.Blocks()-s.Matched)
}

// AllReceiptBytes estimates the receipt bytes of fetching every block of
// the range, from the mean of the candidates fetched.
func (s *Stats) AllReceiptBytes() int64 {
	if s.Candidates == 0 {
		return 0
	}
	return int64(float64(s.ReceiptBytes) / float64(s.Candidates) * float64(s.Blocks()))
}
