package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

const btcScanSynopsis = `--peer HOST:PORT --network NETWORK --mode bip157|bip37
       --address ADDR... [--outpoint TXID:N]... [--from HEIGHT] [--to HEIGHT]
       [--checkpoint HEIGHT:FILTERHEADER] [--fp RATE] [--json] [--stats FILE]

A Bitcoin light client: finds the transactions that pay the addresses or
spend the outpoints in blocks --from to --to (default: to the peer's tip),
asking one peer over P2P. It verifies the peer's block headers from genesis
(proof of work, difficulty rules, checkpoints), then:

  bip157  fetches the compact filters' headers and the filters (BIP157/158),
          checks each filter against the filter-header chain (anchored at
          --checkpoint if given, else at genesis), and downloads only the
          blocks whose filter matches;
  bip37   loads a Bloom filter of the addresses and outpoints (BIP37,
          false-positive rate --fp) and verifies the merkle block and the
          transactions the peer sends for every block.

Give with --outpoint the coins received before --from, so that their spends
are found. A peer that serves anything that fails verification, or stalls,
is dropped and the scan fails naming the block.`

// btcScanFlags are the parsed flags of btc scan.
type btcScanFlags struct {
	peer, mode, stats string
	net               *spv.Network
	addrs             []address.Address
	coins             []wire.OutPoint
	from, to          int32
	checkpoint        *gcs.Checkpoint
	fp                float64
	asJSON            bool
}

func btcScan(ctx context.Context, e *env, args []string) int {
	f, code, ok := parseBTCScanFlags(e, args)
	if !ok {
		return code
	}
	began := time.Now()
	line := progress.New(e.stderr)
	st, err := f.scan(ctx, func(tx spv.Tx) error { line.Clear(); return writeBTCTx(e.stdout, tx, f.asJSON) },
		func(pr spv.Progress) { line.Draw(pr.Height == pr.To, func() string { return btcProgress(pr) }) })
	line.Clear()
	if st.Mode != "" {
		writeBTCSummary(e.stderr, f, st, time.Since(began))
	}
	if f.stats != "" {
		if werr := writeBTCStats(f.stats, f, st, time.Since(began), err); werr != nil {
			fmt.Fprintf(e.stderr, "chainsieve btc scan: --stats: %v\n", werr)
			return exitFailure
		}
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "chainsieve btc scan: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// scan dials the peer and runs the scan of the chosen mode.
func (f *btcScanFlags) scan(ctx context.Context, emit func(spv.Tx) error, progress func(spv.Progress)) (spv.Stats, error) {
	services := wire.SFNodeCF
	if f.mode == "bip37" {
		services = wire.SFNodeBloom
	}
	s, err := spv.Dial(ctx, f.peer, spv.Config{Network: f.net, Services: services})
	if err != nil {
		return spv.Stats{}, err
	}
	defer s.Close()
	chain, err := spv.NewChain(f.net)
	if err != nil {
		return spv.Stats{}, err
	}
	watch, err := spv.NewWatch(f.addrs, f.coins)
	if err != nil {
		return spv.Stats{}, err
	}
	if f.mode == "bip37" {
		return bloomscan.Run(ctx, bloomscan.Config{Session: s, Chain: chain, Watch: watch, From: f.from, To: f.to,
			FPRate: f.fp, Emit: emit, Progress: progress})
	}
	return cfscan.Run(ctx, cfscan.Config{Session: s, Chain: chain, Watch: watch, From: f.from, To: f.to,
		Checkpoint: f.checkpoint, Emit: emit, Progress: progress})
}

// listFlag collects the values of a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parseBTCScanFlags(e *env, args []string) (*btcScanFlags, int, bool) {
	fs := newFlags(e, "btc scan", btcScanSynopsis)
	var addrs, outpoints listFlag
	peer := fs.String("peer", "", "the peer to ask, `HOST:PORT` (required)")
	network := fs.String("network", "", "the `NETWORK`: "+spv.NetworkNames()+" (required)")
	mode := fs.String("mode", "", "bip157 (compact filters) or bip37 (Bloom filters) (required)")
	fs.Var(&addrs, "address", "an address `ADDR` of the wallet (required; repeat for more)")
	fs.Var(&outpoints, "outpoint", "a coin the wallet holds, `TXID:N` (repeatable)")
	from := fs.Int("from", 0, "first block `HEIGHT` to scan")
	to := fs.Int("to", -1, "last block `HEIGHT` to scan; -1 is the peer's tip")
	checkpoint := fs.String("checkpoint", "", "a trusted filter header, `HEIGHT:FILTERHEADER` in display hex (bip157)")
	fp := fs.Float64("fp", 0, fmt.Sprintf("the Bloom filter's false-positive `RATE` (bip37; default %v)", bloomscan.DefaultFPRate))
	asJSON := fs.Bool("json", false, "one JSON object per wallet transaction on stdout")
	stats := fs.String("stats", "", "write the run's measurements as JSON to `FILE`")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return nil, code, false
	}
	f := &btcScanFlags{peer: *peer, mode: *mode, stats: *stats, from: int32(*from), to: int32(*to), fp: *fp, asJSON: *asJSON}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.check(pos, set, *network, *from, *to, addrs, outpoints, *checkpoint); err != nil {
		return nil, usageError(e, "btc scan", "%v", err), false
	}
	return f, 0, true
}

