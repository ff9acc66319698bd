package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// btcTxJSON is one wallet transaction in --json output. Hashes are in
// display hex, as RPCs and explorers print them. A transaction line has no
// "type" (its fields are those of the first --json output, kept as they
// were); the summary records after it have one ([btcUTXOJSON],
// [btcBalanceJSON]).
type btcTxJSON struct {
	TxID      string       `json:"txid"`
	Height    int32        `json:"height"`
	BlockHash string       `json:"blockHash"`
	Outputs   []btcOutJSON `json:"outputs"` // outputs that pay a watched address
	Inputs    []btcInJSON  `json:"inputs"`  // inputs that spend a watched coin
	// Removed: the block left the chain in a reorganisation, taking the
	// transaction with it (it may come back in a block of the new branch,
	// printed after).
	Removed bool `json:"removed,omitempty"`
}

type btcOutJSON struct {
	Index   uint32 `json:"index"`
	Value   int64  `json:"value"` // satoshis
	Address string `json:"address"`
}

type btcInJSON struct {
	Index  uint32 `json:"index"`
	Spends string `json:"spends"` // TXID:N
}

func newBTCTxJSON(tx spv.Tx, removed bool) btcTxJSON {
	j := btcTxJSON{TxID: tx.ID.String(), Height: tx.Height, BlockHash: tx.Block.String(),
		Outputs: []btcOutJSON{}, Inputs: []btcInJSON{}, Removed: removed}
	for _, o := range tx.Outputs {
		j.Outputs = append(j.Outputs, btcOutJSON{o.Index, o.Value, o.Address.EncodeAddress()})
	}
	for _, in := range tx.Inputs {
		j.Inputs = append(j.Inputs, btcInJSON{in.Index, in.Spends.String()})
	}
	return j
}

// writeBTCTx prints a wallet transaction: a JSON object per line, or a
// line of text; removed marks one whose block left the chain.
func writeBTCTx(w io.Writer, tx spv.Tx, asJSON, removed bool) error {
	j := newBTCTxJSON(tx, removed)
	if asJSON {
		return writeJSONLine(w, j)
	}
	var parts []string
	for _, in := range j.Inputs {
		parts = append(parts, fmt.Sprintf("in %d spends %s", in.Index, in.Spends))
	}
	for _, o := range j.Outputs {
		parts = append(parts, fmt.Sprintf("out %d pays %s %s", o.Index, btc(o.Value), o.Address))
	}
	mark := ""
	if removed {
		mark = "removed: "
	}
	_, err := fmt.Fprintf(w, "%d %s %s%s\n", j.Height, j.TxID, mark, strings.Join(parts, "; "))
	return err
}

// writeJSONLine writes v as one line of JSON.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func btc(sat int64) string { return fmt.Sprintf("%d.%08d BTC", sat/1e8, sat%1e8) }

// btcStatsJSON is the --stats file: a run's measurements for reports
// (report privacy --measured reads it; eth scan --stats writes the shared
// fields in the same schema). Counters sum every scan the client ran:
// the range, each new block in follow mode, and a step run again after a
// peer failed, so blocksScanned can exceed the range.
type btcStatsJSON struct {
	Mode               string             `json:"mode"`
	Network            string             `json:"network"`
	Peer               string             `json:"peer"`              // the peers used, comma-separated
	From               int32              `json:"from"`              // the birthday, or the block after those the kept wallet had reported
	Resumed            *int32             `json:"resumed,omitempty"` // the last block the kept wallet had reported
	To                 int32              `json:"to"`                // the last block printed
	BlocksScanned      int                `json:"blocksScanned"`
	HeadersVerified    int32              `json:"headersVerified"` // the header chain's height
	WalletTransactions int                `json:"walletTransactions"`
	RemovedTxs         int                `json:"removedTransactions"` // printed as removed by reorganisations
	FalsePositives     int                `json:"falsePositives"`
	FalsePositiveUnit  string             `json:"falsePositiveUnit"` // "blocks" or "transactions"
	BytesReceived      uint64             `json:"bytesReceived"`
	BytesSent          uint64             `json:"bytesSent"`
	BytesPerBlock      float64            `json:"bytesPerBlock"` // received, over the blocks from..to
	RoundTrips         int                `json:"roundTrips"`
	DurationSeconds    float64            `json:"durationSeconds"` // the whole run
	ScanSeconds        float64            `json:"scanSeconds"`     // the scans, header syncs excluded
	Reorgs             int                `json:"reorgs"`
	Peers              []btcStatsPeer     `json:"peers"` // every peer connected to
	Bans               []btcStatsBan      `json:"bans"`
	BIP157             *btcStatsBIP157    `json:"bip157,omitempty"`
	BIP37              *btcStatsBIP37     `json:"bip37,omitempty"`
	Received           map[string]countJS `json:"received"` // by command, every session
	Sent               map[string]countJS `json:"sent"`
	Error              string             `json:"error,omitempty"`
}

// btcStatsPeer is one peer the client connected to. Text the peer sent
// (its user agent, an error quoting it) is clipped and escaped.
type btcStatsPeer struct {
	Address       string `json:"address"`
	UserAgent     string `json:"userAgent"`
	Services      string `json:"services"`
	StartHeight   int32  `json:"startHeight"`
	BytesReceived uint64 `json:"bytesReceived"`
	BytesSent     uint64 `json:"bytesSent"`
	Dropped       string `json:"dropped,omitempty"` // why the client disconnected it before the end
}

