package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37/bloomscan"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/lightclient"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/descriptor"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

const btcScanSynopsis = `--network NETWORK (--descriptor DESC | --address ADDR)...
       [--peer HOST:PORT]... [--store DIR] [--birthday HEIGHT] [--to HEIGHT | --follow]
       [--confirmations N] [--mode bip157|bip37] [--gap N] [--outpoint TXID:N]...
       [--checkpoint HEIGHT:FILTERHEADER] [--fp RATE] [--json] [--stats FILE]

A Bitcoin light client for a watch-only wallet: finds the transactions that
pay the wallet's descriptors and addresses, or spend its coins, from block
--birthday to --to (default: the peers' tip), and with --follow stays at the
tip, printing new blocks' transactions as they come and the transactions of
blocks a reorganisation removes. It ends with the wallet's coins and balance.

Peers: every --peer given, or the network's DNS seeds when none is (mainnet,
testnet, testnet4, signet; regtest has none). Block headers are verified
(proof of work, difficulty, checkpoints) into a store that later runs reuse
(--store, default under the user cache directory), starting at the embedded
anchor below --birthday. The store also keeps the wallet (its transactions,
coins, used addresses and the blocks scanned) and the bans: a later run of
the same wallet prints only what is new since, and reports a
reorganisation that happened meanwhile as removed transactions. Then:

  bip157  (default) filter headers are compared across two peers (one if
          exactly one --peer is given) and stored only when they agree;
          filters are checked against them, and only the blocks whose
          filter matches are downloaded and checked against their filter.
          A peer proven to lie is banned, with the reason on stderr.
  bip37   a Bloom filter of the wallet (false-positive rate --fp) is loaded
          into one peer at a time, and its merkle blocks are verified. The
          peer learns the wallet's addresses up to --fp and can hide
          payments. The filter's tweak and size are kept with the wallet,
          so that a restarted wallet loads the same bits.

Output: one line (--json: one object) per wallet transaction, in block
order; a transaction of a block that left the chain is printed again marked
removed ("removed": true) before the new branch's. --confirmations N prints a
block once it has N confirmations as Bitcoin Core counts them (the block and
N-1 on top; 1, the default, prints at once), so a reorganisation of fewer
than N blocks is never printed. The wallet's coins and balance follow on
stderr (--json: "utxo" and "balance" records on stdout) at the end, or when
interrupted (Ctrl-C) in follow mode.

Give with --outpoint the coins received before --birthday, so that their
spends are found. Exit 0: the range was scanned, or follow mode was
interrupted; 1: the scan failed (the message names the block, peer or store);
2: usage.`

// btcScanFlags are the parsed flags of btc scan.
type btcScanFlags struct {
	net             *spv.Network
	peers           []string
	mode            lightclient.Mode
	storeDir, stats string
	addrs           []address.Address
	descs           []*descriptor.Descriptor
	coins           []wire.OutPoint
	gap             uint32
	birthday, to    int32
	follow          bool
	confirmations   int32 // as Bitcoin Core counts them: 1 is the block alone
	checkpoint      *gcs.Checkpoint
	fp              float64
	asJSON          bool
}

// config is the client's configuration for the flags.
func (f *btcScanFlags) config() lightclient.Config {
	return lightclient.Config{Network: f.net, Mode: f.mode, Peers: f.peers, Store: f.storeDir,
		Birthday: f.birthday, To: max(f.to, 0), Checkpoint: f.checkpoint,
		Descriptors: f.descs, Addresses: f.addrs, Coins: f.coins, Gap: f.gap,
		Follow: f.follow, Confirmations: f.confirmations - 1, FPRate: f.fp}
}

