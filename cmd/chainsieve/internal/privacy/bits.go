package privacy

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/gcs"
)

// bitsN is the number of random elements each structure holds when its bits
// per element are measured: small enough that BIP37's 36,000-byte cap is not
// reached at ε = 1e-8.
const bitsN = 5000

// bitsGrid are the target false-positive rates compared; 1/784931 is BIP158's.
var bitsGrid = []float64{1e-1, 3e-2, 1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1 / basicM, 1e-6, 1e-7, 1e-8}

// bitsRow is one target rate: each structure's size and achieved rate.
type bitsRow struct {
	eps                    float64
	bip37Bits, bip37FP     float64
	classicBits, classicFP float64
	gcsP                   uint8
	gcsM                   uint64
	gcsExpected, gcsBits   float64
}

// optimalP returns the Rice parameter that minimises the expected code
// length for mean delta m.
func optimalP(m float64) uint8 {
	best := uint8(1)
	for p := uint8(2); p <= 32; p++ {
		if golombRiceBits(p, m) < golombRiceBits(best, m) {
			best = p
		}
	}
	return best
}

func measureBits(seed uint64, eps float64) (bitsRow, error) {
	row := bitsRow{eps: eps, gcsM: uint64(math.Round(1 / eps))}
	r := stream(seed, fmt.Sprintf("bits %g", eps))
	els := make([][]byte, bitsN)
	for i := range els {
		els[i] = randomBytes(r, 32)
	}
	if err := row.measureBloom(els, r); err != nil {
		return row, err
	}
	row.gcsP = optimalP(float64(row.gcsM))
	row.gcsExpected = golombRiceBits(row.gcsP, float64(row.gcsM))
	var key gcs.Key
	copy(key[:], randomBytes(r, gcs.KeySize))
	f, err := gcs.Build(gcs.Params{P: row.gcsP, M: row.gcsM}, key, els)
	if err != nil {
		return row, err
	}
	row.gcsBits = 8 * float64(len(f.Bytes())) / bitsN
	return row, nil
}

// measureBloom builds a BIP37 filter (Core's sizing) and a classic
// core/bloom filter holding els and records their size and fill-based rate.
func (row *bitsRow) measureBloom(els [][]byte, r *rand.Rand) error {
	f37, err := bip37.New(bitsN, row.eps, r.Uint32(), bip37.UpdateNone)
	if err != nil {
		return err
	}
	classic, err := bloom.New(bitsN, row.eps)
	if err != nil {
		return err
	}
	for _, e := range els {
		f37.Add(e)
		classic.Add(e)
	}
	row.bip37Bits, row.bip37FP = 8*float64(f37.Size())/bitsN, fillFPRate(f37)
	st := classic.Stats()
	row.classicBits, row.classicFP = float64(st.Bits)/bitsN, st.FalsePositiveRate
	return nil
}

func addBits(in *inputs, r *Report) error {
	rows := make([]bitsRow, len(bitsGrid))
	for i, eps := range bitsGrid {
		var err error
		if rows[i], err = measureBits(in.cfg.Seed, eps); err != nil {
			return err
		}
	}
	r.Sections = append(r.Sections, Section{ID: "bits", Title: "Bits per element against false-positive rate",
		Summary: fmt.Sprintf("Each structure is built with %s random 32-byte elements at each target rate ε: a BIP37 filter with "+
			"Bitcoin Core's sizing (package bip37), the classic Bloom filter of package core/bloom, and a Golomb-coded set "+
			"(package gcs, M = 1/ε, the best Rice parameter). Bloom filters are placed at the rate their fill gives; "+
			"a Golomb-coded set's rate is 1/M exactly.", format(bitsN)),
		Tables: []Table{bitsTable(rows)}})
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
			{Label: "core/bloom", Unit: "bits", Kind: Computed, Model: "m/n", Source: "package core/bloom, New"},
			{Label: "core/bloom rate", Kind: Computed, Model: "fill^k of the built filter", Source: srcBloom},
			{Label: "GCS P", Kind: Computed, Model: "Rice parameter minimising the expected length", Source: srcGolomb},
			{Label: "GCS expected", Unit: "bits", Kind: Computed, Model: "P + 1 + r/(1-r)", Source: srcGolomb},
			{Label: "GCS built", Unit: "bits", Kind: Simulated, Model: "8·bytes/n, prefix and padding included", Source: "package gcs, Build"},
		}}
	for _, w := range rows {
		t.Rows = append(t.Rows, []Cell{numCell(w.eps), numCell(math.Log2(1 / w.eps)), numCell(math.Log2(1/w.eps) / math.Ln2),
			numCell(w.bip37Bits), numCell(w.bip37FP), numCell(w.classicBits), numCell(w.classicFP),
			numCell(float64(w.gcsP)), numCell(w.gcsExpected), numCell(w.gcsBits)})
	}
	return t
}

func bitsPlot(rows []bitsRow) Plot {
	p := Plot{Section: "bits", ID: "bits-per-element", Title: "Bits per element against false-positive rate",
		X: PlotAxis{Label: "false-positive rate ε", Log: true}, Y: PlotAxis{Label: "bits per element"},
		Caption: fmt.Sprintf("Structures built with %s random elements: Bloom filters at the rate their fill gives (fill^k), "+
			"Golomb-coded sets at 1/M; the lower bound log2(1/ε) (Carter et al., 1978) and the Bloom optimum log2(1/ε)/ln 2.", format(bitsN))}
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
	add("BIP37 (Core sizing), built", Computed, true, func(w bitsRow) float64 { return w.bip37FP }, func(w bitsRow) float64 { return w.bip37Bits })
	add("core/bloom, built", Computed, true, func(w bitsRow) float64 { return w.classicFP }, func(w bitsRow) float64 { return w.classicBits })
	add("GCS, Golomb-Rice expectation", Computed, false, func(w bitsRow) float64 { return 1 / float64(w.gcsM) }, func(w bitsRow) float64 { return w.gcsExpected })
	add("GCS, built", Simulated, true, func(w bitsRow) float64 { return 1 / float64(w.gcsM) }, func(w bitsRow) float64 { return w.gcsBits })
	return p
}
