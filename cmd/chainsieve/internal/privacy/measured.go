package privacy

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// Stats are the statistics a scan writes with --stats ("chainsieve btc scan",
// "chainsieve eth scan"): what it cost to scan Blocks blocks in Mode.
type Stats struct {
	File           string  `json:"file"`
	Mode           string  `json:"mode"`
	Blocks         float64 `json:"blocks"`
	BytesReceived  float64 `json:"bytesReceived"`
	BytesSent      float64 `json:"bytesSent"`
	RoundTrips     float64 `json:"roundTrips"`
	FalsePositives float64 `json:"falsePositives"`
	Seconds        float64 `json:"seconds"`
}

// statsFields maps the accepted spellings of each field, lower-cased with
// underscores and dashes removed, to the field they fill.
var statsFields = map[string]string{
	"mode": "mode", "scheme": "mode", "protocol": "mode",
	"blocks": "blocks", "blocksscanned": "blocks", "headers": "blocks", "headersscanned": "blocks",
	"bytesreceived": "received", "received": "received", "bytesin": "received", "bytesfetched": "received",
	"bytessent": "sent", "sent": "sent", "bytesout": "sent",
	"roundtrips": "roundTrips", "requests": "roundTrips",
	"falsepositives": "falsePositives", "falsepositiveblocks": "falsePositives", "falsepositivetxs": "falsePositives",
	"falsepositivetransactions": "falsePositives",
	"duration":                  "seconds", "seconds": "seconds", "durationseconds": "seconds", "elapsed": "seconds",
	"durationms": "ms", "milliseconds": "ms",
}

// ParseStats reads a scan's statistics: one JSON object with at least the
// mode, the blocks scanned and the bytes received. Field names may be
// camelCase or snake_case (bytesReceived, bytes_received); a duration is
// seconds as a number or a Go duration string ("1.5s"), or milliseconds in
// durationMs. Unknown fields are ignored. Errors name the file and field.
func ParseStats(file string, data []byte) (Stats, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Stats{}, fmt.Errorf("privacy: %s: not a JSON object of scan statistics: %w", file, err)
	}
	s := Stats{File: file}
	seen := map[string]bool{}
	for name, v := range raw {
		field, ok := statsFields[strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(name))]
		if !ok {
			continue
		}
		if seen[field] {
			return Stats{}, fmt.Errorf("privacy: %s: field %q repeats a field given under another name", file, name)
		}
		if err := s.set(field, v); err != nil {
			return Stats{}, fmt.Errorf("privacy: %s: field %q: %w", file, name, err)
		}
		seen[field] = true
	}
	for _, f := range []string{"mode", "blocks", "received"} {
		if !seen[f] {
			return Stats{}, fmt.Errorf("privacy: %s: no %s field", file, f)
		}
	}
	if s.Blocks <= 0 {
		return Stats{}, fmt.Errorf("privacy: %s: %v blocks scanned, want at least 1", file, s.Blocks)
	}
	return s, nil
}

func (s *Stats) set(field string, v json.RawMessage) error {
	if field == "mode" {
		return json.Unmarshal(v, &s.Mode)
	}
	if field == "seconds" {
		return s.setDuration(v)
	}
	var x float64
	if err := json.Unmarshal(v, &x); err != nil {
		return err
	}
	if x < 0 || math.IsInf(x, 0) {
		return fmt.Errorf("%v is not a count", x)
	}
	switch field {
	case "blocks":
		s.Blocks = x
	case "received":
		s.BytesReceived = x
	case "sent":
		s.BytesSent = x
	case "roundTrips":
		s.RoundTrips = x
	case "falsePositives":
		s.FalsePositives = x
	case "ms":
		s.Seconds = x / 1000
	}
	return nil
}

func (s *Stats) setDuration(v json.RawMessage) error {
	var text string
	if json.Unmarshal(v, &text) == nil {
		d, err := time.ParseDuration(text)
		s.Seconds = d.Seconds()
		return err
	}
	return json.Unmarshal(v, &s.Seconds)
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
	return []Quantity{
		q("blocks", "blocks scanned", st.Blocks, "", "as reported"),
		q("received_per_block", "bytes received per block", st.BytesReceived/st.Blocks, "bytes", "bytes received / blocks scanned"),
		q("sent_per_block", "bytes sent per block", st.BytesSent/st.Blocks, "bytes", "bytes sent / blocks scanned"),
		q("round_trips", "round trips", st.RoundTrips, "", "as reported"),
		q("false_positives", "false positives", st.FalsePositives, "", "as reported (blocks or transactions, as the scan counts them)"),
		q("seconds", "duration", st.Seconds, "s", "as reported"),
	}
}
