package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/family"
)

// benchFilters measures every structure of the filter family at each target
// rate and prints the table of docs/filters.md.
func benchFilters(ctx context.Context, e *env, args []string) int {
	const cmd = "bench filters"
	fs := newFlags(e, cmd, "[flags]\n\n"+
		"Builds every approximate-membership structure of chainsieve (classic, partitioned,\n"+
		"blocked, counting and scalable Bloom filters, the cuckoo filter, a Golomb-coded set)\n"+
		"for --n random 32-byte elements at each rate of --eps, and prints bits per element,\n"+
		"the rate each structure's state predicts, the rate measured over --trials random\n"+
		"non-members, and ns per insert and lookup (the fastest of --rounds rounds).\n"+
		"A Markdown table on stdout, or one JSON object per row with --json.")
	n := fs.Uint64("n", 100_000, "elements inserted")
	epsList := fs.String("eps", "0.01,1/784931", "comma-separated target false-positive rates; a/b fractions allowed")
	trials := fs.Uint64("trials", 10_000_000, "random non-members tested for the measured rate (0: skip)")
	rounds := fs.Int("rounds", 7, "timing rounds, the fastest is printed (0: skip timing)")
	seed := fs.Uint64("seed", 1, "seed of the random elements")
	only := fs.String("structures", "", "comma-separated structures to measure (default: all)")
	asJSON := fs.Bool("json", false, "one JSON object per row on stdout")
	pos, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(e, cmd, "unexpected argument %q", pos[0])
	}
	if *n == 0 || *n > 10_000_000 {
		return usageError(e, cmd, "--n %d outside [1, 10000000] (the elements are kept in memory, 56 bytes each)", *n)
	}
	if *rounds < 0 || *rounds > 1000 {
		return usageError(e, cmd, "--rounds %d outside [0, 1000]", *rounds)
	}
	rates, err := parseRates(*epsList)
	if err != nil {
		return usageError(e, cmd, "--eps: %v", err)
	}
	structures, err := pickStructures(*only)
	if err != nil {
		return usageError(e, cmd, "--structures: %v", err)
	}
	started := time.Now()
	var rows []family.Result
	for _, eps := range rates {
		for _, s := range structures {
			if ctx.Err() != nil {
				fmt.Fprintf(e.stderr, "chainsieve %s: %v\n", cmd, ctx.Err())
				return exitFailure
			}
			fmt.Fprintf(e.stderr, "measuring %s at ε = %.4g\n", s.Name, eps)
			r, err := family.Measure(s, family.Config{N: *n, Eps: eps, Trials: *trials, Seed: *seed, Rounds: *rounds})
			if err != nil {
				fmt.Fprintf(e.stderr, "chainsieve %s: %v\n", cmd, err)
				return exitFailure
			}
			rows = append(rows, r)
			if *asJSON {
				if err := json.NewEncoder(e.stdout).Encode(r); err != nil {
					return exitFailure
				}
			}
		}
	}
	if !*asJSON {
		writeFamilyTable(e.stdout, rows, *rounds > 0)
	}
	fmt.Fprintf(e.stderr, "%d rows, n = %d, %d trials, seed %d; %s, %d CPUs, %s, %s; %.1f s\n",
		len(rows), *n, *trials, *seed, runtime.Version(), runtime.NumCPU(), runtime.GOARCH,
		time.Now().UTC().Format("2006-01-02"), time.Since(started).Seconds())
	return exitOK
}

// parseRates reads "0.01,1/784931".
func parseRates(s string) ([]float64, error) {
	var rates []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		num, den, frac := strings.Cut(f, "/")
		v, err := strconv.ParseFloat(num, 64)
		if err == nil && frac {
			var d float64
			if d, err = strconv.ParseFloat(den, 64); err == nil {
				v /= d
			}
		}
		if err != nil || !(v > 0 && v < 1) {
			return nil, fmt.Errorf("rate %q is not a number in (0, 1)", f)
		}
		rates = append(rates, v)
	}
	return rates, nil
}

func pickStructures(only string) ([]family.Structure, error) {
	if only == "" {
		return family.Structures(), nil
	}
	var out []family.Structure
	for _, name := range strings.Split(only, ",") {
		s, err := family.Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func writeFamilyTable(w io.Writer, rows []family.Result, timed bool) {
	fmt.Fprint(w, "| structure | ε | shape | bits/elem | predicted rate | measured rate | false positives / trials |")
	if timed {
		fmt.Fprint(w, " insert ns | lookup ns | absent ns |")
	}
	fmt.Fprint(w, "\n|---|---|---|---:|---:|---:|---:|")
	if timed {
		fmt.Fprint(w, "---:|---:|---:|")
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		measured, counts := "—", "—"
		if r.Trials > 0 {
			measured, counts = fmt.Sprintf("%.3g", r.MeasuredFPR), fmt.Sprintf("%d / %d", r.FalsePositives, r.Trials)
		}
		fmt.Fprintf(w, "| %s | %.4g | %s | %.2f | %.3g | %s | %s |", r.Structure, r.Eps, r.Params, r.BitsPerElement, r.EstimatedFPR, measured, counts)
		if timed {
			fmt.Fprintf(w, " %.1f | %.1f | %.1f |", r.InsertNs, r.LookupNs, r.LookupAbsentNs)
		}
		fmt.Fprintln(w)
	}
}
