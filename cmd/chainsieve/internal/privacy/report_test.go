package privacy

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/core/bloom"
)

// defaultConfig is the command's default configuration.
func defaultConfig() Config {
	return Config{Addresses: DefaultAddresses, Candidates: DefaultCandidates, Filters: DefaultFilters, Seed: 1,
		Command: "chainsieve report privacy"}
}

func build(t *testing.T, cfg Config) *Report {
	t.Helper()
	r, err := Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDefaultReport builds the command's default report once and checks it
// from every side.
func TestDefaultReport(t *testing.T) {
	t.Parallel() // a full build, like TestMeasuredInReport's: two cores, half the time
	r := build(t, defaultConfig())
	for _, c := range []struct {
		name  string
		check func(*testing.T, *Report)
	}{
		{"Reproductions", checkReproductions},
		{"Complete", checkReportComplete},
		{"HTMLSelfContained", checkHTMLSelfContained},
		{"MarkdownAndCSV", checkMarkdownAndCSV},
		{"WalletFilterSampled", checkWalletFilterSampled},
		{"KeyFindings", checkKeyFindings},
		{"SourcesPublished", checkSourcesPublished},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, r) })
	}
}

// checkReproductions holds every reproduction to the published figure,
// transcribed here from its source, within half a unit of the last digit
// it was published with (the reproduction's Precision), except where the
// comment says why not.
func checkReproductions(t *testing.T, r *Report) {
	tests := []struct {
		id         string
		published  float64
		precision  float64 // half a unit of the last published digit
		tolerance  float64 // absolute
		reproduced bool
	}{
		{"nick.elements", 642, 0.5, 0, true},
		{"nick.size", 1269, 0.5, 0, true},
		{"nick.hash_funcs", 10, 0.5, 0, true},
		{"nick.fp", 1.468e-4, 0.0005e-4, 0.0005e-4, true},
		{"nick.pair", 2.1555e-8, 0.00005e-8, 0.00005e-8, true},
		{"nick.expected", 1.2, 0.05, 0.05, true},
		{"bip158.theory", 21.05, 0.005, 0.005, true},
		{"bip158.entropy", 21.025, 0.0005, 0.0005, true},
		{"bip158.mainnet", 21.145, 0.0005, 0.1, false}, // embedded data, not mainnet: differs by design
		// Ethereum Stack Exchange 56123 publishes percentages with two
		// decimals: 0.25, 1.64, 10.20, 50.14, 99.15.
		{"eth.capacity_100", 0.0025, 0.00005, 0.00005, true},
		{"eth.capacity_200", 0.0164, 0.00005, 0.00005, true},
		{"eth.capacity_430", 0.1020, 0.00005, 0.0001, true}, // the answer's own formula gives 10.2074 %: one unit off
		{"eth.capacity_1080", 0.5014, 0.00005, 0.00005, true},
		{"eth.capacity_4000", 0.9915, 0.00005, 0.00005, true},
	}
	if len(r.Reproductions) != len(tests) {
		t.Errorf("%d reproductions, want %d", len(r.Reproductions), len(tests))
	}
	for _, tt := range tests {
		x, ok := findReproduction(r, tt.id)
		if !ok {
			t.Errorf("reproduction %s missing", tt.id)
			continue
		}
		if float64(x.Published) != tt.published || x.Reproduced != tt.reproduced || !near(float64(x.Precision), tt.precision, 1e-9) {
			t.Errorf("%s: published %g ± %g, reproduced %v; want %g ± %g, %v", tt.id, x.Published, x.Precision, x.Reproduced,
				tt.published, tt.precision, tt.reproduced)
		}
		if d := math.Abs(float64(x.Computed) - tt.published); d > tt.tolerance {
			t.Errorf("%s: computed %g, published %g: differ by %g, tolerance %g", tt.id, x.Computed, tt.published, d, tt.tolerance)
		}
		if d := float64(x.Difference) - (round(float64(x.Computed)) - tt.published); math.Abs(d) > 1e-15 {
			t.Errorf("%s: difference %g is not computed - published", tt.id, x.Difference)
		}
	}
	if x, _ := findReproduction(r, "eth.capacity_430"); !strings.Contains(x.Note, "one unit off") {
		t.Errorf("eth.capacity_430 note %q does not say the published figure is one unit off", x.Note)
	}
}

func findReproduction(r *Report, id string) (Reproduction, bool) {
	for _, x := range r.Reproductions {
		if x.ID == id {
			return x, true
		}
	}
	return Reproduction{}, false
}

