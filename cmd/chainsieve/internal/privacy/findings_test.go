package privacy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// checkKeyFindings: the report opens with its findings, and every number
// a finding states is a quantity of the report, shown as its table shows
// it.
func checkKeyFindings(t *testing.T, r *Report) {
	var schemes []string
	for _, f := range r.KeyFindings {
		schemes = append(schemes, f.Scheme)
		for _, id := range f.Quantities {
			q, ok := r.lookup(id)
			if !ok {
				t.Errorf("%s finding names quantity %s, which the report lacks", f.Scheme, id)
				continue
			}
			if !strings.Contains(f.Text, q.display()) && !strings.Contains(f.Text, percent(float64(q.Value))) {
				t.Errorf("%s finding does not state %s = %s:\n%s", f.Scheme, id, q.display(), f.Text)
			}
		}
		if strings.ContainsAny(f.Text, "{}") {
			t.Errorf("%s finding has an unfilled placeholder: %s", f.Scheme, f.Text)
		}
	}
	want := "BIP37, BIP157/158, Ethereum header blooms, Bandwidth, Reproductions"
	if got := strings.Join(schemes, ", "); got != want {
		t.Errorf("key findings on %s, want %s", got, want)
	}
	if f := r.KeyFindings[len(r.KeyFindings)-1]; !strings.HasPrefix(f.Text, fmt.Sprintf("Of the %d published figures", len(r.Reproductions))) {
		t.Errorf("reproductions finding = %q", f.Text)
	}
	md := string(r.Markdown())
	if first := regexp.MustCompile(`(?m)^## .*$`).FindString(md); first != "## Key findings" {
		t.Errorf("report.md's first section is %q, want the key findings", first)
	}
	html, err := r.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(html), `<h2 id="key-findings">`), strings.Index(string(html), `<h2 id="inputs">`); i < 0 || i > j {
		t.Errorf("report.html: key findings at %d, inputs at %d; want the findings first", i, j)
	}
}

// checkSourcesPublished: a reader can open every source. No chainsieve
// issue, no file outside the repository; the repository's docs only as
// "see also".
func checkSourcesPublished(t *testing.T, r *Report) {
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bissues? ?#?\d`), regexp.MustCompile(`#\d`), regexp.MustCompile(`shared/`),
		regexp.MustCompile(`\.\./`), regexp.MustCompile(`research/`), regexp.MustCompile(`(?i)https?:`),
	} {
		if m := bad.FindString(text); m != "" {
			i := strings.Index(text, m)
			t.Errorf("report cites %q: …%s…", m, text[max(i-80, 0):min(i+40, len(text))])
		}
	}
	for _, i := range regexp.MustCompile(`docs/`).FindAllStringIndex(text, -1) {
		if !strings.HasSuffix(text[:i[0]], "see also ") {
			t.Errorf("docs/ cited other than as \"see also\": …%s…", text[max(i[0]-80, 0):min(i[1]+20, len(text))])
		}
	}
	for _, s := range r.Sections {
		for _, q := range s.Quantities {
			if q.Source == "" {
				t.Errorf("quantity %s has no source", q.ID)
			}
		}
	}
}

// TestFindingsFromData gives addFindings a report of made-up numbers: the
// findings must state them, so nothing in them is typed in.
func TestFindingsFromData(t *testing.T) {
	ids := []string{"input.addresses", "input.candidates", "input.filters", "bip37.size", "bip37.fp_rate", "bip37.false_expected",
		"bip37.intersection.false_expected", "bip37.intersection.recover_all", "bip158.scan_blocks", "bip158.fetched",
		"bip158.false_blocks", "bip158.candidates_1", "bandwidth.bip158_expected", "eth.fill_postmerge", "eth.fp1_postmerge",
		"eth.fp2_postmerge", "eth.fp_wallet", "eth.false_blocks", "eth.scan_blocks", "eth.getlogs_revealed",
		"bandwidth.bip37_nomatch", "bandwidth.bip158_filter", "bandwidth.eth_header", "bandwidth.eth_receipts",
		"measured.1.blocks", "measured.1.received_per_block"}
	r := &Report{}
	s := Section{ID: "all"}
	for i, id := range ids {
		q := Quantity{ID: id, Value: Num(float64(i+1) * 1.1111), Unit: "u" + fmt.Sprint(i)}
		if strings.HasPrefix(id, "input.") {
			r.Inputs = append(r.Inputs, q)
		} else {
			s.Quantities = append(s.Quantities, q)
		}
	}
	r.Sections = []Section{s}
	r.Reproductions = []Reproduction{
		repro("a", "claim a", "src", "0.10", 0.1004, "", "", ""),
		repro("b", "claim b", "src", "0.1020", 0.10207, "", "", ""),
	}
	in := &inputs{cfg: Config{Measured: []Stats{{File: "x{input.filters}.json", Mode: "eth"}}}}
	if err := addFindings(in, r); err != nil {
		t.Fatal(err)
	}
	all := ""
	for _, f := range r.KeyFindings {
		all += f.Text + "\n"
	}
	for _, q := range append(r.Inputs, s.Quantities...) {
		if !strings.Contains(all, q.display()) && !strings.Contains(all, percent(float64(q.Value))) {
			t.Errorf("the findings do not state %s = %s", q.ID, q.display())
		}
	}
	for _, want := range []string{
		"Of the 2 published figures the report recomputes, 1 agrees to",
		"1 differs in its last digit (claim b: published 0.1020, computed 0.10207)",
		"(the largest relative difference: 0.4 %, claim a)",
		"The eth scan (x(input.filters).json) of", // the file name's braces are not a placeholder
	} {
		if !strings.Contains(all, want) {
			t.Errorf("findings lack %q:\n%s", want, all)
		}
	}
	// A template naming a quantity the report lacks is an error.
	if _, err := r.finding("X", "{no.such}"); err == nil || !strings.Contains(err.Error(), "no.such") {
		t.Errorf("finding of a missing quantity: %v", err)
	}
}

func TestLiteral(t *testing.T) {
	tests := []struct {
		s            string
		v, precision float64
	}{
		{"642", 642, 0.5}, {"1.2", 1.2, 0.05}, {"0.1020", 0.102, 0.00005}, {"21.145", 21.145, 0.0005},
		{"1.468e-4", 1.468e-4, 0.0005e-4}, {"2.1555e-8", 2.1555e-8, 0.00005e-8},
	}
	for _, tt := range tests {
		v, p := literal(tt.s)
		if v != tt.v || !near(p, tt.precision, 1e-12*tt.precision+1e-300) {
			t.Errorf("literal(%q) = %g, %g; want %g, %g", tt.s, v, p, tt.v, tt.precision)
		}
	}
}
