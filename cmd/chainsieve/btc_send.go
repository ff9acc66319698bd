package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

const btcSendSynopsis = `--network NETWORK [--peer HOST:PORT]... [--json] RAWTX|-

Relays a signed transaction (RAWTX in hex, or - to read the hex from stdin)
to the peers given, or to peers from the network's DNS seeds when none is
(regtest has none): it announces the transaction to each at once, sends it
to those that ask for it, and waits for their verdict (a ping after it).

One line per peer (--json: one object) on stdout:

  requested  the peer asked for it and answered the ping without a reject.
             btcd then holds it in its mempool; Bitcoin Core sends no
             rejects (since v0.20), so from Core it means only "received".
  rejected   the peer sent a reject, with its code and reason.
  silent     the peer did not ask within 10 s: it may have it already (from
             another peer), or have rejected it before.
  failed     the connection failed before the verdict.

Exit 0 only if at least one peer requested the transaction and none
rejected it; 1 otherwise (the transaction may still have reached a mempool:
check before sending a replacement); 2: usage.`

// btcSendJSON is one peer's answer in btc send --json.
type btcSendJSON struct {
	Peer    string `json:"peer"`
	Outcome string `json:"outcome"` // requested, rejected, silent or failed
	Code    string `json:"code,omitempty"`
	Reason  string `json:"reason,omitempty"` // the peer's text, clipped and escaped
	Error   string `json:"error,omitempty"`
}

// maxRawTxHex bounds the hex read: a transaction fits in a block of
// 4,000,000 weight units, so in 4 MB.
const maxRawTxHex = 2 * 4_000_000

func btcSend(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "btc send", btcSendSynopsis)
	var peers listFlag
	network := fs.String("network", "", "the `NETWORK`: "+spv.NetworkNames()+" (required)")
	fs.Var(&peers, "peer", "a peer to relay to, `HOST:PORT` (repeatable; none: the network's DNS seeds)")
	asJSON := fs.Bool("json", false, "one JSON object per peer on stdout")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	cfg, tx, err := btcSendConfig(e, *network, peers, pos)
	if err != nil {
		return usageError(e, "btc send", "%v", err)
	}
	dials := &dialLog{errs: make(map[string]string)}
	cfg.Logger = slog.New(dials)
	relays, err := lightclient.Send(ctx, cfg, tx)
	if err != nil {
		fmt.Fprintf(e.stderr, "chainsieve btc send: %s\n", peerText(err.Error()))
		return exitFailure
	}
	for _, p := range cfg.Peers {
		if !slices.ContainsFunc(relays, func(r spv.Relay) bool { return r.Peer == p }) {
			relays = append(relays, spv.Relay{Peer: p, Err: dials.err(p)})
		}
	}
	var requested, rejected, silent, failed int
	for _, r := range relays {
		j := btcRelayJSON(r)
		switch j.Outcome {
		case "requested":
			requested++
		case "rejected":
			rejected++
		case "silent":
			silent++
		default:
			failed++
		}
		if err := writeBTCRelay(e.stdout, j, *asJSON); err != nil {
			fmt.Fprintf(e.stderr, "chainsieve btc send: stdout: %v\n", err)
			return exitFailure
		}
	}
	fmt.Fprintf(e.stderr, "btc send: %s to %d peers: %d requested, %d rejected, %d silent, %d failed\n",
		tx.TxHash(), len(relays), requested, rejected, silent, failed)
	if requested == 0 || rejected > 0 {
		fmt.Fprintf(e.stderr, "chainsieve btc send: not relayed: want at least one peer to request it and none to reject it\n")
		return exitFailure
	}
	return exitOK
}

