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
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// btcTxJSON is one wallet transaction in --json output. Hashes are in
// display hex, as RPCs and explorers print them.
type btcTxJSON struct {
	TxID      string       `json:"txid"`
	Height    int32        `json:"height"`
	BlockHash string       `json:"blockHash"`
	Outputs   []btcOutJSON `json:"outputs"` // outputs that pay a watched address
	Inputs    []btcInJSON  `json:"inputs"`  // inputs that spend a watched coin
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

func newBTCTxJSON(tx spv.Tx) btcTxJSON {
	j := btcTxJSON{TxID: tx.ID.String(), Height: tx.Height, BlockHash: tx.Block.String(),
		Outputs: []btcOutJSON{}, Inputs: []btcInJSON{}}
	for _, o := range tx.Outputs {
		j.Outputs = append(j.Outputs, btcOutJSON{o.Index, o.Value, o.Address.EncodeAddress()})
	}
	for _, in := range tx.Inputs {
		j.Inputs = append(j.Inputs, btcInJSON{in.Index, in.Spends.String()})
	}
	return j
}

// writeBTCTx prints a wallet transaction: a JSON object per line, or a
// line of text.
func writeBTCTx(w io.Writer, tx spv.Tx, asJSON bool) error {
	j := newBTCTxJSON(tx)
	if asJSON {
		b, err := json.Marshal(j)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	var parts []string
	for _, in := range j.Inputs {
		parts = append(parts, fmt.Sprintf("in %d spends %s", in.Index, in.Spends))
	}
	for _, o := range j.Outputs {
		parts = append(parts, fmt.Sprintf("out %d pays %s %s", o.Index, btc(o.Value), o.Address))
	}
	_, err := fmt.Fprintf(w, "%d %s %s\n", j.Height, j.TxID, strings.Join(parts, "; "))
	return err
}

func btc(sat int64) string { return fmt.Sprintf("%d.%08d BTC", sat/1e8, sat%1e8) }

// writeBTCSummary prints what the scan did and cost.
func writeBTCSummary(w io.Writer, f *btcScanFlags, st spv.Stats, total time.Duration) {
	fmt.Fprintf(w, "btc scan: %s on %s via %s: blocks %d to %d, %d scanned (headers verified to %d)\n",
		st.Mode, f.net.Name(), f.peer, st.From, st.To, st.Blocks, st.Headers)
	switch st.Mode {
	case "bip157":
		fmt.Fprintf(w, "  %d filter hashes, %d filters checked; %d blocks fetched, %d false positives\n",
			st.FilterHeaders, st.Filters, st.BlocksFetched, st.FalsePositives)
	case "bip37":
		fmt.Fprintf(w, "  %d merkle blocks verified; %d transactions received, %d false positives (%d our copy of the filter does not match); filter %d B, %.0f%% of its bits set at the end\n",
			st.MerkleBlocks, st.TxsReceived, st.FalsePositives, st.Unfiltered, st.FilterSize, 100*st.FilterFill)
	}
	tr := st.Traffic
	fmt.Fprintf(w, "  %d wallet transactions; received %d B, sent %d B in %d round trips; %.3f s\n",
		st.WalletTxs, tr.BytesReceived, tr.BytesSent, tr.RoundTrips, total.Seconds())
}

// btcStatsJSON is the --stats file: a run's measurements for reports.
type btcStatsJSON struct {
	Mode               string             `json:"mode"`
	Network            string             `json:"network"`
	Peer               string             `json:"peer"`
	From               int32              `json:"from"`
	To                 int32              `json:"to"`
	BlocksScanned      int                `json:"blocksScanned"`
	HeadersVerified    int32              `json:"headersVerified"`
	WalletTransactions int                `json:"walletTransactions"`
	FalsePositives     int                `json:"falsePositives"`
	FalsePositiveUnit  string             `json:"falsePositiveUnit"` // "blocks" or "transactions"
	BytesReceived      uint64             `json:"bytesReceived"`
	BytesSent          uint64             `json:"bytesSent"`
	RoundTrips         int                `json:"roundTrips"`
	DurationSeconds    float64            `json:"durationSeconds"` // dial to end
	ScanSeconds        float64            `json:"scanSeconds"`     // header sync and scan
	BIP157             *btcStatsBIP157    `json:"bip157,omitempty"`
	BIP37              *btcStatsBIP37     `json:"bip37,omitempty"`
	Received           map[string]countJS `json:"received"` // by command
	Sent               map[string]countJS `json:"sent"`
	Error              string             `json:"error,omitempty"`
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
	FilterLoads          int     `json:"filterLoads"` // 1 + refreshes
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
func writeBTCStats(path string, f *btcScanFlags, st spv.Stats, total time.Duration, runErr error) error {
	j := btcStatsJSON{Mode: f.mode, Network: f.net.Name(), Peer: f.peer, From: st.From, To: st.To,
		BlocksScanned: st.Blocks, HeadersVerified: st.Headers, WalletTransactions: st.WalletTxs,
		FalsePositives: st.FalsePositives, FalsePositiveUnit: "blocks",
		BytesReceived: st.Traffic.BytesReceived, BytesSent: st.Traffic.BytesSent, RoundTrips: st.Traffic.RoundTrips,
		DurationSeconds: total.Seconds(), ScanSeconds: st.Duration.Seconds(),
		Received: counts(st.Traffic.Received), Sent: counts(st.Traffic.Sent)}
	if f.mode == "bip37" {
		fp := f.fp
		if fp == 0 {
			fp = bloomscan.DefaultFPRate
		}
		j.FalsePositiveUnit = "transactions"
		j.BIP37 = &btcStatsBIP37{st.MerkleBlocks, st.TxsReceived, st.Unfiltered, fp, st.FilterSize, st.FilterFill,
			st.FilterRate, st.FilterPeakRate, st.FilterTweak, st.FilterCapacity, st.FilterLoads, st.Refetched, st.RefetchedTxs,
			st.Transactions, st.ObservedFPRate}
	} else {
		j.BIP157 = &btcStatsBIP157{st.FilterHeaders, st.Filters, st.BlocksFetched, f.checkpoint != nil}
	}
	if runErr != nil {
		j.Error = runErr.Error()
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func counts(m map[string]spv.Count) map[string]countJS {
	out := make(map[string]countJS, len(m))
	for k, c := range m {
		out[k] = countJS{c.Messages, c.Bytes}
	}
	return out
}

// btcProgress is the progress line's text for a scan at pr.
func btcProgress(pr spv.Progress) string {
	frac := float64(pr.Height-pr.From+1) / float64(pr.To-pr.From+1)
	return fmt.Sprintf("block %d of %d..%d %s %3.0f%%", pr.Height, pr.From, pr.To, progress.Bar(frac, 30), 100*frac)
}
