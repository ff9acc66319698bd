package privacy

// Kind says where a number comes from.
type Kind string

// The kinds of number in a report.
const (
	Input     Kind = "input"                     // given on the command line or defaulted
	Computed  Kind = "computed"                  // a formula evaluated on inputs and real filters
	Simulated Kind = "simulated"                 // counted over seeded random trials
	Embedded  Kind = "measured on embedded data" // measured on the real data embedded in testvectors
	Scan      Kind = "measured by a scan"        // read from a scan's --stats file
	Published Kind = "published"                 // a figure from the literature
)

// Quantity is one number of the report with everything a reader needs to
// judge it.
type Quantity struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Value       Num    `json:"value"`
	Text        string `json:"text,omitempty"` // the value as text where rounding would lose it (a seed)
	Unit        string `json:"unit,omitempty"`
	Kind        Kind   `json:"kind"`
	Model       string `json:"model"`
	Assumptions string `json:"assumptions,omitempty"`
	Source      string `json:"source"`
}

// Section is one part of the report: a scheme, or a comparison.
type Section struct {
	ID         string     `json:"id"`
	Title      string     `json:"title"`
	Summary    string     `json:"summary"`
	Quantities []Quantity `json:"quantities"`
	Tables     []Table    `json:"tables,omitempty"`
}

// Table is a table of per-item numbers (one row per block, per ε, …);
// each column's model and source are given once for the whole column.
type Table struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Columns []Column `json:"columns"`
	Rows    [][]Cell `json:"rows"`
}

// Column describes a table column.
type Column struct {
	Label  string `json:"label"`
	Unit   string `json:"unit,omitempty"`
	Kind   Kind   `json:"kind,omitempty"`
	Model  string `json:"model,omitempty"`
	Source string `json:"source,omitempty"`
}

// Cell is a table entry: a number, or text (such as a name).
type Cell struct {
	Value *Num   `json:"value,omitempty"`
	Text  string `json:"text,omitempty"`
}

func numCell(v float64) Cell { n := Num(v); return Cell{Value: &n} }
func textCell(s string) Cell { return Cell{Text: s} }

// Reproduction compares a published figure with chainsieve's computation of
// it.
type Reproduction struct {
	ID         string `json:"id"`
	Claim      string `json:"claim"`
	Source     string `json:"source"`
	Published  Num    `json:"published"`
	AsWritten  string `json:"publishedAs"` // the published figure as written, trailing zeros kept
	Precision  Num    `json:"precision"`   // half a unit of its last digit
	Computed   Num    `json:"computed"`
	Difference Num    `json:"difference"` // computed - published
	Unit       string `json:"unit,omitempty"`
	Model      string `json:"model"`
	Note       string `json:"note,omitempty"`
	// Reproduced is false only where the compared data differ by design
	// (the note says how).
	Reproduced bool `json:"reproduced"`
}

// Report is the whole privacy and cost comparison.
type Report struct {
	Title         string         `json:"title"`
	Command       string         `json:"command"`
	KeyFindings   []Finding      `json:"keyFindings"`
	Inputs        []Quantity     `json:"inputs"`
	Sections      []Section      `json:"sections"`
	Reproductions []Reproduction `json:"reproductions"`
	Plots         []Plot         `json:"plots"`
	Notes         []string       `json:"notes"`
}
