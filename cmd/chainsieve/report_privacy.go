package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/privacy"
	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
)

const reportPrivacySynopsis = "[--addresses N | --wallet FILE] [--candidates S] [--filters K] [--seed X] [--measured FILE]... [--out DIR]\n\n" +
	"Writes the privacy and cost comparison of BIP37, BIP157/158 and Ethereum header blooms to DIR:\n" +
	"report.md, a self-contained report.html, report.json with every number, and an SVG and a CSV per plot.\n" +
	"The report opens with its key findings. Offline and deterministic for a given seed. The reproductions of\n" +
	"published results go to stdout; a progress line goes to stderr on a terminal when the run takes over a second.\n\n" +
	"--measured adds real scans: the file written by 'chainsieve btc scan --stats FILE' or\n" +
	"'chainsieve eth scan --stats FILE' (one schema; a scan that failed is refused)."

// reportFlags are the parsed flags of report privacy.
type reportFlags struct {
	addresses, filters int
	candidates         float64
	seed               uint64
	wallet, out        string
	measured           []string
	set                map[string]bool
}

func reportPrivacy(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "report privacy", reportPrivacySynopsis)
	f := reportFlags{set: map[string]bool{}}
	fs.IntVar(&f.addresses, "addresses", privacy.DefaultAddresses, "keys N of a synthetic bitcoinj wallet")
	fs.StringVar(&f.wallet, "wallet", "", "wallet `file`: one hex public key or address per line (instead of --addresses)")
	fs.Float64Var(&f.candidates, "candidates", privacy.DefaultCandidates, "candidate addresses S the adversary tests, the wallet's included")
	fs.IntVar(&f.filters, "filters", privacy.DefaultFilters, "filters K the adversary collects from the wallet's restarts")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of every random choice")
	fs.StringVar(&f.out, "out", "privacy-report", "`directory` to write the report into (created if missing)")
	fs.Func("measured", "scan statistics `file` written by btc scan --stats or eth scan --stats; repeat for several", func(s string) error {
		f.measured = append(f.measured, s)
		return nil
	})
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	if len(pos) > 0 {
		return usageError(e, "report privacy", "unexpected argument %q (flags only)", pos[0])
	}
	if f.set["addresses"] && f.set["wallet"] {
		return usageError(e, "report privacy", "--addresses and --wallet exclude each other")
	}
	cfg, err := f.config()
	if err != nil {
		fmt.Fprintf(e.stderr, "chainsieve report privacy: %v\n", err)
		return exitFailure
	}
	if err := cfg.Check(); err != nil {
		return usageError(e, "report privacy", "%v", err)
	}
	return writeReport(ctx, e, cfg, f.out)
}

// config reads the wallet and statistics files the flags name.
func (f *reportFlags) config() (privacy.Config, error) {
	cfg := privacy.Config{Addresses: f.addresses, Candidates: f.candidates, Filters: f.filters, Seed: f.seed, Command: f.command()}
	if f.wallet != "" {
		r, err := os.Open(f.wallet)
		if err != nil {
			return cfg, err
		}
		defer r.Close()
		if cfg.Wallet, err = privacy.ParseWallet(r); err != nil {
			return cfg, fmt.Errorf("%s: %w", f.wallet, err)
		}
		cfg.WalletName = f.wallet
	}
	for _, name := range f.measured {
		data, err := os.ReadFile(name)
		if err != nil {
			return cfg, err
		}
		st, err := privacy.ParseStats(name, data)
		if err != nil {
			return cfg, err
		}
		cfg.Measured = append(cfg.Measured, st)
	}
	return cfg, nil
}

// command is the canonical command line of the report: every input, and
// not the output directory, which does not change the report.
func (f *reportFlags) command() string {
	parts := []string{"chainsieve report privacy"}
	if f.wallet != "" {
		parts = append(parts, "--wallet "+f.wallet)
	} else {
		parts = append(parts, "--addresses "+strconv.Itoa(f.addresses))
	}
	parts = append(parts, "--candidates "+strconv.FormatFloat(f.candidates, 'f', -1, 64),
		"--filters "+strconv.Itoa(f.filters), "--seed "+strconv.FormatUint(f.seed, 10))
	for _, m := range f.measured {
		parts = append(parts, "--measured "+m)
	}
	return strings.Join(parts, " ")
}

func writeReport(ctx context.Context, e *env, cfg privacy.Config, dir string) int {
	start := time.Now()
	line := progress.NewAfter(e.stderr, progressDelay)
	cfg.Progress = func(s privacy.Step) { line.Draw(s.Done == s.Total, func() string { return reportProgress(s) }) }
	r, err := privacy.Build(cfg)
	line.Clear()
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	var files []privacy.File
	if err == nil {
		files, err = r.Files()
	}
	if err == nil {
		err = writeFiles(dir, files)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "chainsieve report privacy: %v\n", err)
		return exitFailure
	}
	fmt.Fprint(e.stdout, r.ReproductionTable())
	fmt.Fprintf(e.stderr, "wrote %d files (report.md, report.html, report.json, %d plots as SVG and CSV) to %s in %.1fs\n",
		len(files), len(r.Plots), dir, time.Since(start).Seconds())
	return exitOK
}

// progressDelay is how long the report runs before it shows progress.
const progressDelay = time.Second

// reportProgress is the progress line's text after step s.
func reportProgress(s privacy.Step) string {
	return fmt.Sprintf("report privacy %s %d/%d %s", progress.Bar(float64(s.Done)/float64(max(s.Total, 1)), 30), s.Done, s.Total, s.Name)
}

func writeFiles(dir string, files []privacy.File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
