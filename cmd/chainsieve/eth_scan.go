package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
)

const ethScanSynopsis = `[--rpc URL] [--address ADDR]... [--topics JSON] [--event SIG] [--from BLOCK] [--to BLOCK]
       [--anchor BLOCK|HASH|NUMBER:HASH] [--confirm-rpc URL]... [--confirm-min K]
       [--beacon-api URL|demo [--checkpoint ROOT] [--beacon-chain NAME|--beacon-config FILE]]
       [--index DIR] [--verify full|bloom-untrusted|none] [--prove-tx=false] [--json|--csv]
       [--out FILE [--resume]] [--stats FILE]

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

A run always prints the whole answer. A scan written to a file (--out FILE,
or >> FILE) and stopped, however, continues with the same command and
--resume: the file then holds exactly the uninterrupted output.`

// ethScanFlags are the parsed flags of eth scan.
type ethScanFlags struct {
	rpc, topics, eventSig, index, verify string
	addresses                            []common.Address
	blocks                               anchorFlags
	asJSON, asCSV, resume                bool
	out                                  string // --out FILE
	command                              string // the flags that shape the answer (commandKey)
	concurrency, batch, retries          int
	timeout                              time.Duration
	stats                                string // --stats FILE
}

func ethScan(ctx context.Context, e *env, args []string) int {
	f, code, ok := parseEthScanFlags(e, args)
	if !ok {
		return code
	}
	q, ev, err := f.query()
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
	cfg.Client.Timeout, cfg.Client.Retry.Attempts = f.timeout, f.retries
	return runScan(ctx, e, cfg, ev, f, out)
}

func parseEthScanFlags(e *env, args []string) (*ethScanFlags, int, bool) {
	f := &ethScanFlags{}
	fs := newFlags(e, "eth scan", ethScanSynopsis)
	fs.StringVar(&f.rpc, "rpc", e.getenv("ETH_RPC_URL"), "JSON-RPC endpoint over HTTP(S) (default $ETH_RPC_URL; none: the embedded demo chain)")
	fs.Func("address", "contract address to match (repeatable: any of them)", func(s string) error {
		if !common.IsHexAddress(s) || !strings.HasPrefix(s, "0x") || len(s) != 42 {
			return fmt.Errorf("%q is not a 0x-prefixed 20-byte address", s)
		}
		f.addresses = append(f.addresses, common.HexToAddress(s))
		return nil
	})
	fs.StringVar(&f.topics, "topics", "", `topics array exactly as eth_getLogs takes it, e.g. '[null, ["0x…","0x…"]]' (null: any)`)
	fs.StringVar(&f.eventSig, "event", "", `event declaration, e.g. 'Transfer(address indexed from,address indexed to,uint256 value)': sets topic 0 and decodes the arguments`)
	f.blocks.register(fs, e)
	fs.StringVar(&f.index, "index", "", "directory of the persistent header index (default: chainsieve/eth-index under the user cache directory)")
	fs.StringVar(&f.verify, "verify", "full", "full; bloom-untrusted (fetch every block's receipts, check only the receipts root: for chains with wrong blooms); none (believe the node)")
	fs.BoolVar(&f.asJSON, "json", false, "one eth_getLogs log object per line on stdout (decoded --event arguments in \"args\")")
	fs.StringVar(&f.stats, "stats", "", "write the run's measurements as JSON to `FILE` (the schema of btc scan --stats; report privacy --measured reads it)")
	fs.BoolVar(&f.asCSV, "csv", false, "RFC 4180 CSV on stdout: one header row, a row per log (decoded --event arguments as args.NAME columns)")
	fs.StringVar(&f.out, "out", "", "write the logs to `FILE` (created or emptied) instead of stdout: a stopped run can then be resumed")
	fs.BoolVar(&f.resume, "resume", false, "continue the stopped run of this same command whose output is --out FILE, or stdout appended to a file (>> FILE)")
	fs.IntVar(&f.concurrency, "concurrency", 4, "requests in flight")
	fs.IntVar(&f.batch, "batch", 500, "most headers per request (shrinks when the provider refuses)")
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "per HTTP request, before a retry")
	fs.IntVar(&f.retries, "retries", 8, "attempts per request on timeouts, 429s, 5xx and lost connections (waits double from 0.2 s to 5 s)")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return nil, code, false
	}
	if len(pos) > 0 {
		return nil, usageError(e, "eth scan", "unexpected argument %q", pos[0]), false
	}
	f.command = commandKey(fs, args)
	if f.asJSON && f.asCSV {
		return nil, usageError(e, "eth scan", "--json and --csv exclude each other"), false
	}
	if f.rpc != "" && f.blocks.from == nil {
		return nil, usageError(e, "eth scan", "--from is required with --rpc (a scan from genesis reads every header)"), false
	}
	if f.rpc != "" {
		if u, err := url.Parse(f.rpc); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, usageError(e, "eth scan", "--rpc %q is not an http(s) URL", f.rpc), false
		}
	}
	if f.concurrency < 1 || f.batch < 1 || f.retries < 1 {
		return nil, usageError(e, "eth scan", "--concurrency, --batch and --retries must be at least 1"), false
	}
	if err := f.blocks.check(f.rpc); err != nil {
		return nil, usageError(e, "eth scan", "%v", err), false
	}
	return f, 0, true
}

