package privacy

import (
	"bytes"
	"fmt"
	"strings"
	"text/tabwriter"
)

// Markdown renders the report as Markdown. Plots are referenced as the
// <id>.svg files written beside it.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", r.Title)
	b.WriteString("## Key findings\n\n")
	for _, f := range r.KeyFindings {
		fmt.Fprintf(&b, "- **%s.** %s\n", mdText(f.Scheme), mdText(f.Text))
	}
	b.WriteString("\nEach number above is one of the report's quantities or reproductions below, where its model, assumptions and source are given.\n\n")
	fmt.Fprintf(&b, "Written by `%s`. The same command and seed give the same report. Every number states its kind "+
		"(%s), its model, its assumptions and its source; report.json holds them all, and each plot's data is in its CSV file.\n\n",
		r.Command, kindList())
	b.WriteString("## Inputs\n\n")
	writeQuantities(&b, r.Inputs)
	b.WriteString("## Reproductions of published results\n\n")
	writeReproductions(&b, r.Reproductions)
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.Title, s.Summary)
		if len(s.Quantities) > 0 {
			writeQuantities(&b, s.Quantities)
		}
		for _, t := range s.Tables {
			writeTable(&b, t)
		}
		for _, p := range r.Plots {
			if p.Section == s.ID {
				fmt.Fprintf(&b, "### %s\n\n![%s](%s.svg)\n\n%s Data: `%s.csv`.\n\n", p.Title, mdText(p.Title), p.ID, mdText(p.Caption), p.ID)
			}
		}
	}
	b.WriteString("## Notes\n\n")
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "- %s\n", mdText(n))
	}
	return b.Bytes()
}

func kindList() string {
	kinds := []string{string(Input), string(Computed), string(Simulated), string(Embedded), string(Scan), string(Published)}
	return strings.Join(kinds, "; ")
}

func writeQuantities(b *bytes.Buffer, qs []Quantity) {
	b.WriteString("| quantity | value | kind | model and assumptions | source |\n|---|--:|---|---|---|\n")
	for _, q := range qs {
		model := q.Model
		if q.Assumptions != "" {
			model += ". Assumptions: " + q.Assumptions
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", mdText(q.Label), q.display(), q.Kind, mdText(model), mdText(q.Source))
	}
	b.WriteString("\n")
}

// display is the value as a reader sees it, with its unit.
func (q Quantity) display() string {
	v := q.Text
	if v == "" {
		v = format(float64(q.Value))
	}
	if q.Unit != "" {
		v += " " + q.Unit
	}
	return v
}

func writeReproductions(b *bytes.Buffer, rs []Reproduction) {
	b.WriteString("| reproduction | published | computed | difference | model | note | source |\n|---|--:|--:|--:|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mdText(r.Claim), mdText(r.AsWritten),
			exact(r.Computed), r.differenceText(), mdText(r.Model), mdText(r.Note), mdText(r.Source))
	}
	b.WriteString("\n")
}

// differenceText is the difference with its relative size, and a mark where
// the data compared differ by design.
func (r Reproduction) differenceText() string {
	d := float64(r.Difference)
	s := sig(d, 3)
	if d > 0 {
		s = "+" + s
	}
	if p := float64(r.Published); p != 0 && d != 0 {
		s += fmt.Sprintf(" (%+.2g %%)", 100*d/p)
	}
	if !r.Reproduced {
		s += " (data differ)"
	}
	return s
}

func writeTable(b *bytes.Buffer, t Table) {
	fmt.Fprintf(b, "### %s\n\n|", t.Title)
	for _, c := range t.Columns {
		fmt.Fprintf(b, " %s |", mdText(c.heading()))
	}
	b.WriteString("\n|" + strings.Repeat("--:|", len(t.Columns)) + "\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			fmt.Fprintf(b, " %s |", c.display())
		}
		b.WriteString("\n")
	}
	b.WriteString("\nColumns: ")
	var notes []string
	for _, c := range t.Columns {
		if d := c.describe(); d != "" {
			notes = append(notes, fmt.Sprintf("*%s* — %s", mdText(c.Label), mdText(d)))
		}
	}
	b.WriteString(strings.Join(notes, ". ") + ".\n\n")
}

// describe is the column's kind, model and source, as far as it has them.
func (c Column) describe() string {
	var parts []string
	for _, p := range []string{string(c.Kind), c.Model} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	s := strings.Join(parts, "; ")
	if c.Source != "" {
		s += " (" + c.Source + ")"
	}
	return s
}

func (c Column) heading() string {
	if c.Unit != "" {
		return c.Label + " (" + c.Unit + ")"
	}
	return c.Label
}

func (c Cell) display() string {
	if c.Value == nil {
		return mdText(c.Text)
	}
	return format(float64(*c.Value))
}

// mdText escapes the characters that would break a Markdown table cell.
func mdText(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// ReproductionTable returns the reproductions as an aligned plain-text
// table, as the command prints it.
func (r *Report) ReproductionTable() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "reproduction\tpublished\tcomputed\tdifference\tsource")
	for _, x := range r.Reproductions {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", x.ID, x.AsWritten, exact(x.Computed),
			x.differenceText(), shortSource(x.Source))
	}
	w.Flush()
	return b.String()
}

// shortSource is a source's first clause, for narrow tables.
func shortSource(s string) string {
	s, _, _ = strings.Cut(s, ";")
	s, _, _ = strings.Cut(s, ":")
	s, _, _ = strings.Cut(s, ",")
	return s
}
