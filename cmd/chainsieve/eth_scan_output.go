package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/core/untrusted"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// runScan drives the scan: logs to the output as they are verified, the
// plan and the summary to stderr, a progress line when stderr is a
// terminal. The exit code is 0 only when the whole answer was written.
func runScan(ctx context.Context, e *env, cfg scan.Config, ev *eventSet, f *ethScanFlags, out *ethOutput) int {
	w := logWriter{out: out.buf, ev: ev, format: f.format(), header: cfg.Resume != nil && cfg.Resume.Logs > 0, status: f.follow}
	bar := &ethProgress{line: progress.New(e.stderr)}
	cfg.Emit = func(logs []*types.Log) error {
		bar.clear()
		for _, l := range logs {
			if err := w.write(l); err != nil {
				return out.fail(err)
			}
		}
		err := out.flush()
		e.pause("emitted")
		return err
	}
	cfg.Checkpoint = func(c scan.Checkpoint) error {
		if c.Done() {
			e.pause("done") // every log written, not yet committed
		}
		err := out.checkpoint(c)
		e.pause("checkpoint")
		return err
	}
	cfg.Started = func(st scan.Stats) { printPlan(e.stderr, cfg, st, out) }
	cfg.Progress = func(p scan.Progress) {
		bar.update(p)
		if p.Phase == "headers" && p.Done >= p.Total {
			e.pause("headers") // the index syncs next
		}
	}
	cfg.Waiting = func(held *index.LockedError) {
		bar.notice(e.stderr, fmt.Sprintf("%v: waiting for it (Ctrl-C to stop)", held))
	}
	// One stderr line per retried request: what failed, attempt n of m,
	// the next wait.
	cfg.Client.OnRetry = func(r scan.Retry) { bar.notice(e.stderr, untrusted.Line(r.String(), maxPeerText)) }
	var st scan.Stats
	var err error
	if f.follow {
		st, err = scan.Follow(ctx, cfg, scan.FollowOptions{Confirmations: uint64(f.confirmations), Poll: f.poll,
			Head: func(h scan.FollowHead) { e.pause("head") }})
		if errors.Is(err, context.Canceled) && st.Following {
			err = nil // Ctrl-C is how a follow ends: what it printed is whole to its last head
		}
	} else {
		st, err = scan.Run(ctx, cfg)
	}
	e.pause("scanned")
	bar.clear()
	if ferr := out.finish(); err == nil {
		err = ferr
	} else if ferr != nil && !errors.Is(err, ferr) {
		fmt.Fprintf(e.stderr, "chainsieve eth scan: %v\n", ferr)
	}
	printSummary(e.stderr, cfg, st, err)
	if f.follow && st.Following {
		fmt.Fprintf(e.stderr, "follow: %d heads of the node handled, %d reorganisations, %d logs printed removed; every log of blocks up to %d printed\n", st.Heads, st.Reorgs, st.Removed, st.Next-1)
	}
	if writeEthStats(e, f.stats, cfg, st, err) {
		return exitFailure
	}
	if err == nil {
		return exitOK
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(e.stderr, "chainsieve eth scan: interrupted")
	} else {
		fmt.Fprintf(e.stderr, "chainsieve eth scan: %v", err)
	}
	fmt.Fprintf(e.stderr, "\nchainsieve eth scan: %s\n", stoppedAdvice(st, out))
	return exitFailure
}

// stoppedAdvice says what a stopped run wrote and how to get the rest:
// for a resumable file, what its record commits.
func stoppedAdvice(st scan.Stats, out *ethOutput) string {
	logs, next := st.ResumedLogs+st.Logs, st.Next
	if !st.Linked {
		next = st.From
	}
	if out.resumable() {
		logs, next = 0, 0
		if c := out.rec.Scan; c != nil {
			logs, next = c.Logs, c.Next
		}
	}
	if !out.resumable() {
		done := "no verified log was printed"
		if logs > 0 {
			done = fmt.Sprintf("%d verified logs were printed, all those of blocks up to %d", logs, next-1)
		}
		return done + "; run the command again for the whole answer (with --out FILE, a stopped run can be resumed)"
	}
	done := out.name + " holds no committed log"
	if logs > 0 {
		done = fmt.Sprintf("%s holds %d verified logs, all those of blocks up to %d", out.name, logs, next-1)
	}
	if out.size > out.rec.Size {
		done += fmt.Sprintf(", and after them %d bytes not committed, which --resume cuts", out.size-out.rec.Size)
	}
	if out.path != "" {
		return done + "; the same command with --resume appends the rest"
	}
	return done + "; the same command with --resume, appending to the same file (>> FILE), writes the rest"
}