// query builds the filter from --address, --topics and --event.
func (f *ethScanFlags) query() (ethlogs.Query, *event.Event, error) {
	q := ethlogs.Query{Addresses: f.addresses}
	if f.topics != "" {
		if err := jsonFlag("topics", f.topics); err != nil {
			return q, nil, err
		}
		parsed, err := ethlogs.ParseQuery([]byte(`{"topics":` + f.topics + `}`))
		if err != nil {
			return q, nil, fmt.Errorf("--topics: %v", err)
		}
		q.Topics = parsed.Topics
	}
	if f.eventSig == "" {
		return q, nil, nil
	}
	ev, err := event.Parse(f.eventSig)
	if err != nil {
		return q, nil, fmt.Errorf("--event: %v", err)
	}
	if len(q.Topics) == 0 {
		q.Topics = [][]common.Hash{nil}
	}
	if len(q.Topics[0]) > 0 && (len(q.Topics[0]) != 1 || q.Topics[0][0] != ev.Topic()) {
		return q, nil, fmt.Errorf("--topics position 0 conflicts with --event %s (topic %s)", ev.Signature(), ev.Topic())
	}
	q.Topics[0] = []common.Hash{ev.Topic()}
	return q, ev, nil
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

func hexHash(s string) (common.Hash, error) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || len(h) != 64 {
		return common.Hash{}, fmt.Errorf("%q is not a 0x-prefixed 32-byte hash", s)
	}
	return common.HexToHash(s), nil
}

// demoQuery is the demo's default question: every Transfer of its DEMO
// token.
func demoQuery(chain *demo.Chain) (ethlogs.Query, *event.Event) {
	ev, _ := event.Parse(demo.Transfer)
	return ethlogs.Query{Addresses: []common.Address{chain.Contracts.Token}, Topics: [][]common.Hash{{ev.Topic()}}}, ev
}

// describeQuery writes a query as the flags that ask it.
func describeQuery(q ethlogs.Query, ev *event.Event) string {
	var parts []string
	for _, a := range q.Addresses {
		parts = append(parts, "--address "+a.Hex())
	}
	topics := q.Topics
	if ev != nil {
		parts = append(parts, "--event '"+ev.String()+"'")
		topics = append([][]common.Hash{nil}, topics[1:]...)
	}
	if len(topics) > 0 && (ev == nil || len(topics) > 1) {
		b, _ := ethlogs.Query{Topics: topics}.MarshalJSON()
		parts = append(parts, "--topics '"+strings.TrimSuffix(strings.TrimPrefix(string(b), `{"topics":`), "}")+"'")
	}
	if len(parts) == 0 {
		return "every log"
	}
	return strings.Join(parts, " ")
}