// forgetMeasured empties the memos of what a report measures.
func forgetMeasured() {
	familyMemo.forget()
	bitsMemo.forget()
	ethMemo.forget()
}

// TestReportDeterministic builds three reports (about 6 s on two cores), so
// it runs only without -short.
func TestReportDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("three report builds; run without -short")
	}
	cfg := defaultConfig()
	cfg.Addresses = 20
	a := files(t, build(t, cfg))
	forgetMeasured() // the second build measures everything again
	b := files(t, build(t, cfg))
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds of the same configuration", name)
		}
	}
	cfg.Seed = 2
	if c := files(t, build(t, cfg)); bytes.Equal(a["report.json"], c["report.json"]) {
		t.Error("report.json is the same for seeds 1 and 2")
	}
}

func files(t *testing.T, r *Report) map[string][]byte {
	t.Helper()
	fs, err := r.Files()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range fs {
		out[f.Name] = f.Data
	}
	return out
}

// checkReportComplete checks that every number carries its model and source
// and that every plot is drawable.
func checkReportComplete(t *testing.T, r *Report) {
	ids := map[string]bool{}
	kinds := map[Kind]bool{Input: true, Computed: true, Simulated: true, Embedded: true, Scan: true, Published: true}
	sections := map[string]bool{}
	check := func(q Quantity) {
		if ids[q.ID] || q.ID == "" {
			t.Errorf("quantity ID %q empty or repeated", q.ID)
		}
		ids[q.ID] = true
		if q.Label == "" || q.Model == "" || q.Source == "" || !kinds[q.Kind] {
			t.Errorf("quantity %s lacks a label, model, source or kind: %+v", q.ID, q)
		}
		if v := float64(q.Value); math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("quantity %s = %g", q.ID, v)
		}
	}
	for _, q := range r.Inputs {
		check(q)
	}
	for _, s := range r.Sections {
		sections[s.ID] = true
		for _, q := range s.Quantities {
			check(q)
		}
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				if len(row) != len(tb.Columns) {
					t.Errorf("table %s: row of %d cells for %d columns", tb.ID, len(row), len(tb.Columns))
				}
			}
		}
	}
	wantPlots := []string{"recovery", "eth-saturation", "bandwidth", "bits-per-element", "false-candidates", "candidates-decoys"}
	if len(r.Plots) != len(wantPlots) {
		t.Errorf("%d plots, want %d", len(r.Plots), len(wantPlots))
	}
	for i, p := range r.Plots {
		if i < len(wantPlots) && p.ID != wantPlots[i] {
			t.Errorf("plot %d is %s, want %s", i, p.ID, wantPlots[i])
		}
		if !sections[p.Section] || p.Caption == "" || len(p.Series) == 0 {
			t.Errorf("plot %s: section %q, caption %q, %d series", p.ID, p.Section, p.Caption, len(p.Series))
		}
		for _, s := range p.Series {
			if n := len(s.Y); n == 0 || (!p.Bars && len(s.X) != n) || (p.Bars && len(p.Labels) != n) || !kinds[s.Kind] {
				t.Errorf("plot %s series %q: %d x, %d y, %d labels, kind %q", p.ID, s.Name, len(s.X), n, len(p.Labels), s.Kind)
			}
		}
	}
}

// checkHTMLSelfContained: the HTML points nowhere and holds every plot.
func checkHTMLSelfContained(t *testing.T, r *Report) {
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	s := string(html)
	for _, bad := range []string{"http://", "https://", "src=", "href=", "<script", "<link", "<img", "<iframe", "url(", "@import", "xmlns"} {
		if strings.Contains(strings.ToLower(s), bad) {
			t.Errorf("report.html contains %q", bad)
		}
	}
	if got := strings.Count(s, "<svg "); got != len(r.Plots) {
		t.Errorf("report.html has %d inline SVGs, want %d", got, len(r.Plots))
	}
	for _, p := range r.Plots {
		_, rest, ok := strings.Cut(s, `<figure id="plot-`+p.ID+`">`)
		if !ok || !strings.HasPrefix(strings.TrimSpace(rest), "<svg ") {
			t.Errorf("report.html lacks the figure of plot %s with its SVG", p.ID)
		}
	}
	for _, sec := range r.Sections {
		if !strings.Contains(s, `<h2 id="`+sec.ID+`">`) {
			t.Errorf("report.html lacks section %s", sec.ID)
		}
	}
}

