package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// benchCompare reads `go test -bench` output and prints, per operation, the
// median of chainsieve's runs against the median of each other
// implementation's runs: the tables of docs/performance.md.
func benchCompare(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "bench compare", "[--metric ns/op] [--json] [FILE ...]\n\n"+
		"Reads go test -bench output (FILEs or stdin) whose sub-benchmarks are named\n"+
		"after the implementation (…/chainsieve, …/btcd, …/geth) and prints one row per\n"+
		"operation: the medians and the ratio theirs/ours (above 1: chainsieve is faster).")
	metric := fs.String("metric", "ns/op", "the metric to compare (any unit go test printed, e.g. ns/op, B/op, ns/code)")
	asJSON := fs.Bool("json", false, "one JSON object per row on stdout")
	paths, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	samples := benchSamples{}
	if len(paths) == 0 {
		if err := samples.read(e.stdin); err != nil {
			fmt.Fprintf(e.stderr, "chainsieve bench compare: reading stdin: %v\n", err)
			return exitFailure
		}
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(e.stderr, "chainsieve bench compare: %v\n", err)
			return exitFailure
		}
		err = samples.read(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(e.stderr, "chainsieve bench compare: %s: %v\n", p, err)
			return exitFailure
		}
	}
	rows := samples.rows(*metric)
	if len(rows) == 0 {
		fmt.Fprintf(e.stderr, "chainsieve bench compare: no benchmark lines with a chainsieve sub-benchmark and metric %s\n", *metric)
		return exitFailure
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, r := range rows {
			enc.Encode(r)
		}
		return exitOK
	}
	fmt.Fprintf(e.stdout, "| operation | chainsieve | theirs | ratio (theirs/ours) | allocs/op ours / theirs |\n|---|---|---|---|---|\n")
	for _, r := range rows {
		theirs, ratio := "—", "—"
		if r.Theirs != "" {
			theirs = fmt.Sprintf("%s %s (%s)", fmtNum(r.TheirValue), *metric, r.Theirs)
			ratio = fmt.Sprintf("%.2f×", r.Ratio)
		}
		fmt.Fprintf(e.stdout, "| %s | %s %s | %s | %s | %s / %s |\n", r.Operation, fmtNum(r.OurValue), *metric,
			theirs, ratio, fmtAllocs(r.OurAllocs), fmtAllocs(r.TheirAllocs))
	}
	return exitOK
}

// benchSamples maps a full benchmark name (GOMAXPROCS suffix removed) to its
// values per unit over every run.
type benchSamples map[string]map[string][]float64

var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// read adds the benchmark lines of r. Names are prefixed with the last
// element of the package go test printed ("pkg: …/core/bloom" → "bloom."), so
// that equal benchmark names from different packages stay apart.
func (s benchSamples) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	pkg := ""
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "pkg: "); ok {
			pkg = p[strings.LastIndex(p, "/")+1:] + "."
			continue
		}
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		m[1] = pkg + m[1]
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			if s[m[1]] == nil {
				s[m[1]] = map[string][]float64{}
			}
			s[m[1]][f[i+1]] = append(s[m[1]][f[i+1]], v)
		}
	}
	return sc.Err()
}

// benchRow is one operation: chainsieve against one other implementation.
type benchRow struct {
	Operation   string  `json:"operation"`
	Metric      string  `json:"metric"`
	OurValue    float64 `json:"chainsieve"`
	Theirs      string  `json:"theirs,omitempty"`
	TheirValue  float64 `json:"theirValue,omitempty"`
	Ratio       float64 `json:"ratio,omitempty"`
	OurAllocs   float64 `json:"chainsieveAllocs"`
	TheirAllocs float64 `json:"theirAllocs"`
	Runs        int     `json:"runs"`
}

func (s benchSamples) rows(metric string) []benchRow {
	var rows []benchRow
	for name, units := range s {
		op, ok := strings.CutSuffix(name, "/chainsieve")
		if !ok || len(units[metric]) == 0 {
			continue
		}
		base := benchRow{Operation: strings.Replace(op, "Benchmark", "", 1), Metric: metric,
			OurValue: median(units[metric]), OurAllocs: medianOr(units["allocs/op"], -1), Runs: len(units[metric])}
		others := 0
		for other, ou := range s {
			impl, ok := strings.CutPrefix(other, op+"/")
			if !ok || impl == "chainsieve" || strings.Contains(impl, "/") || len(ou[metric]) == 0 {
				continue
			}
			r := base
			r.Theirs, r.TheirValue, r.TheirAllocs = impl, median(ou[metric]), medianOr(ou["allocs/op"], -1)
			r.Ratio = r.TheirValue / r.OurValue
			rows = append(rows, r)
			others++
		}
		if others == 0 {
			base.TheirAllocs = -1
			rows = append(rows, base)
		}
	}
	slices.SortFunc(rows, func(a, b benchRow) int {
		return strings.Compare(a.Operation+"/"+a.Theirs, b.Operation+"/"+b.Theirs)
	})
	return rows
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianOr(v []float64, none float64) float64 {
	if len(v) == 0 {
		return none
	}
	return median(v)
}

func fmtNum(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func fmtAllocs(v float64) string {
	if v < 0 {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