// btcSendConfig checks the arguments and decodes the transaction.
func btcSendConfig(e *env, network string, peers, pos []string) (lightclient.Config, *wire.MsgTx, error) {
	var cfg lightclient.Config
	switch {
	case network == "":
		return cfg, nil, fmt.Errorf("--network is required (%s)", spv.NetworkNames())
	case len(pos) != 1:
		return cfg, nil, errors.New("want one argument: the raw transaction in hex, or - to read it from stdin")
	}
	n, err := spv.ParseNetwork(network)
	if err != nil {
		return cfg, nil, fmt.Errorf("--network %q: want %s", network, spv.NetworkNames())
	}
	if len(peers) == 0 && len(n.Params.DNSSeeds) == 0 {
		return cfg, nil, fmt.Errorf("--peer HOST:PORT is required on %s, which has no DNS seeds", n.Name())
	}
	for _, p := range peers {
		if _, _, err := splitHostPort(p); err != nil {
			return cfg, nil, fmt.Errorf("--peer %q: %v", p, err)
		}
	}
	text := pos[0]
	if text == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, maxRawTxHex+4096))
		if err != nil {
			return cfg, nil, fmt.Errorf("stdin: %v", err)
		}
		text = string(b)
	}
	tx, err := decodeRawTx(strings.TrimSpace(text))
	if err != nil {
		return cfg, nil, err
	}
	return lightclient.Config{Network: n, Peers: peers, TargetPeers: len(peers)}, tx, nil
}

// decodeRawTx decodes a transaction in hex, with or without witness data,
// that must use every byte.
func decodeRawTx(s string) (*wire.MsgTx, error) {
	if len(s) > maxRawTxHex {
		return nil, fmt.Errorf("raw transaction: %d hex digits, more than a block holds", len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("raw transaction: not hex: %v", err)
	}
	tx := new(wire.MsgTx)
	r := bytes.NewReader(b)
	if err := tx.Deserialize(r); err != nil {
		return nil, fmt.Errorf("raw transaction: %v", err)
	}
	if r.Len() > 0 {
		return nil, fmt.Errorf("raw transaction: %d bytes after the transaction's end", r.Len())
	}
	if len(tx.TxIn) == 0 || len(tx.TxOut) == 0 {
		return nil, errors.New("raw transaction: no inputs or no outputs")
	}
	return tx, nil
}

func btcRelayJSON(r spv.Relay) btcSendJSON {
	j := btcSendJSON{Peer: r.Peer, Outcome: r.Outcome.String()}
	switch {
	case r.Outcome == spv.Rejected:
		j.Code, j.Reason = r.Code.String(), untrusted.Line(r.Reason, 300)
	case r.Err != nil: // requested but never settled, or the session failed
		j.Outcome, j.Error = "failed", peerText(r.Err.Error())
	}
	return j
}

func writeBTCRelay(w io.Writer, j btcSendJSON, asJSON bool) error {
	if asJSON {
		return writeJSONLine(w, j)
	}
	line := j.Peer + " " + j.Outcome
	switch {
	case j.Reason != "" || j.Code != "":
		line += fmt.Sprintf(": %s %s", j.Code, j.Reason)
	case j.Error != "":
		line += ": " + j.Error
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// dialLog keeps, from the client's log, why each peer could not be
// connected.
type dialLog struct {
	mu   sync.Mutex
	errs map[string]string
}

func (d *dialLog) err(peer string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if why, ok := d.errs[peer]; ok {
		return errors.New(why)
	}
	return errors.New("not connected")
}

func (d *dialLog) Enabled(context.Context, slog.Level) bool { return true }
func (d *dialLog) WithAttrs([]slog.Attr) slog.Handler       { return d }
func (d *dialLog) WithGroup(string) slog.Handler            { return d }

func (d *dialLog) Handle(_ context.Context, r slog.Record) error {
	var peer, why string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "peer":
			peer = a.Value.String()
		case "err":
			why = a.Value.String()
		}
		return true
	})
	if peer != "" && why != "" {
		d.mu.Lock()
		d.errs[peer] = why
		d.mu.Unlock()
	}
	return nil
}