func checkMarkdownAndCSV(t *testing.T, r *Report) {
	md := string(r.Markdown())
	for _, want := range []string{"## Reproductions of published results", "| 2.1555e-8 | 2.15555e-8 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, s := range r.Sections {
		if !strings.Contains(md, "## "+s.Title+"\n") {
			t.Errorf("report.md lacks section %q", s.Title)
		}
	}
	for _, p := range r.Plots {
		if !strings.Contains(md, "("+p.ID+".svg)") {
			t.Errorf("report.md does not show %s.svg", p.ID)
		}
		rows, err := csv.NewReader(bytes.NewReader(p.CSV())).ReadAll()
		if err != nil {
			t.Fatalf("%s.csv: %v", p.ID, err)
		}
		want := 1
		for _, s := range p.Series {
			want += len(s.Y)
		}
		if len(rows) != want || len(rows[0]) != 3 {
			t.Errorf("%s.csv has %d rows of %d fields, want %d rows of 3", p.ID, len(rows), len(rows[0]), want)
		}
	}
	table := r.ReproductionTable()
	if lines := strings.Count(table, "\n"); lines != len(r.Reproductions)+1 {
		t.Errorf("ReproductionTable() has %d lines, want %d", lines, len(r.Reproductions)+1)
	}
}

// checkWalletFilterSampled: the report's sampled rate agrees with the built
// filter's fill^k.
func checkWalletFilterSampled(t *testing.T, r *Report) {
	p, sampled := r.quantity("bip37.fp_rate"), r.quantity("bip37.fp_sampled")
	within(t, "sampled wallet filter rate", sampled, p, binomialSE(p, fpSamples))
}

// TestEthPredictedFill: on the real blocks with logs, the fill predicted
// from the distinct values counted matches the header's fill within the
// binomial spread of 2048 bits (4 standard errors).
func TestEthPredictedFill(t *testing.T) {
	blocks, err := ethAnalysis(1)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, b := range blocks {
		if b.distinct == 0 {
			continue
		}
		want := bloom.ExpectedFill(ethBits, ethHashes, float64(b.distinct))
		within(t, "fill of block "+itoa(b.number), b.fill, want, math.Sqrt(want*(1-want)/ethBits))
		checked++
	}
	if checked < 6 {
		t.Errorf("%d blocks with counted values, want the 6 full blocks", checked)
	}
}

func itoa(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func TestMeasuredInReport(t *testing.T) {
	t.Parallel()
	cfg := defaultConfig()
	st, err := ParseStats("bip157.json", []byte(`{"mode":"bip157","blocksScanned":200,"bytesReceived":80000,"bytesSent":4000,"roundTrips":12,"falsePositives":1,"durationSeconds":2.5}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Measured = []Stats{st}
	r := build(t, cfg)
	if got := r.quantity("measured.1.received_per_block"); got != 400 {
		t.Errorf("measured bytes received per block = %g, want 400", got)
	}
	if f := r.KeyFindings[len(r.KeyFindings)-2]; f.Scheme != "Measured scan" || !strings.Contains(f.Text, "200 blocks received 400 bytes per block") {
		t.Errorf("the finding before the reproductions' = %+v, want the measured scan's", f)
	}
	for _, p := range r.Plots {
		if p.ID != "bandwidth" {
			continue
		}
		if len(p.Series) != 2 || float64(p.Series[1].Y[len(p.Labels)-1]) != 400 {
			t.Errorf("bandwidth plot: %d series, want the measured scan's 400 bytes per block as the last bar", len(p.Series))
		}
	}
}

func TestConfigCheck(t *testing.T) {
	ok := defaultConfig()
	tests := []struct {
		name string
		mod  func(*Config)
	}{
		{"no addresses", func(c *Config) { c.Addresses = 0 }},
		{"too many addresses", func(c *Config) { c.Addresses = maxAddresses + 1 }},
		{"fewer candidates than addresses", func(c *Config) { c.Candidates = 10 }},
		{"fractional candidates", func(c *Config) { c.Candidates = 1e6 + 0.5 }},
		{"NaN candidates", func(c *Config) { c.Candidates = math.NaN() }},
		{"no filters", func(c *Config) { c.Filters = 0 }},
		{"too many filters", func(c *Config) { c.Filters = maxFilters + 1 }},
	}
	if err := ok.Check(); err != nil {
		t.Fatalf("Check() of the default = %v", err)
	}
	for _, tt := range tests {
		c := defaultConfig()
		tt.mod(&c)
		if err := c.Check(); err == nil || !strings.HasPrefix(err.Error(), "privacy: ") {
			t.Errorf("%s: Check() = %v, want a privacy error", tt.name, err)
		}
	}
}
