package privacy

import (
	"fmt"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/family"
)

// The family table: every structure at the two rates of docs/filters.md,
// with the rate measured on random non-members.
const (
	familyN      = 100_000
	familyTrials = 1_000_000
)

var familyRates = []float64{0.01, 1 / basicM}

func measureFamily(in *inputs) ([]family.Result, error) {
	var out []family.Result
	for _, eps := range familyRates {
		for _, s := range family.Structures() {
			res, err := familyCell(familyKey{in.cfg.Seed, s.Name, eps}, s)
			if err != nil {
				return nil, err
			}
			out = append(out, res)
			in.step(fmt.Sprintf("%s at ε = %s", s.Name, format(eps)))
		}
	}
	return out, nil
}

var familyMemo memo[familyKey, family.Result]

type familyKey struct {
	seed uint64
	name string
	eps  float64
}

func familyCell(k familyKey, s family.Structure) (family.Result, error) {
	return familyMemo.get(k, func() (family.Result, error) {
		r := stream(k.seed, fmt.Sprintf("family %s %g", k.name, k.eps))
		return family.Measure(s, family.Config{N: familyN, Eps: k.eps, Trials: familyTrials, Seed: r.Uint64()})
	})
}

func familyTable(rows []family.Result) Table {
	t := Table{ID: "bits.family", Title: fmt.Sprintf("The filter family at %s elements", format(familyN)),
		Columns: []Column{
			{Label: "structure", Kind: Input},
			{Label: "ε", Kind: Input},
			{Label: "shape", Kind: Computed, Model: "as sized for n and ε by the structure's New", Source: srcFamily},
			{Label: "bits per element", Unit: "bits", Kind: Simulated, Model: "table bits/n", Source: srcFamily},
			{Label: "predicted rate", Kind: Simulated, Model: "from the built structure's fill or load", Source: srcFamily},
			{Label: "false positives", Kind: Simulated, Model: fmt.Sprintf("of %s random non-members", format(familyTrials)), Source: srcFamily},
			{Label: "measured rate", Kind: Simulated, Model: "false positives / non-members tested; at 1/784,931 a count of about one, see also docs/filters.md for 10^8 trials", Source: srcFamily},
		}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []Cell{textCell(r.Structure), numCell(r.Eps), textCell(r.Params),
			numCell(r.BitsPerElement), numCell(r.EstimatedFPR), numCell(float64(r.FalsePositives)), numCell(r.MeasuredFPR)})
	}
	return t
}