func printPlan(w io.Writer, cfg scan.Config, st scan.Stats, out *ethOutput) {
	printAnchor(w, cfg, st)
	if st.Resumed {
		fmt.Fprintf(w, "resuming into %s: the stopped run wrote %d logs, all those before block %d; the anchor and the range are the stopped run's\n", out.name, st.ResumedLogs, st.From)
	}
	if st.From > st.To { // a follow resumed after its range
		fmt.Fprintf(w, "following the node's heads after block %d, verify %s\n", st.To, cfg.Mode)
		return
	}
	fmt.Fprintf(w, "blocks %d to %d, verify %s, index %s\n", st.From, st.To, cfg.Mode, st.Index)
}

// printSummary says what the run verified and printed: all of it for a
// complete scan; for a stopped one, only what is true of the part done,
// and nothing at all before the header chain was linked to the anchor
// (then nothing was verified or printed: the error says what happened).
func printSummary(w io.Writer, cfg scan.Config, st scan.Stats, runErr error) {
	if !st.Linked {
		return
	}
	fmt.Fprintf(w, "headers: %d in blocks %d to %d (%d fetched, %d from the index)",
		st.Blocks(), st.From, st.To, st.HeadersFetched, st.HeadersIndexed)
	if cfg.Mode != scan.None {
		fmt.Fprintf(w, "; hashes and parent links verified back from the anchor")
		if st.To > st.AnchorNumber {
			fmt.Fprintf(w, " and forward from it to block %d", st.To)
		}
	}
	fmt.Fprintln(w)
	if runErr != nil {
		if st.Next > st.From {
			fmt.Fprintf(w, "logs: %d printed, every one of blocks %d to %d, verified; blocks %d to %d not searched: the scan stopped\n", st.Logs, st.From, st.Next-1, st.Next, st.To)
		} else {
			fmt.Fprintf(w, "logs: none printed; blocks %d to %d not searched: the scan stopped\n", st.From, st.To)
		}
		fmt.Fprintf(w, "time: %.2f s; %d requests, %d calls, %d retries, %d split\n", st.Elapsed.Seconds(), st.Requests, st.Calls, st.Retries, st.Splits)
		return
	}
	what := "bloom candidates"
	if cfg.Mode == scan.BloomUntrusted {
		what = "blocks (bloom-untrusted: every block)"
	}
	fmt.Fprintf(w, "candidates: %d %s, %d with matches, %d logs; bloom false-positive rate %.1f%% of the blocks without a match\n",
		st.Candidates, what, st.Matched, st.Logs, 100*st.FalsePositiveRate())
	verified := map[scan.Mode]string{scan.Full: "verified against receiptsRoot and logsBloom", scan.BloomUntrusted: "verified against receiptsRoot", scan.None: "NOT verified (--verify=none)"}[cfg.Mode]
	per := ""
	if st.PerTransaction {
		per = ", one transaction at a time (no eth_getBlockReceipts)"
	}
	fmt.Fprintf(w, "receipts: %d of %d blocks fetched%s, %s\n", st.Candidates, st.Blocks(), per, verified)
	fmt.Fprintf(w, "bytes: %s fetched (headers %s, receipts %s); fetching every receipt ≈ %s\n",
		size(st.HeaderBytes+st.ReceiptBytes), size(st.HeaderBytes), size(st.ReceiptBytes), size(st.AllReceiptBytes()))
	fmt.Fprintf(w, "time: %.2f s, %.0f blocks/s; %d requests, %d calls, %d retries, %d split\n",
		st.Elapsed.Seconds(), float64(st.Blocks())/max(st.Elapsed.Seconds(), 1e-3), st.Requests, st.Calls, st.Retries, st.Splits)
	printAnchorSummary(w, cfg, st)
}

func size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// ethFormat is how eth scan prints logs.
type ethFormat int

const (
	formatTable ethFormat = iota
	formatJSON            // --json
	formatCSV             // --csv
)

func (f *ethScanFlags) format() ethFormat {
	switch {
	case f.asJSON:
		return formatJSON
	case f.asCSV:
		return formatCSV
	}
	return formatTable
}

// logWriter prints logs as eth_getLogs JSON objects, table rows or CSV
// records.
type logWriter struct {
	out    *bufio.Writer
	ev     *eventSet // nil: no decoding
	format ethFormat
	header bool        // the table's or the CSV's header row is printed
	status bool        // the table has a STATUS column (--follow): added or removed
	csv    *csv.Writer // --csv, from the first row
}

