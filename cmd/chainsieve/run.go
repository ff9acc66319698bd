package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// env is what a command may touch: its streams and the environment
// variables. Commands read no globals.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// testHook is nil outside tests: a test's child process pauses at the
	// named point for its parent to kill it there.
	testHook func(point string)
}

// pause is where a test may stop the command (testHook).
func (e *env) pause(point string) {
	if e.testHook != nil {
		e.testHook(point)
	}
}

// command is one "chainsieve <group> <name>" entry.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, args []string) int
}

// group is one "chainsieve <group>" entry.
type group struct {
	name     string
	summary  string
	commands []command
}

// groups lists every command; each lives in a file of its own.
func groups() []group {
	return []group{
		{name: "vectors", summary: "check published test vectors", commands: []command{
			{name: "verify", summary: "check vector files with chainsieve's own code", run: vectorsVerify},
		}},
		{name: "eth", summary: "Ethereum contract events, verified", commands: []command{
			{name: "scan", summary: "find logs over a block range by header blooms, with proof (no --rpc: the embedded demo chain)", run: ethScan},
		}},
		{name: "btc", summary: "Bitcoin light client over P2P", commands: []command{
			{name: "scan", summary: "find a wallet's transactions, coins and balance with BIP157/158 or BIP37 filters (--follow: stay at the tip)", run: btcScan},
			{name: "send", summary: "relay a signed transaction to peers and report whether each requested or rejected it", run: btcSend},
		}},
		{name: "bench", summary: "benchmark results and measurements", commands: []command{
			{name: "compare", summary: "tabulate chainsieve against btcd/geth from go test -bench output", run: benchCompare},
			{name: "filters", summary: "measure the filter family: bits per element, false-positive rate, speed", run: benchFilters},
		}},
		{name: "report", summary: "write reports", commands: []command{
			{name: "privacy", summary: "compare the privacy and cost of BIP37, BIP157/158 and Ethereum header blooms", run: reportPrivacy},
		}},
	}
}

// run is the whole CLI: it parses args and dispatches, writing only to the
// given streams, and returns the exit code. It sees no environment
// variables; main passes them with runEnv.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(ctx, args, stdin, stdout, stderr, func(string) string { return "" })
}

// runEnv is run with the environment variables getenv returns.
func runEnv(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	return runWith(ctx, &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}, args)
}

// runWith is run in the environment e.
func runWith(ctx context.Context, e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	if isHelp(args[0]) {
		usage(stdout)
		return exitOK
	}
	if args[0] == "version" || isVersionFlag(args[0]) {
		return version(ctx, e, args[1:])
	}
	g, ok := findGroup(args[0])
	if !ok {
		fmt.Fprintf(stderr, "chainsieve: unknown group %q (run 'chainsieve -h')\n", args[0])
		return exitUsage
	}
	if len(args) == 1 || isHelp(args[1]) {
		w, code := stderr, exitUsage
		if len(args) > 1 {
			w, code = stdout, exitOK
		}
		groupUsage(w, g)
		return code
	}
	for _, c := range g.commands {
		if c.name == args[1] {
			return c.run(ctx, e, args[2:])
		}
	}
	fmt.Fprintf(stderr, "chainsieve: unknown command %q in group %q (run 'chainsieve %s -h')\n", args[1], g.name, g.name)
	return exitUsage
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "help" }

func findGroup(name string) (group, bool) {
	for _, g := range groups() {
		if g.name == name {
			return g, true
		}
	}
	return group{}, false
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: chainsieve <group> <command> [flags] [args]")
	fmt.Fprintln(w, "\ngroups:")
	for _, g := range groups() {
		fmt.Fprintf(w, "  %-10s %s\n", g.name, g.summary)
	}
	fmt.Fprintln(w, "\nRun 'chainsieve <group> -h' for its commands, 'chainsieve version' (or --version) for the\nversion, commit and Go toolchain of this binary.")
}

func groupUsage(w io.Writer, g group) {
	fmt.Fprintf(w, "usage: chainsieve %s <command> [flags] [args]\n\ncommands:\n", g.name)
	for _, c := range g.commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'chainsieve %s <command> -h' for its flags.\n", g.name)
}

// newFlags returns a flag set that reports to stderr and prints synopsis and
// the flag list for -h.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: chainsieve %s %s\n", name, synopsis)
		if hasFlags(fs) {
			fmt.Fprintln(fs.Output(), "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses flags that may come before, between or after the
// positional arguments ("--" ends flag parsing) and returns the positionals.
// ok is false when the command should exit with code: 0 after -h (usage on
// stdout), 2 after a bad flag (the error and usage on stderr).
func parseFlags(e *env, fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	// The flag package prints the usage itself on -h and on errors; capture
	// it so that it goes to the right stream, once.
	var report bytes.Buffer
	fs.SetOutput(&report)
	defer fs.SetOutput(e.stderr)
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			e.stdout.Write(report.Bytes())
			return nil, exitOK, false
		}
		if err != nil {
			e.stderr.Write(report.Bytes())
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, 0, true
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), 0, true
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageError prints a message naming the command and returns exitUsage.
func usageError(e *env, cmd, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "chainsieve %s: %s\n", cmd, fmt.Sprintf(format, args...))
	return exitUsage
}

// oneLine folds a multi-line detail into one table cell.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
