package privacy

import (
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/family"
)

// bitsN is the number of random elements each structure holds when its bits
// per element are measured: small enough that BIP37's 36,000-byte cap is not
// reached at ε = 1e-8.
const bitsN = 5000

// bitsGrid are the target false-positive rates compared; 1/784931 is BIP158's.
var bitsGrid = []float64{1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1 / basicM, 1e-6, 1e-7, 1e-8}

// bitsRow is one target rate: BIP37's size and achieved rate, and each
// structure of the filter family (package family, the measurements of
// docs/filters.md) in family.Structures order.
type bitsRow struct {
	eps              float64
	bip37Bits, bip37 float64
	family           []family.Result
}

var bitsMemo memo[bitsKey, bitsRow]

type bitsKey struct {
	seed uint64
	eps  float64
}

// measureBits is one row of the bits table, measured once a process.
func measureBits(seed uint64, eps float64) (bitsRow, error) {
	return bitsMemo.get(bitsKey{seed, eps}, func() (bitsRow, error) { return bitsRowOf(seed, eps) })
}

func bitsRowOf(seed uint64, eps float64) (bitsRow, error) {
	row := bitsRow{eps: eps}
	r := stream(seed, fmt.Sprintf("bits %g", eps))
	els := make([][]byte, bitsN)
	for i := range els {
		els[i] = randomBytes(r, 32)
	}
	f37, err := bip37.New(bitsN, eps, r.Uint32(), bip37.UpdateNone)
	if err != nil {
		return row, err
	}
	for _, e := range els {
		f37.Add(e)
	}
	row.bip37Bits, row.bip37 = 8*float64(f37.Size())/bitsN, f37.FilledFalsePositiveRate()
	for _, s := range family.Structures() {
		res, err := family.Measure(s, family.Config{N: bitsN, Eps: eps, Seed: r.Uint64()})
		if err != nil {
			return row, err
		}
		row.family = append(row.family, res)
	}
	return row, nil
}

// bitsSteps is the number of progress steps addBits reports: one per
// target rate, one per structure and rate of the family table.
func bitsSteps() int { return len(bitsGrid) + len(familyRates)*len(family.Structures()) }

func addBits(in *inputs, r *Report) error {
	rows := make([]bitsRow, len(bitsGrid))
	for i, eps := range bitsGrid {
		var err error
		if rows[i], err = measureBits(in.cfg.Seed, eps); err != nil {
			return err
		}
		in.step(fmt.Sprintf("bits per element at ε = %s", format(eps)))
	}
	fam, err := measureFamily(in)
	if err != nil {
		return err
	}
	r.Sections = append(r.Sections, Section{ID: "bits", Title: "Bits per element against false-positive rate",
		Summary: fmt.Sprintf("Each structure is built with %s random 32-byte elements at each target rate ε: a BIP37 filter with "+
			"Bitcoin Core's sizing (package bip37) and every structure of chainsieve's filter family (package "+
			"cmd/chainsieve/internal/family; see also docs/filters.md): the classic, partitioned, blocked, "+
			"counting and scalable Bloom filters, the cuckoo filter and a Golomb-coded set (M = 1/ε, the best Rice parameter). "+
			"Each is placed at the rate its own state predicts (a Bloom filter's fill, a cuckoo filter's load; a Golomb-coded "+
			"set's rate is 1/M). The second table measures the family at %s elements against %s random non-members.",
			format(bitsN), format(familyN), format(familyTrials)),
		Tables: []Table{bitsTable(rows), familyTable(fam)}})
	r.Plots = append(r.Plots, bitsPlot(rows))
	return nil
}

func bitsTable(rows []bitsRow) Table {
	t := Table{ID: "bits.table", Title: "Bits per element at each target rate",
		Columns: []Column{
			{Label: "ε", Kind: Input},
			{Label: "log2(1/ε)", Unit: "bits", Kind: Computed, Model: "lower bound", Source: srcBound},
			{Label: "Bloom optimum", Unit: "bits", Kind: Computed, Model: "log2(1/ε)/ln 2, the optimum with a real-valued k", Source: srcBloom},
			{Label: "BIP37", Unit: "bits", Kind: Computed, Model: "8·size/n, Core's sizing", Source: srcCore},
			{Label: "BIP37 rate", Kind: Computed, Model: "fill^k of the built filter", Source: srcBloom},
		}}
	for _, s := range family.Structures() {
		t.Columns = append(t.Columns, Column{Label: s.Name, Unit: "bits", Kind: Simulated,
			Model: "table bits/n of the built structure: " + s.Sizing, Source: "package " + s.Package})
	}
	for _, w := range rows {
		cells := []Cell{numCell(w.eps), numCell(math.Log2(1 / w.eps)), numCell(math.Log2(1/w.eps) / math.Ln2),
			numCell(w.bip37Bits), numCell(w.bip37)}
		for _, f := range w.family {
			cells = append(cells, numCell(f.BitsPerElement))
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

func bitsPlot(rows []bitsRow) Plot {
	p := Plot{Section: "bits", ID: "bits-per-element", Title: "Bits per element against false-positive rate",
		X: PlotAxis{Label: "false-positive rate ε", Log: true}, Y: PlotAxis{Label: "bits per element"},
		Caption: fmt.Sprintf("Structures built with %s random elements, each at the rate its own state predicts (a Bloom "+
			"filter's fill, a cuckoo filter's load, a Golomb-coded set's 1/M); the lower bound log2(1/ε) (Carter et al., "+
			"1978) and the Bloom optimum log2(1/ε)/ln 2. Each structure of the family is sized by its own New (see also docs/filters.md).", format(bitsN))}
	add := func(name string, kind Kind, pts bool, x, y func(bitsRow) float64) {
		s := PlotSeries{Name: name, Kind: kind, Points: pts}
		for _, w := range rows {
			s.X, s.Y = append(s.X, Num(x(w))), append(s.Y, Num(y(w)))
		}
		p.Series = append(p.Series, s)
	}
	eps := func(w bitsRow) float64 { return w.eps }
	add("lower bound log2(1/ε)", Computed, false, eps, func(w bitsRow) float64 { return math.Log2(1 / w.eps) })
	add("Bloom optimum", Computed, false, eps, func(w bitsRow) float64 { return math.Log2(1/w.eps) / math.Ln2 })
	add("BIP37 (Core sizing)", Computed, true, func(w bitsRow) float64 { return w.bip37 }, func(w bitsRow) float64 { return w.bip37Bits })
	for i, s := range family.Structures() {
		add(s.Name, Simulated, false, func(w bitsRow) float64 { return w.family[i].EstimatedFPR },
			func(w bitsRow) float64 { return w.family[i].BitsPerElement })
	}
	return p
}