func (w *logWriter) write(l *types.Log) error {
	args, argErr := w.ev.decode(l)
	switch w.format {
	case formatJSON:
		return w.writeJSON(l, args, argErr)
	case formatCSV:
		return w.writeCSV(l, args, argErr)
	}
	if w.status {
		return w.writeStatusRow(l, args, argErr)
	}
	if !w.header {
		fmt.Fprintf(w.out, "%-8s %-5s %-5s %-42s  %-12s %s\n", "BLOCK", "TX", "LOG", "ADDRESS", "EVENT", "ARGUMENTS")
		w.header = true
	}
	_, err := fmt.Fprintf(w.out, "%-8d %-5d %-5d %-42s  %-12s %s\n", l.BlockNumber, l.TxIndex, l.Index, l.Address.Hex(), w.name(l), describeArgs(l, args, argErr))
	return err
}

// writeStatusRow is a table row of a follow: the STATUS column says
// whether the log was added or removed by a reorganisation.
func (w *logWriter) writeStatusRow(l *types.Log, args []event.Arg, argErr error) error {
	if !w.header {
		fmt.Fprintf(w.out, "%-8s %-5s %-5s %-7s %-42s  %-12s %s\n", "BLOCK", "TX", "LOG", "STATUS", "ADDRESS", "EVENT", "ARGUMENTS")
		w.header = true
	}
	status := "added"
	if l.Removed {
		status = "removed"
	}
	_, err := fmt.Fprintf(w.out, "%-8d %-5d %-5d %-7s %-42s  %-12s %s\n", l.BlockNumber, l.TxIndex, l.Index, status, l.Address.Hex(), w.name(l), describeArgs(l, args, argErr))
	return err
}

// writeJSON writes go-ethereum's own log JSON, which is eth_getLogs', with
// the decoded arguments added as "args" (or "argsError").
func (w *logWriter) writeJSON(l *types.Log, args []event.Arg, argErr error) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	if args != nil || argErr != nil {
		b = b[:len(b)-1]
		if argErr != nil {
			e, _ := json.Marshal(argErr.Error())
			b = append(append(b, `,"argsError":`...), e...)
		} else {
			b = append(b, `,"args":{`...)
			for i, a := range args {
				k, _ := json.Marshal(a.Name)
				v, _ := json.Marshal(a.Value)
				if i > 0 {
					b = append(b, ',')
				}
				b = append(append(append(b, k...), ':'), v...)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	b = append(b, '\n')
	_, err = w.out.Write(b)
	return err
}

func (w *logWriter) name(l *types.Log) string {
	switch {
	case len(l.Topics) == 0:
		return "(anonymous)"
	case w.ev.name(l) != "":
		return w.ev.name(l)
	}
	t := l.Topics[0].Hex()
	return t[:6] + "…" + t[62:]
}

func describeArgs(l *types.Log, args []event.Arg, err error) string {
	if err != nil {
		return "(" + err.Error() + ")"
	}
	if args == nil {
		parts := make([]string, 0, len(l.Topics))
		for _, t := range l.Topics[min(1, len(l.Topics)):] {
			parts = append(parts, t.Hex())
		}
		return strings.TrimSpace(strings.Join(parts, " ") + " data=" + clipHex(l.Data))
	}
	parts := make([]string, len(args))
	for i, a := range args {
		v := a.Value
		if a.Type == "string" {
			v = fmt.Sprintf("%q", v)
		}
		parts[i] = a.Name + "=" + v
	}
	return strings.Join(parts, " ")
}

func clipHex(b []byte) string {
	if len(b) > 40 {
		return hexutil.Encode(b[:40]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return hexutil.Encode(b)
}

// ethProgress follows a scan's phases for its progress line: phase, bar,
// blocks per second within the phase and time left.
type ethProgress struct {
	mu    sync.Mutex // notices
	line  *progress.Line
	phase string
	start time.Duration
}

// notice prints one line of news on stderr, above the progress line.
// Calls may come from several goroutines (a client's retries).
func (p *ethProgress) notice(w io.Writer, line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line.Clear()
	fmt.Fprintf(w, "chainsieve eth scan: %s\n", line)
}

func (p *ethProgress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.line.Clear()
}

func (p *ethProgress) update(pr scan.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr.Phase != p.phase {
		p.phase, p.start = pr.Phase, pr.Elapsed
	}
	p.line.Draw(pr.Done >= pr.Total, func() string { return p.text(pr) })
}

func (p *ethProgress) text(pr scan.Progress) string {
	rate := float64(pr.Done) / max((pr.Elapsed-p.start).Seconds(), 1e-3)
	eta := time.Duration(float64(pr.Total-pr.Done)/max(rate, 1e-9)) * time.Second
	return fmt.Sprintf("%-8s %s %d/%d blocks, %.0f blocks/s, ETA %v", pr.Phase,
		progress.Bar(float64(pr.Done)/float64(max(pr.Total, 1)), 30), pr.Done, pr.Total, rate, eta.Round(time.Second))
}
