package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

const ethScanSynopsis = `[--rpc URL] [--address ADDR]... [--topics JSON] [--from BLOCK] [--to BLOCK]
       [--event SIG|NAME [--arg NAME=VALUE[,VALUE...]]...] [--abi FILE]
       [--anchor BLOCK|HASH|NUMBER:HASH] [--confirm-rpc URL]... [--confirm-min K]
       [--beacon-api URL|demo [--checkpoint ROOT] [--beacon-chain NAME|--beacon-config FILE]]
       [--index DIR] [--verify full|bloom-untrusted|none] [--prove-tx=false] [--json|--csv]
       [--out FILE [--resume]] [--stats FILE] [--follow [--confirmations N] [--poll D]]
       [SIG [VALUE|null ...] | TOPIC0 [TOPIC|null ...]]

Finds the logs matching an eth_getLogs-style filter in a block range: it reads
the headers in batches, verifies their hashes and parent links back from the
anchor, keeps them in a persistent bloom index, fetches receipts only for the
blocks whose bloom passes, verifies them against the header, proves each
transactionHash against the block's transactions, and prints the matching
logs in block order. Without --rpc and ETH_RPC_URL it scans the embedded
demo chain, served by an in-process go-ethereum node: no network.

A BLOCK is a number (decimal or 0x), earliest, latest, safe, finalized, or a
tag less N (latest-100). The anchor is the node's finalized block unless
--anchor or --beacon-api says otherwise; --confirm-rpc asks other endpoints
to confirm it (docs/eth-scan.md has the trust table).

As with cast logs, the event and the values of its indexed parameters may
follow the flags: SIG then one VALUE (or null: any) per indexed parameter,
or a 32-byte topic 0 then raw topics. --arg to=0x… asks by name. A value
list VALUE,VALUE is an OR-list. docs/eth-scan.md, "Query forms".

--follow keeps going after the range: each new head of the node (a newHeads
subscription over ws:// and IPC, a poll every --poll over http) is verified
as a chain linked to the last block printed, and its logs printed once they
have --confirmations blocks on top. A reorganisation prints the logs of the
dropped blocks again, marked removed ("removed": true, the CSV's removed
column, the table's STATUS), before the new branch's, as eth_subscribe("logs")
does. Ctrl-C ends it (exit 0). docs/eth-scan.md, "Follow".

A run always prints the whole answer. A scan written to a file (--out FILE,
or >> FILE) and stopped, however, continues with the same command and
--resume: the file then holds exactly the uninterrupted output.`

// ethScanFlags are the parsed flags of eth scan.
type ethScanFlags struct {
	rpc, index, verify          string
	queryFlags                  // --address, --topics, --event, --arg, --abi, SIG [VALUE...]
	blocks                      anchorFlags
	asJSON, asCSV, resume       bool
	out                         string // --out FILE
	command                     string // the flags that shape the answer (commandKey)
	concurrency, batch, retries int
	timeout                     time.Duration
	stats                       string // --stats FILE
	follow                      bool
	confirmations               int
	poll                        time.Duration
}

