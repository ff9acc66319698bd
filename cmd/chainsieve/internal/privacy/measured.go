package privacy

import (
	"encoding/json"
	"fmt"
	"math"
)

// Stats are the statistics a scan writes with --stats ("chainsieve btc scan",
// "chainsieve eth scan"): what it cost to scan Blocks blocks in Mode. The
// optional fields are nil when the file does not have them (an eth scan
// does not count the bytes it sends); the report then shows nothing for
// them rather than a zero.
type Stats struct {
	File           string
	Mode           string
	Blocks         float64
	BytesReceived  float64
	BytesSent      *float64
	RoundTrips     *float64
	FalsePositives *float64
	FPUnit         string // "blocks" or "transactions"; "" when not given
	Seconds        *float64
}

// statsFile is the --stats schema the scans write ("chainsieve btc scan
// --stats", "chainsieve eth scan --stats"); other fields are ignored.
type statsFile struct {
	Mode              string   `json:"mode"`
	BlocksScanned     *float64 `json:"blocksScanned"`
	BytesReceived     *float64 `json:"bytesReceived"`
	BytesSent         *float64 `json:"bytesSent"`
	RoundTrips        *float64 `json:"roundTrips"`
	FalsePositives    *float64 `json:"falsePositives"`
	FalsePositiveUnit string   `json:"falsePositiveUnit"`
	DurationSeconds   *float64 `json:"durationSeconds"`
	Error             string   `json:"error"`
}

// ParseStats reads a scan's --stats file: one JSON object with at least
// mode, blocksScanned and bytesReceived, from a scan that finished (a file
// with an error field is refused: a scan that stopped part way did not
// measure what it was asked to). Errors name the file and field.
func ParseStats(file string, data []byte) (Stats, error) {
	var f statsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Stats{}, fmt.Errorf("privacy: %s: not a JSON object of scan statistics: %w", file, err)
	}
	switch {
	case f.Error != "":
		return Stats{}, fmt.Errorf("privacy: %s: the scan failed (%q), so its statistics do not measure a whole scan", file, clipText(f.Error, 200))
	case f.Mode == "":
		return Stats{}, fmt.Errorf("privacy: %s: no mode field", file)
	case f.BlocksScanned == nil:
		return Stats{}, fmt.Errorf("privacy: %s: no blocksScanned field", file)
	case f.BytesReceived == nil:
		return Stats{}, fmt.Errorf("privacy: %s: no bytesReceived field", file)
	case *f.BlocksScanned < 1:
		return Stats{}, fmt.Errorf("privacy: %s: %v blocks scanned, want at least 1", file, *f.BlocksScanned)
	}
	fields := []struct {
		name string
		v    *float64
	}{{"bytesReceived", f.BytesReceived}, {"bytesSent", f.BytesSent}, {"roundTrips", f.RoundTrips},
		{"falsePositives", f.FalsePositives}, {"durationSeconds", f.DurationSeconds}}
	for _, fl := range fields {
		if v := fl.v; v != nil && (*v < 0 || math.IsInf(*v, 0) || math.IsNaN(*v)) {
			return Stats{}, fmt.Errorf("privacy: %s: field %q: %v is not a count", file, fl.name, *v)
		}
	}
	return Stats{File: file, Mode: clipText(f.Mode, 40), Blocks: *f.BlocksScanned, BytesReceived: *f.BytesReceived,
		BytesSent: f.BytesSent, RoundTrips: f.RoundTrips, FalsePositives: f.FalsePositives,
		FPUnit: clipText(f.FalsePositiveUnit, 40), Seconds: f.DurationSeconds}, nil
}

// clipText cuts text read from a file to n runes, so that a long or
// hostile field cannot flood the report or a terminal.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func addMeasured(in *inputs, r *Report) error {
	s := Section{ID: "measured", Title: "Measured scans",
		Summary: "Statistics written by real scans (chainsieve btc scan / eth scan --stats) and passed with --measured."}
	if len(in.cfg.Measured) == 0 {
		s.Summary += " None were given, so every size in this report is measured on the embedded data or computed."
	}
	for i, st := range in.cfg.Measured {
		s.Quantities = append(s.Quantities, st.quantities(i)...)
	}
	r.Sections = append(r.Sections, s)
	return nil
}

func (st Stats) quantities(i int) []Quantity {
	id := fmt.Sprintf("measured.%d.", i+1)
	src := fmt.Sprintf("scan statistics %s (mode %s)", st.File, st.Mode)
	q := func(name, label string, v float64, unit, model string) Quantity {
		return Quantity{ID: id + name, Label: st.Mode + ": " + label, Value: Num(v), Unit: unit, Kind: Scan, Model: model, Source: src}
	}
	out := []Quantity{
		q("blocks", "blocks scanned", st.Blocks, "", "as reported"),
		q("received_per_block", "bytes received per block", st.BytesReceived/st.Blocks, "bytes", "bytes received / blocks scanned"),
	}
	if st.BytesSent != nil {
		out = append(out, q("sent_per_block", "bytes sent per block", *st.BytesSent/st.Blocks, "bytes", "bytes sent / blocks scanned"))
	}
	if st.RoundTrips != nil {
		out = append(out, q("round_trips", "round trips", *st.RoundTrips, "", "as reported"))
	}
	if st.FalsePositives != nil {
		unit := st.FPUnit
		if unit == "" {
			unit = "blocks or transactions, as the scan counts them"
		}
		out = append(out, q("false_positives", "false positives", *st.FalsePositives, "", "as reported ("+unit+")"))
	}
	if st.Seconds != nil {
		out = append(out, q("seconds", "duration", *st.Seconds, "s", "as reported"))
	}
	return out
}
