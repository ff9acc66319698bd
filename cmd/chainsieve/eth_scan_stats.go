package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common"
)

// ethStatsJSON is the file eth scan --stats writes: the run's
// measurements in the schema of btc scan --stats (the same names, units
// and meaning for every field they share), which report privacy
// --measured reads. Fields btc scan has and an eth scan cannot measure are
// left out rather than written as zero: bytesSent (the JSON-RPC client
// counts only what it receives), walletTransactions (the eth scan finds
// logs, counted in eth.logs) and the per-command traffic maps.
type ethStatsJSON struct {
	Mode              string       `json:"mode"`    // "eth"
	Network           string       `json:"network"` // the chain's genesis hash: JSON-RPC names no network
	Peer              string       `json:"peer"`    // the endpoint, scheme://host only (a URL's path and query often hold an API key)
	From              uint64       `json:"from"`
	To                uint64       `json:"to"`
	BlocksScanned     uint64       `json:"blocksScanned"`   // 0 when the scan failed
	HeadersVerified   uint64       `json:"headersVerified"` // hashes and parent links checked in this run, up to the anchor; 0 with --verify none or before the chain was linked
	FalsePositives    uint64       `json:"falsePositives"`  // blocks whose receipts were fetched and held no matching log
	FalsePositiveUnit string       `json:"falsePositiveUnit"`
	BytesReceived     int64        `json:"bytesReceived"` // JSON-RPC response bodies after gzip decoding, every call and retry
	RoundTrips        int64        `json:"roundTrips"`    // HTTP requests, a batch counting once
	DurationSeconds   float64      `json:"durationSeconds"`
	Eth               ethStatsScan `json:"eth"`
	Error             string       `json:"error,omitempty"`
}

// ethStatsScan is what only an eth scan measures.
type ethStatsScan struct {
	Verify         string `json:"verify"`
	Genesis        string `json:"genesis"`
	AnchorNumber   uint64 `json:"anchorNumber"`
	AnchorHash     string `json:"anchorHash"`
	AnchorFromNode bool   `json:"anchorFromNode"`
	Resumed        bool   `json:"resumed"`
	ResumedLogs    uint64 `json:"resumedLogs"`
	HeadersFetched uint64 `json:"headersFetched"`
	HeadersIndexed uint64 `json:"headersIndexed"`
	Candidates     uint64 `json:"candidates"` // blocks whose receipts were fetched
	Matched        uint64 `json:"matched"`    // blocks with a matching log
	Logs           uint64 `json:"logs"`       // logs printed in this run
	HeaderBytes    int64  `json:"headerBytes"`
	ReceiptBytes   int64  `json:"receiptBytes"`
	PerTransaction bool   `json:"perTransaction"` // receipts fetched one transaction at a time
	Calls          int64  `json:"calls"`
	Retries        int64  `json:"retries"`
	Splits         int64  `json:"splits"`
	// Blocks of the range after the anchor (linked to it, not covered by
	// its finality) and the logs printed from them.
	Unfinalized     uint64 `json:"unfinalized"`
	UnfinalizedLogs uint64 `json:"unfinalizedLogs"`
	TxProven        uint64 `json:"txProven"` // blocks whose transactions proved their logs' transactionHash
	TxBytes         int64  `json:"txBytes"`  // JSON of those transactions, part of receiptBytes
}

// newEthStatsJSON gathers a finished (or failed) scan's measurements.
func newEthStatsJSON(cfg scan.Config, st scan.Stats, runErr error) ethStatsJSON {
	j := ethStatsJSON{Mode: "eth", From: st.From, To: st.To,
		FalsePositives: st.Candidates - st.Matched, FalsePositiveUnit: "blocks",
		DurationSeconds: st.Elapsed.Seconds(),
		Eth: ethStatsScan{Verify: cfg.Mode.String(), AnchorNumber: st.AnchorNumber, AnchorFromNode: st.AnchorFromNode,
			Resumed: st.Resumed, ResumedLogs: st.ResumedLogs, HeadersFetched: st.HeadersFetched, HeadersIndexed: st.HeadersIndexed,
			Candidates: st.Candidates, Matched: st.Matched, Logs: st.Logs, HeaderBytes: st.HeaderBytes, ReceiptBytes: st.ReceiptBytes,
			PerTransaction: st.PerTransaction, Calls: st.Calls, Retries: st.Retries, Splits: st.Splits,
			Unfinalized: st.Unfinalized, UnfinalizedLogs: st.UnfinalizedLogs, TxProven: st.TxProven, TxBytes: st.TxBytes}}
	if st.Genesis != (common.Hash{}) {
		j.Network, j.Eth.Genesis = st.Genesis.Hex(), st.Genesis.Hex()
	}
	if st.AnchorHash != (common.Hash{}) {
		j.Eth.AnchorHash = st.AnchorHash.Hex()
	}
	if cfg.Mode != scan.None && st.Linked { // fetched headers are verified once linked to the anchor
		j.HeadersVerified = st.HeadersFetched
	}
	if cfg.Client != nil {
		j.Peer = endpointHost(cfg.Client.URL)
		j.BytesReceived, j.RoundTrips, _, _ = cfg.Client.Counters()
	}
	if runErr != nil {
		// A scan that stopped part way covered an unknown part of its
		// range: it claims no block, and says why.
		j.Error = runErr.Error()
		if cfg.Client != nil {
			j.Error = withoutSecrets(j.Error, cfg.Client.URL)
		}
	} else {
		j.BlocksScanned = st.Blocks()
	}
	return j
}

// endpointHost is the endpoint without what may be a secret: user
// information, path and query.
func endpointHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(unparsable endpoint)"
	}
	return u.Scheme + "://" + u.Host
}

// withoutSecrets replaces every spelling of the endpoint URL in msg, as
// given or as Go's HTTP client redacts it, with its scheme and host: the
// file is written to be shared, and a URL's path and query may hold an
// API key.
func withoutSecrets(msg, raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return msg
	}
	host := endpointHost(raw)
	urls := regexp.MustCompile(regexp.QuoteMeta(u.Scheme+"://") + `[^\s"']*`)
	return urls.ReplaceAllStringFunc(msg, func(m string) string {
		if strings.Contains(m, u.Host) {
			return host
		}
		return m
	})
}

// writeEthStats writes the --stats file of a scan that ended with runErr
// (recorded in the file). It reports whether the command must fail for
// the file alone: when the scan succeeded but the file could not be
// written. A scan that failed fails anyway, and says why itself.
func writeEthStats(e *env, path string, cfg scan.Config, st scan.Stats, runErr error) (failed bool) {
	if path == "" {
		return false
	}
	b, err := json.MarshalIndent(newEthStatsJSON(cfg, st, runErr), "", "  ")
	if err == nil {
		err = os.WriteFile(path, append(b, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "chainsieve eth scan: --stats: %v\n", err)
		return runErr == nil
	}
	return false
}