func btcScan(ctx context.Context, e *env, args []string) int {
	f, code, ok := parseBTCScanFlags(e, args)
	if !ok {
		return code
	}
	began := time.Now()
	if f.storeDir == "" {
		fmt.Fprintf(e.stderr, "btc scan: no user cache directory in the environment: headers and the wallet are kept in memory for this run (--store DIR keeps them)\n")
	}
	c, err := lightclient.New(f.config())
	if err != nil { // the flags' checks should have caught it
		return usageError(e, "btc scan", "%v", err)
	}
	out := newBTCScanOutput(e, f, c, began)
	if err := c.Start(ctx); err != nil {
		if f.storeDir != "" {
			err = fmt.Errorf("--store %s: %w", f.storeDir, err)
		}
		return out.fail(err, time.Since(began))
	}
	if r, ok := c.Resumed(); ok {
		out.resumed = &r
		out.reported = r.Height
		fmt.Fprintf(e.stderr, "btc scan: the wallet kept in %s resumes after block %d: printing what is new (its coins and balance at the end count everything)\n",
			f.storeDir, r.Height)
	}
	runErr := out.events()
	runErr = errors.Join(runErr, c.Stop())
	interrupted := ctx.Err() != nil
	out.finish()
	// The wallet's coins and balance are shown only for a range scanned to
	// its end, or in follow mode once the client caught up with the tip:
	// a partial ledger would pass for the wallet's.
	complete := runErr == nil && (!interrupted || f.follow && out.caughtUp)
	if err := out.summary(time.Since(began), complete); err != nil {
		runErr = errors.Join(runErr, err)
	}
	if runErr != nil {
		return out.fail(runErr, time.Since(began))
	}
	if interrupted && !f.follow {
		return out.fail(fmt.Errorf("interrupted after block %d: the range was not scanned to its end", out.reported), time.Since(began))
	}
	if f.stats != "" {
		if err := writeBTCStats(f.stats, out, time.Since(began), nil); err != nil {
			fmt.Fprintf(e.stderr, "chainsieve btc scan: --stats: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// fail reports the run's error, with the --stats file that records it.
func (o *btcScanOutput) fail(err error, total time.Duration) int {
	if o.f.stats != "" {
		if werr := writeBTCStats(o.f.stats, o, total, err); werr != nil {
			fmt.Fprintf(o.e.stderr, "chainsieve btc scan: --stats: %v\n", werr)
		}
	}
	fmt.Fprintf(o.e.stderr, "chainsieve btc scan: %s\n", peerText(err.Error()))
	return exitFailure
}

// listFlag collects the values of a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func parseBTCScanFlags(e *env, args []string) (*btcScanFlags, int, bool) {
	fs := newFlags(e, "btc scan", btcScanSynopsis)
	var peers, addrs, descs, outpoints listFlag
	network := fs.String("network", "", "the `NETWORK`: "+spv.NetworkNames()+" (required)")
	fs.Var(&peers, "peer", "a peer to connect to, `HOST:PORT` (repeatable; none: the network's DNS seeds)")
	mode := fs.String("mode", "bip157", "the filtering `MODE`: bip157 (compact filters) or bip37 (Bloom filters)")
	storeDir := fs.String("store", "", "the `DIR` that keeps the headers, the wallet and the bans between runs (default: chainsieve/btc/NETWORK under the user cache directory)")
	fs.Var(&descs, "descriptor", "a wallet descriptor `DESC`: pkh, wpkh, sh(wpkh) or tr of a public key or an xpub/tpub with /<0;1>/* (repeatable)")
	fs.Var(&addrs, "address", "an address `ADDR` of the wallet (repeatable)")
	fs.Var(&outpoints, "outpoint", "a coin the wallet received before --birthday, `TXID:N` (repeatable)")
	gap := fs.Uint("gap", 0, fmt.Sprintf("the descriptors' gap limit: `N` unused addresses watched past the last paid one (default %d)", wallet.DefaultGap))
	birthday := fs.Int("birthday", 0, "first block `HEIGHT` the wallet may have transactions at")
	from := fs.Int("from", 0, "the same as --birthday `HEIGHT` (the earlier name)")
	to := fs.Int("to", 0, "last block `HEIGHT` to scan (default: the peers' tip; not with --follow)")
	follow := fs.Bool("follow", false, "stay at the tip: print new blocks' transactions, and removed ones on a reorganisation, until interrupted")
	confirmations := fs.Int("confirmations", 1, "print a block once it has `N` confirmations as Bitcoin Core counts them (the block itself and N-1 on top); the balance counts coins this deep as confirmed")
	checkpoint := fs.String("checkpoint", "", "a trusted filter header, `HEIGHT:FILTERHEADER` in display hex (bip157)")
	fp := fs.Float64("fp", 0, fmt.Sprintf("the Bloom filter's false-positive `RATE` (bip37; default %v)", bloomscan.DefaultFPRate))
	asJSON := fs.Bool("json", false, "one JSON object per line on stdout: transactions, then utxo and balance records")
	stats := fs.String("stats", "", "write the run's measurements as JSON to `FILE`")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return nil, code, false
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	f := &btcScanFlags{peers: peers, storeDir: *storeDir, stats: *stats, follow: *follow, fp: *fp, asJSON: *asJSON}
	// The user cache directory comes from the environment (os.UserCacheDir
	// reads these); with none, as in tests that call run, the headers stay
	// in memory for the run.
	hasCache := e.getenv("XDG_CACHE_HOME") != "" || e.getenv("HOME") != "" || e.getenv("LocalAppData") != ""
	in := btcScanInput{pos: pos, set: set, hasCache: hasCache, network: *network, mode: *mode, birthday: *birthday, from: *from, to: *to,
		gap: *gap, confirmations: *confirmations, addrs: addrs, descs: descs, outpoints: outpoints, checkpoint: *checkpoint}
	if err := f.check(in); err != nil {
		return nil, usageError(e, "btc scan", "%v", err), false
	}
	return f, 0, true
}

// btcScanInput is the flags' text, before check converts it.
type btcScanInput struct {
	pos                               []string
	set                               map[string]bool
	hasCache                          bool // the environment names a user cache directory
	network, mode, checkpoint         string
	birthday, from, to, confirmations int
	gap                               uint
	addrs, descs, outpoints           []string
}

// check validates and converts the flags; every error is a usage error,
// found before any network work.
func (f *btcScanFlags) check(in btcScanInput) error {
	if err := f.checkShape(in); err != nil {
		return err
	}
	var err error
	if f.net, err = spv.ParseNetwork(in.network); err != nil {
		return fmt.Errorf("--network %q: want %s", in.network, spv.NetworkNames())
	}
	if len(f.peers) == 0 && len(f.net.Params.DNSSeeds) == 0 {
		return fmt.Errorf("--peer HOST:PORT is required on %s, which has no DNS seeds", f.net.Name())
	}
	for _, p := range f.peers {
		if _, _, err := splitHostPort(p); err != nil {
			return fmt.Errorf("--peer %q: %v", p, err)
		}
	}
	if !in.set["store"] && in.hasCache {
		if f.storeDir, err = store.DefaultDir(f.net.Name()); err != nil {
			return fmt.Errorf("--store: no default directory (%v): give one", err)
		}
	}
	for _, a := range in.addrs {
		addr, err := f.net.ParseAddress(a)
		if err != nil {
			return fmt.Errorf("--address: %w", err)
		}
		f.addrs = append(f.addrs, addr)
	}
	ranged := false
	for _, s := range in.descs {
		d, err := descriptor.Parse(s, f.net.Params)
		if err != nil {
			return fmt.Errorf("--descriptor %q: %w", s, err)
		}
		f.descs = append(f.descs, d)
		ranged = ranged || d.Ranged()
	}
	if in.set["gap"] && !ranged {
		return errors.New("--gap applies to ranged descriptors (ending in /*) only")
	}
	for _, o := range in.outpoints {
		op, err := parseOutPoint(o)
		if err != nil {
			return err
		}
		f.coins = append(f.coins, op)
	}
	if in.checkpoint != "" {
		f.checkpoint, err = parseCheckpoint(in.checkpoint)
	}
	return err
}

// checkShape checks what needs no parsing of values: which flags go
// together, and the ranges of numbers.
func (f *btcScanFlags) checkShape(in btcScanInput) error {
	switch in.mode {
	case "bip157":
		f.mode = lightclient.BIP157
	case "bip37":
		f.mode = lightclient.BIP37
	default:
		return fmt.Errorf("--mode %q: want bip157 or bip37", in.mode)
	}
	birthday := in.birthday
	if in.set["from"] {
		if in.set["birthday"] && in.from != in.birthday {
			return fmt.Errorf("--from %d and --birthday %d: give one", in.from, in.birthday)
		}
		birthday = in.from
	}
	switch {
	case len(in.pos) > 0:
		return fmt.Errorf("unexpected argument %q", in.pos[0])
	case in.network == "":
		return fmt.Errorf("--network is required (%s)", spv.NetworkNames())
	case len(in.addrs) == 0 && len(in.descs) == 0:
		return errors.New("a wallet is required: --descriptor DESC or --address ADDR (repeat them for more)")
	case birthday < 0 || birthday > 1<<31-1:
		return fmt.Errorf("--birthday %d: want a block height", birthday)
	case in.set["to"] && (in.to < 1 || in.to > 1<<31-1 || in.to < birthday):
		return fmt.Errorf("--birthday %d --to %d: want 0 <= birthday <= to, to at least 1", birthday, in.to)
	case f.follow && in.set["to"]:
		return errors.New("--to ends the scan, --follow never does: give one")
	case in.confirmations < 1 || in.confirmations > spv.DefaultWindow:
		return fmt.Errorf("--confirmations %d: want 1 (print at once) to %d", in.confirmations, spv.DefaultWindow)
	case in.set["gap"] && (in.gap < 1 || in.gap > wallet.MaxGap):
		return fmt.Errorf("--gap %d: want 1 to %d", in.gap, wallet.MaxGap)
	case f.mode == lightclient.BIP37 && in.set["checkpoint"]:
		return errors.New("--checkpoint applies to --mode bip157 only")
	case f.mode == lightclient.BIP157 && in.set["fp"]:
		return errors.New("--fp applies to --mode bip37 only")
	case in.set["fp"] && !(f.fp > 0 && f.fp <= 1):
		return fmt.Errorf("--fp %v: want a rate in (0, 1]", f.fp)
	case in.set["store"] && f.storeDir == "":
		return errors.New("--store: want a directory")
	}
	f.birthday, f.to, f.confirmations, f.gap = int32(birthday), int32(in.to), int32(in.confirmations), uint32(in.gap)
	return nil
}

// splitHostPort checks HOST:PORT, the port a number from 1 to 65535.
func splitHostPort(s string) (string, uint16, error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, errors.New("want HOST:PORT")
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 || host == "" {
		return "", 0, errors.New("want HOST:PORT, the port from 1 to 65535")
	}
	return host, uint16(n), nil
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
