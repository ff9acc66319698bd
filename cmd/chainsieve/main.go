// Command chainsieve scans chains through the filters light clients use,
// builds and inspects those filters, verifies published test vectors and
// writes privacy comparison reports.
//
// Usage:
//
//	chainsieve <group> <command> [flags] [args]
//
// Run "chainsieve -h" for the groups, "chainsieve <group> <command> -h" for
// a command's flags and "chainsieve version" for the module version and
// commit the binary was built from. Data goes to stdout (one JSON object per line with
// --json), progress and summaries to stderr. The exit code is 0 on success, 1
// on failure and 2 for a usage error.
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := runEnv(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