func ethScan(ctx context.Context, e *env, args []string) int {
	f, code, ok := parseEthScanFlags(e, args)
	if !ok {
		return code
	}
	q, ev, err := f.query(e)
	if err != nil {
		return usageError(e, "eth scan", "%v", err)
	}
	cfg, err := f.config(q)
	if err != nil {
		return usageError(e, "eth scan", "%v", err)
	}
	out, resume, err := openEthOutput(e.stdout, f.out, f.resume, cfg.IndexDir, f.command)
	if err != nil {
		var oe *outputError
		if errors.As(err, &oe) && oe.code == exitUsage {
			return usageError(e, "eth scan", "%v", err)
		}
		fmt.Fprintf(e.stderr, "chainsieve eth scan: %v\n", err)
		return exitFailure
	}
	if resume != nil && resume.Done() {
		fmt.Fprintf(e.stderr, "chainsieve eth scan: %s already holds the whole answer, %d logs of blocks %d to %d: nothing to append\n", out.name, resume.Logs, resume.From, resume.To)
		if err := out.close(); err != nil {
			fmt.Fprintf(e.stderr, "chainsieve eth scan: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	cfg.Resume = resume
	if f.rpc == "" {
		chain, err := startDemo()
		if err != nil {
			out.close()
			fmt.Fprintf(e.stderr, "chainsieve eth scan: %v\n", err)
			return exitFailure
		}
		defer chain.Close()
		if len(q.Addresses) == 0 && len(q.Topics) == 0 {
			cfg.Query, ev = demoQuery(chain)
		}
		f.rpc = chain.URL
		fmt.Fprintf(e.stderr, "no --rpc and no ETH_RPC_URL: scanning the embedded demo chain, %d blocks served by an in-process go-ethereum node at %s (no network)\n", chain.Head+1, chain.URL)
		fmt.Fprintf(e.stderr, "query: %s\n", describeQuery(cfg.Query, ev))
		if f.blocks.isDemo() && resume == nil { // a resumed scan's anchor is pinned
			stop, err := f.blocks.startDemoBeacon(ctx, e, chain, &cfg)
			if err != nil {
				out.close()
				fmt.Fprintf(e.stderr, "chainsieve eth scan: --beacon-api demo: %v\n", err)
				return exitFailure
			}
			defer stop()
		}
	}
	cfg.Client = scan.NewClient(f.rpc)
	defer cfg.Client.Close() // a connection dialled but never used holds the demo node's shutdown for 5 s
	cfg.Client.Timeout, cfg.Client.Retry.Attempts = f.timeout, f.retries
	return runScan(ctx, e, cfg, ev, f, out)
}

func parseEthScanFlags(e *env, args []string) (*ethScanFlags, int, bool) {
	f := &ethScanFlags{}
	fs := newFlags(e, "eth scan", ethScanSynopsis)
	fs.StringVar(&f.rpc, "rpc", e.getenv("ETH_RPC_URL"), "JSON-RPC endpoint: http(s)://, ws(s):// or the path of a node's IPC socket (default $ETH_RPC_URL; none: the embedded demo chain)")
	f.queryFlags.register(fs)
	f.blocks.register(fs, e)
	fs.StringVar(&f.index, "index", "", "directory of the persistent header index (default: chainsieve/eth-index under the user cache directory)")
	fs.StringVar(&f.verify, "verify", "full", "full; bloom-untrusted (fetch every block's receipts, check only the receipts root: for chains with wrong blooms); none (believe the node)")
	fs.BoolVar(&f.asJSON, "json", false, "one eth_getLogs log object per line on stdout (decoded --event arguments in \"args\")")
	fs.StringVar(&f.stats, "stats", "", "write the run's measurements as JSON to `FILE` (the schema of btc scan --stats; report privacy --measured reads it)")
	fs.BoolVar(&f.asCSV, "csv", false, "RFC 4180 CSV on stdout: one header row, a row per log (decoded --event arguments as args.NAME columns)")
	fs.StringVar(&f.out, "out", "", "write the logs to `FILE` (created or emptied) instead of stdout: a stopped run can then be resumed")
	fs.BoolVar(&f.resume, "resume", false, "continue the stopped run of this same command whose output is --out FILE, or stdout appended to a file (>> FILE)")
	fs.BoolVar(&f.follow, "follow", false, "after the range, follow the node's new heads: print their logs, and a reorganisation's removed logs, until Ctrl-C")
	fs.IntVar(&f.confirmations, "confirmations", 0, "with --follow: print a block's logs once `N` blocks are on top of it (the range then ends N blocks below the head)")
	fs.DurationVar(&f.poll, "poll", 2*time.Second, "with --follow over http: how often the node is asked for its head")
	fs.IntVar(&f.concurrency, "concurrency", 4, "requests in flight")
	fs.IntVar(&f.batch, "batch", 500, "most headers per request (shrinks when the provider refuses)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "per HTTP request, before a retry")
	fs.IntVar(&f.retries, "retries", 8, "attempts per request on timeouts, 429s, 5xx and lost connections (waits double from 0.2 s to 5 s)")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return nil, code, false
	}
	f.positional = pos
	f.command = commandKey(fs, args)
	if f.asJSON && f.asCSV {
		return nil, usageError(e, "eth scan", "--json and --csv exclude each other"), false
	}
	if f.rpc != "" && f.blocks.from == nil {
		return nil, usageError(e, "eth scan", "--from is required with --rpc (a scan from genesis reads every header)"), false
	}
	if f.rpc != "" {
		if err := scan.CheckEndpoint(f.rpc); err != nil {
			return nil, usageError(e, "eth scan", "--rpc %v", err), false
		}
	}
	if err := f.checkFollow(fs); err != nil {
		return nil, usageError(e, "eth scan", "%v", err), false
	}
	if f.concurrency < 1 || f.batch < 1 || f.retries < 1 {
		return nil, usageError(e, "eth scan", "--concurrency, --batch and --retries must be at least 1"), false
	}
	if err := f.blocks.check(f.rpc); err != nil {
		return nil, usageError(e, "eth scan", "%v", err), false
	}
	return f, 0, true
}

// checkFollow refuses follow flags that make no sense: --confirmations
// or --poll without --follow, negative values, a numeric --to (a follow's
// range ends at the head).
func (f *ethScanFlags) checkFollow(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case !f.follow && (set["confirmations"] || set["poll"]):
		return errors.New("--confirmations and --poll need --follow")
	case f.confirmations < 0:
		return fmt.Errorf("--confirmations %d: a number of blocks, 0 or more", f.confirmations)
	case f.poll <= 0:
		return fmt.Errorf("--poll %v: a positive duration", f.poll)
	case f.follow && f.blocks.to != nil && f.blocks.to.Tag == "":
		return fmt.Errorf("--follow with --to %s: a follow goes on after the range, whose end is then a tag (latest, safe, finalized, latest-N) or nothing", f.blocks.to)
	}
	return nil
}

// config turns the range, anchor, index and mode flags into a scan config.
func (f *ethScanFlags) config(q ethlogs.Query) (scan.Config, error) {
	cfg := scan.Config{Query: q, IndexDir: f.index, Concurrency: f.concurrency, HeaderBatch: f.batch}
	var err error
	if cfg.Mode, err = scan.ParseMode(f.verify); err != nil {
		return cfg, errors.New(strings.TrimPrefix(err.Error(), "scan: "))
	}
	f.blocks.apply(&cfg, f.timeout, f.retries)
	if cfg.IndexDir == "" {
		if cfg.IndexDir, err = scan.DefaultIndexDir(); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// hexHash reads a 0x-prefixed 32-byte hash; common.HexToHash would read a
// typo (a non-hex digit) as some other hash without a word.
func hexHash(s string) (common.Hash, error) {
	b, err := hexutil.Decode(s)
	if err != nil || len(b) != common.HashLength {
		return common.Hash{}, fmt.Errorf("%q is not a 0x-prefixed 32-byte hash", s)
	}
	return common.Hash(b), nil
}
