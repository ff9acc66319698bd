package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/chainsieve/chainsieve/testvectors/verify"
)

// vectorFile is one file to check: where it came from and how to read it.
type vectorFile struct {
	name string
	read func() ([]byte, error)
}

func vectorsVerify(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "vectors verify", "[--json] [FILE|DIR ...]\n\n"+
		"Checks every vector in the given files (directories are searched for *.json)\n"+
		"with chainsieve's own code; with no arguments, the embedded published vectors.")
	asJSON := fs.Bool("json", false, "one JSON object per vector on stdout")
	paths, code, ok := parseFlags(e, fs, args)
	if !ok {
		return code
	}
	files, err := collectVectorFiles(e, paths)
	if err != nil {
		return usageError(e, "vectors verify", "%v", err)
	}
	passed, failed, broken := 0, 0, 0
	for _, f := range files {
		if ctx.Err() != nil {
			fmt.Fprintln(e.stderr, "chainsieve vectors verify: interrupted")
			return exitFailure
		}
		rep, err := checkVectorFile(f)
		if err != nil {
			broken++
		}
		if *asJSON {
			writeReportJSON(e, f.name, rep, err)
		} else {
			writeReportTable(e, f.name, rep, err)
		}
		passed += rep.Passed()
		failed += rep.Failed()
	}
	summary := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if broken > 0 {
		summary += fmt.Sprintf(", %d file(s) unreadable or unrecognised", broken)
	}
	fmt.Fprintln(e.stderr, summary)
	if failed > 0 || broken > 0 {
		return exitFailure
	}
	return exitOK
}

func checkVectorFile(f vectorFile) (verify.Report, error) {
	data, err := f.read()
	if err != nil {
		return verify.Report{}, err
	}
	return verify.File(data)
}

// collectVectorFiles expands the arguments: files as given, directories
// searched for *.json (other files there are listed on stderr as skipped), and
// the embedded vectors when there are no arguments.
func collectVectorFiles(e *env, paths []string) ([]vectorFile, error) {
	if len(paths) == 0 {
		var out []vectorFile
		for _, name := range testvectors.Files() {
			out = append(out, vectorFile{name: "embedded:" + name, read: func() ([]byte, error) { return testvectors.Read(name) }})
		}
		return out, nil
	}
	var out []vectorFile
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			// Reported per file, so that one bad path does not hide the rest.
			out = append(out, vectorFile{name: p, read: func() ([]byte, error) { return nil, err }})
			continue
		}
		if !info.IsDir() {
			out = append(out, fileVector(p))
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if strings.EqualFold(filepath.Ext(path), ".json") {
				found = append(found, path)
			} else {
				fmt.Fprintf(e.stderr, "skipped %s: not a .json vector file\n", path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading directory %s: %w", p, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("directory %s holds no .json vector files", p)
		}
		slices.Sort(found)
		for _, path := range found {
			out = append(out, fileVector(path))
		}
	}
	return out, nil
}

func fileVector(path string) vectorFile {
	return vectorFile{name: path, read: func() ([]byte, error) { return os.ReadFile(path) }}
}

func writeReportTable(e *env, name string, rep verify.Report, err error) {
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: ERROR %s\n\n", name, oneLine(err.Error()))
		return
	}
	fmt.Fprintf(e.stdout, "%s (%s): %d passed, %d failed\n", name, rep.Format, rep.Passed(), rep.Failed())
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range rep.Results {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", strings.ToUpper(r.Status.String()), r.Name, oneLine(r.Detail))
	}
	tw.Flush()
	fmt.Fprintln(e.stdout)
}

// vectorLine is the --json form of one result.
type vectorLine struct {
	File   string `json:"file"`
	Format string `json:"format,omitempty"`
	Vector string `json:"vector,omitempty"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

func writeReportJSON(e *env, name string, rep verify.Report, err error) {
	enc := json.NewEncoder(e.stdout)
	if err != nil {
		enc.Encode(vectorLine{File: name, Format: string(rep.Format), Status: "error", Detail: err.Error()})
		return
	}
	for _, r := range rep.Results {
		enc.Encode(vectorLine{File: name, Format: string(rep.Format), Vector: r.Name, Status: r.Status.String(), Detail: r.Detail})
	}
}