// btcStatsBan is a peer proven to lie.
type btcStatsBan struct {
	Peer   string `json:"peer"`
	Key    string `json:"key"` // the IP address banned, or IP:port on loopback
	Reason string `json:"reason"`
	Until  string `json:"until"` // RFC 3339
}

type btcStatsBIP157 struct {
	FilterHashes  int  `json:"filterHashes"`
	Filters       int  `json:"filters"`
	BlocksFetched int  `json:"blocksFetched"`
	Checkpoint    bool `json:"checkpoint"`
}

type btcStatsBIP37 struct {
	MerkleBlocks         int     `json:"merkleBlocks"`
	TransactionsReceived int     `json:"transactionsReceived"`
	Unfiltered           int     `json:"unfiltered"`
	FPRate               float64 `json:"fpRate"`
	FilterBytes          int     `json:"filterBytes"`
	FilterFill           float64 `json:"filterFill"`
	FilterRate           float64 `json:"filterRate"`     // predicted by its bits at the end
	FilterPeakRate       float64 `json:"filterPeakRate"` // highest predicted after a block
	FilterTweak          uint32  `json:"filterTweak"`
	FilterCapacity       uint32  `json:"filterCapacity"`
	FilterLoads          int     `json:"filterLoads"`     // one per scan, then one per refresh
	FilterRefreshes      int     `json:"filterRefreshes"` // loaded again within a scan: the last came due
	Scans                int     `json:"scans"`
	RefetchedBlocks      int     `json:"refetchedBlocks"`
	RefetchedTxs         int     `json:"refetchedTransactions"`
	Transactions         int     `json:"transactions"`   // in the blocks scanned
	ObservedFPRate       float64 `json:"observedFPRate"` // per other transaction
}

type countJS struct {
	Messages int    `json:"messages"`
	Bytes    uint64 `json:"bytes"`
}

// writeBTCStats writes the run's measurements to path; runErr, if any, is
// recorded with them.
func writeBTCStats(path string, o *btcScanOutput, total time.Duration, runErr error) error {
	f, c := o.f, o.c
	st := c.Stats()
	j := btcStatsJSON{Mode: f.mode.String(), Network: f.net.Name(), From: o.from(), To: o.reported,
		BlocksScanned: st.Blocks, HeadersVerified: st.Headers, WalletTransactions: o.txs, RemovedTxs: o.removed,
		FalsePositives: st.FalsePositives, FalsePositiveUnit: "blocks",
		BytesReceived: st.Traffic.BytesReceived, BytesSent: st.Traffic.BytesSent, RoundTrips: st.Traffic.RoundTrips,
		DurationSeconds: total.Seconds(), ScanSeconds: st.Duration.Seconds(), Reorgs: st.Reorgs,
		Peers: []btcStatsPeer{}, Bans: []btcStatsBan{},
		Received: counts(st.Traffic.Received), Sent: counts(st.Traffic.Sent)}
	if o.resumed != nil {
		j.Resumed = &o.resumed.Height
	}
	if n := o.reported - o.from() + 1; n > 0 {
		j.BytesPerBlock = float64(st.Traffic.BytesReceived) / float64(n)
	}
	var used []string
	for _, p := range c.PeersUsed() {
		j.Peers = append(j.Peers, btcStatsPeer{Address: p.Addr, UserAgent: untrusted.Line(p.UserAgent, 256), Services: p.Services.String(),
			StartHeight: p.StartHeight, BytesReceived: p.Traffic.BytesReceived, BytesSent: p.Traffic.BytesSent, Dropped: droppedReason(p.Dropped)})
		used = append(used, p.Addr)
	}
	j.Peer = strings.Join(used, ",")
	for _, b := range c.Bans() {
		j.Bans = append(j.Bans, btcStatsBan{Peer: b.Peer, Key: b.Key, Reason: peerText(b.Reason), Until: b.Until.UTC().Format(time.RFC3339)})
	}
	if f.mode == lightclient.BIP37 {
		fp := f.fp
		if fp == 0 {
			fp = bloomscan.DefaultFPRate
		}
		j.FalsePositiveUnit = "transactions"
		j.BIP37 = &btcStatsBIP37{st.MerkleBlocks, st.TxsReceived, st.Unfiltered, fp, st.FilterSize, st.FilterFill,
			st.FilterRate, st.FilterPeakRate, st.FilterTweak, st.FilterCapacity, st.FilterLoads, st.Refreshes, st.Scans,
			st.Refetched, st.RefetchedTxs, st.Transactions, st.ObservedFPRate}
	} else {
		j.BIP157 = &btcStatsBIP157{st.FilterHeaders, st.Filters, st.BlocksFetched, f.checkpoint != nil}
	}
	if runErr != nil {
		j.Error = peerText(runErr.Error())
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// droppedReason is why a peer was dropped, empty for the client's own end.
func droppedReason(why string) string {
	if why == lightclient.ErrStopped.Error() {
		return ""
	}
	return peerText(why)
}

func counts(m map[string]spv.Count) map[string]countJS {
	out := make(map[string]countJS, len(m))
	for k, c := range m {
		out[k] = countJS{c.Messages, c.Bytes}
	}
	return out
}

// btcProgress is the progress line's text at block h of from..to.
func btcProgress(from, h, to int32) string {
	frac := 1.0
	if to > from {
		frac = float64(h-from+1) / float64(to-from+1)
	}
	return fmt.Sprintf("block %d of %d..%d %s %3.0f%%", h, from, to, progress.Bar(frac, 30), 100*frac)
}