// check validates and converts the flags.
func (f *btcScanFlags) check(pos []string, set map[string]bool, network string, from, to int, addrs, outpoints []string, checkpoint string) error {
	var err error
	switch {
	case len(pos) > 0:
		return fmt.Errorf("unexpected argument %q", pos[0])
	case f.peer == "":
		return errors.New("--peer HOST:PORT is required")
	case network == "":
		return fmt.Errorf("--network is required (%s)", spv.NetworkNames())
	case f.mode != "bip157" && f.mode != "bip37":
		return fmt.Errorf("--mode %q: want bip157 or bip37", f.mode)
	case len(addrs) == 0:
		return errors.New("--address is required (repeat it for more)")
	case from < 0 || from > 1<<31-1 || to > 1<<31-1 || to < -1 || (to >= 0 && to < from):
		return fmt.Errorf("--from %d --to %d: want 0 <= from <= to", from, to)
	case f.mode == "bip37" && set["checkpoint"]:
		return errors.New("--checkpoint applies to --mode bip157 only")
	case f.mode == "bip157" && set["fp"]:
		return errors.New("--fp applies to --mode bip37 only")
	case set["fp"] && !(f.fp > 0 && f.fp <= 1):
		return fmt.Errorf("--fp %v: want a rate in (0, 1]", f.fp)
	}
	if f.net, err = spv.ParseNetwork(network); err != nil {
		return fmt.Errorf("--network %q: want %s", network, spv.NetworkNames())
	}
	for _, a := range addrs {
		addr, err := f.net.ParseAddress(a)
		if err != nil {
			return fmt.Errorf("--address: %w", err)
		}
		f.addrs = append(f.addrs, addr)
	}
	for _, o := range outpoints {
		op, err := parseOutPoint(o)
		if err != nil {
			return err
		}
		f.coins = append(f.coins, op)
	}
	if checkpoint != "" {
		f.checkpoint, err = parseCheckpoint(checkpoint)
	}
	return err
}

// parseOutPoint reads TXID:N, the txid in display hex, with wire's parser.
func parseOutPoint(s string) (wire.OutPoint, error) {
	op, err := wire.NewOutPointFromString(s)
	if err != nil {
		return wire.OutPoint{}, fmt.Errorf("--outpoint %q: %v (want TXID:N, the txid as 64 hex digits, N from 0 to 4294967295)", s, err)
	}
	return *op, nil
}

// parseCheckpoint reads HEIGHT:FILTERHEADER, the header in display hex.
func parseCheckpoint(s string) (*gcs.Checkpoint, error) {
	height, header, ok := strings.Cut(s, ":")
	h, err := strconv.ParseUint(height, 10, 31)
	if !ok || err != nil {
		return nil, fmt.Errorf("--checkpoint %q: want HEIGHT:FILTERHEADER", s)
	}
	fh, err := chainhash.NewHashFromStr(header)
	if err != nil || len(header) != chainhash.MaxHashStringSize {
		return nil, fmt.Errorf("--checkpoint %q: filter header %q: want 64 hex digits", s, header)
	}
	return &gcs.Checkpoint{Height: uint32(h), Header: *fh}, nil
}
