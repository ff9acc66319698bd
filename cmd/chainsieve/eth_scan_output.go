package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
	"github.com/chainsieve/chainsieve/ethlogs/event"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// runScan drives the scan: logs to stdout as they are verified, the plan
// and the summary to stderr, a progress line when stderr is a terminal.
func runScan(ctx context.Context, e *env, cfg scan.Config, ev *eventSet, asJSON bool, statsFile string) int {
	out := bufio.NewWriter(e.stdout)
	w := logWriter{out: out, ev: ev, json: asJSON}
	bar := &ethProgress{line: progress.New(e.stderr)}
	cfg.Emit = func(logs []*types.Log) error {
		bar.line.Clear()
		for _, l := range logs {
			if err := w.write(l); err != nil {
				return err
			}
		}
		return out.Flush() // written before the checkpoint says so
	}
	cfg.Started = func(st scan.Stats) { printPlan(e.stderr, cfg, st) }
	cfg.Progress = bar.update
	st, err := scan.Run(ctx, cfg)
	bar.line.Clear()
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	printSummary(e.stderr, cfg, st)
	if writeEthStats(e, statsFile, cfg, st, err) {
		return exitFailure
	}
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "chainsieve eth scan: interrupted; run the same command again to resume after the last block printed\n")
		return exitFailure
	case err != nil:
		fmt.Fprintf(e.stderr, "chainsieve eth scan: %v\n", err)
		if cfg.Resume != "" && st.Logs+st.ResumedLogs > 0 {
			fmt.Fprintf(e.stderr, "chainsieve eth scan: the logs printed so far are verified; run the same command again to resume after them\n")
		}
		return exitFailure
	}
	return exitOK
}

func printPlan(w io.Writer, cfg scan.Config, st scan.Stats) {
	printAnchor(w, cfg, st)
	if st.Resumed {
		fmt.Fprintf(w, "resuming after block %d: %d logs were printed by the stopped scan (--restart to start over)\n", st.From-1, st.ResumedLogs)
	}
	fmt.Fprintf(w, "blocks %d to %d, verify %s, index %s\n", st.From, st.To, cfg.Mode, st.Index)
}

func printSummary(w io.Writer, cfg scan.Config, st scan.Stats) {
	if st.AnchorHash == (common.Hash{}) {
		return // stopped before the range was known
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
		st.Elapsed.Seconds(), float64(st.Blocks())/st.Elapsed.Seconds(), st.Requests, st.Calls, st.Retries, st.Splits)
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

// logWriter prints logs as eth_getLogs JSON objects or as table rows.
type logWriter struct {
	out    *bufio.Writer
	ev     *eventSet // nil: no decoding
	json   bool
	header bool // the table header is printed
}

func (w *logWriter) write(l *types.Log) error {
	args, argErr := w.ev.decode(l)
	if w.json {
		return w.writeJSON(l, args, argErr)
	}
	if !w.header {
		fmt.Fprintf(w.out, "%-8s %-5s %-5s %-42s  %-12s %s\n", "BLOCK", "TX", "LOG", "ADDRESS", "EVENT", "ARGUMENTS")
		w.header = true
	}
	_, err := fmt.Fprintf(w.out, "%-8d %-5d %-5d %-42s  %-12s %s\n", l.BlockNumber, l.TxIndex, l.Index, l.Address.Hex(), w.name(l), describeArgs(l, args, argErr))
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
	line  *progress.Line
	phase string
	start time.Duration
}

func (p *ethProgress) update(pr scan.Progress) {
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
