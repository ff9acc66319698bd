package privacy

import (
	"fmt"
	"math"
	"strconv"

	"github.com/chainsieve/chainsieve/core/bloom"
	"github.com/chainsieve/chainsieve/ethlogs"
)

// Parameters of the Ethereum header scan the report models.
const (
	ethBits       = 8 * ethlogs.BloomLength // 2048
	ethHashes     = 3
	ethPerYear    = 2628000 // 12-second slots
	ethSamples    = 200000  // random values tested against each real bloom
	mergeBlock    = 15537394
	ethValueBytes = 32
)

// ethStats are one real block's bloom statistics.
type ethStats struct {
	ethBlock
	fill, sampled float64
}

// fp1 is the block's rate for one value, fill³ (ethlogs.Bloom's
// FalsePositiveRate); fp2 for an address AND a topic, fill⁶.
func (e ethStats) fp1() float64 { return e.bloom.FalsePositiveRate() }
func (e ethStats) fp2() float64 { return e.fp1() * e.fp1() }

// fpWallet is the rate at which the block's bloom passes a query for any of
// n values none of which it holds: 1 - (1 - fill³)^n.
func (e ethStats) fpWallet(n int) float64 {
	return -math.Expm1(float64(n) * math.Log1p(-e.fp1()))
}

var ethMemo memo[uint64, []ethStats] // by seed

// ethAnalysis measures every embedded block, testing the same random values
// against each bloom, once a process.
func ethAnalysis(seed uint64) ([]ethStats, error) {
	return ethMemo.get(seed, func() ([]ethStats, error) { return sampleEthBlocks(seed) })
}

func sampleEthBlocks(seed uint64) ([]ethStats, error) {
	blocks, err := ethBlocks()
	if err != nil {
		return nil, err
	}
	r := stream(seed, "eth values")
	values := make([]ethlogs.Value, ethSamples)
	for i := range values {
		values[i] = ethlogs.ValueOf(randomBytes(r, ethValueBytes))
	}
	out := make([]ethStats, len(blocks))
	for i, b := range blocks {
		hits := 0
		for _, v := range values {
			if b.bloom.TestValue(v) {
				hits++
			}
		}
		out[i] = ethStats{ethBlock: b, fill: b.bloom.Fill(), sampled: float64(hits) / ethSamples}
	}
	return out, nil
}

// postMerge returns the blocks from the Merge on.
func postMerge(blocks []ethStats) []ethStats {
	var out []ethStats
	for _, b := range blocks {
		if b.number >= mergeBlock {
			out = append(out, b)
		}
	}
	return out
}

// mean returns the mean of f over blocks.
func mean(blocks []ethStats, f func(ethStats) float64) float64 {
	s := 0.0
	for _, b := range blocks {
		s += f(b)
	}
	return s / float64(len(blocks))
}

// capacityRate is the single-value false-positive rate of a logsBloom holding
// n distinct values, in the published form (1 - e^(-3n/2048))³.
func capacityRate(n float64) float64 { return bloom.FalsePositiveRate(ethBits, ethHashes, n) }

func addEthereum(in *inputs, r *Report) error {
	blocks, err := ethAnalysis(in.cfg.Seed)
	if err != nil {
		return err
	}
	in.eth = blocks
	post := postMerge(blocks)
	s := Section{ID: "ethereum", Title: "Ethereum: header logsBloom scanning",
		Summary: fmt.Sprintf("A light client tests each header's 2048-bit logsBloom and fetches the receipts of the blocks that pass. "+
			"Saturation is measured on the %d real mainnet headers embedded in testvectors (%d from the Merge on).", len(blocks), len(post))}
	s.Quantities = append(ethSaturation(blocks, post), ethLeak(in, post)...)
	s.Tables = []Table{ethTable(blocks)}
	r.Sections = append(r.Sections, s)
	r.Plots = append(r.Plots, ethPlot(blocks))
	return nil
}

func ethSaturation(blocks, post []ethStats) []Quantity {
	last := blocks[len(blocks)-1]
	postModel := fmt.Sprintf("mean over the %d embedded blocks from the Merge (%d) on; the Merge block itself is saturated (fill 1)", len(post), mergeBlock)
	out := []Quantity{}
	for _, n := range []float64{100, 430, 1080} {
		out = append(out, Quantity{ID: fmt.Sprintf("eth.capacity_%.0f", n), Label: fmt.Sprintf("false-positive rate for one value, %.0f distinct values in the block", n),
			Value: Num(capacityRate(n)), Kind: Computed, Model: "(1 - e^(-3n/2048))³", Source: srcCapacity})
	}
	return append(out,
		Quantity{ID: "eth.fill_postmerge", Label: "fraction of bloom bits set, post-Merge", Value: Num(mean(post, func(b ethStats) float64 { return b.fill })), Kind: Embedded,
			Model: postModel, Source: srcEmbeddedEth},
		Quantity{ID: "eth.fp1_postmerge", Label: "false-positive rate for one value, post-Merge", Value: Num(mean(post, ethStats.fp1)), Kind: Computed,
			Model: "fill³ per block (a value's 3 bits land on set bits), " + postModel, Source: srcEthBloom},
		Quantity{ID: "eth.fp2_postmerge", Label: "false-positive rate for address AND topic, post-Merge", Value: Num(mean(post, ethStats.fp2)), Kind: Computed,
			Model: "fill⁶ per block: both values' 3 bits set, " + postModel, Source: srcEthBloom},
		Quantity{ID: "eth.fp1_latest", Label: fmt.Sprintf("false-positive rate for one value, block %d", last.number), Value: Num(last.fp1()), Kind: Computed,
			Model: fmt.Sprintf("fill³ with fill %s of the newest embedded block", format(last.fill)), Source: srcEmbeddedEth},
		Quantity{ID: "eth.sampled_latest", Label: fmt.Sprintf("false-positive rate sampled, block %d", last.number), Value: Num(last.sampled), Kind: Simulated,
			Model: fmt.Sprintf("share of %s random 32-byte values whose 3 bloom bits are set (package ethlogs)", format(ethSamples)), Source: srcEmbeddedEth},
	)
}

// ethLeak models a wallet of N addresses scanning a year of headers, its
// addresses watched as log topics (OR), and what its RPC provider learns.
func ethLeak(in *inputs, post []ethStats) []Quantity {
	fp := mean(post, func(b ethStats) float64 { return b.fpWallet(in.n) })
	t := min(float64(in.n), ethPerYear)
	fetched := t + (ethPerYear-t)*fp
	watch := fmt.Sprintf("the wallet watches its %d addresses as log topics (OR), each active in one block of its own; post-Merge fills", in.n)
	receipts := meanReceipts(in.eth)
	return []Quantity{
		{ID: "eth.scan_blocks", Label: "blocks scanned", Value: ethPerYear, Kind: Input, Model: "one year of slots", Source: srcSlots},
		{ID: "eth.fp_wallet", Label: "false-positive rate per block for the wallet", Value: Num(fp), Kind: Computed,
			Model: "mean over post-Merge blocks of 1 - (1 - fill³)^N", Assumptions: watch, Source: srcEthBloom},
		{ID: "eth.false_blocks", Label: "blocks whose receipts are fetched for nothing", Value: Num((ethPerYear - t) * fp), Kind: Computed,
			Model: "(H - t)·rate", Assumptions: watch, Source: srcModel},
		candidateQuantity("eth.candidates_1", "candidate values consistent with the fetched blocks (values active in 1 block)", in, fetched, ethPerYear, 1),
		{ID: "eth.getlogs_revealed", Label: "values eth_getLogs reveals to the provider", Value: Num(in.n), Kind: Computed,
			Model:  "eth_getLogs sends every address and topic in the request itself; fetching receipts by block hash reveals only the blocks",
			Source: srcRPC},
		{ID: "eth.header_bytes", Label: "header bytes per block", Value: Num(meanHeader(in.eth)), Unit: "bytes", Kind: Embedded,
			Model: "mean RLP header size of the embedded blocks (JSON-RPC sends it as hex, about twice as long)", Source: srcEmbeddedEth},
		{ID: "eth.receipt_bytes", Label: "receipt bytes per fetched block", Value: Num(receipts), Unit: "bytes", Kind: Embedded,
			Model: "mean consensus-encoded receipts of the embedded blocks with receipts (JSON-RPC sends more)", Source: srcEmbeddedEth},
		{ID: "eth.year_receipts", Label: "receipt bytes fetched in a year", Value: Num(fetched * receipts), Unit: "bytes", Kind: Computed,
			Model: "blocks fetched × mean receipt bytes", Assumptions: watch, Source: srcModel},
	}
}

func meanHeader(blocks []ethStats) float64 {
	return mean(blocks, func(b ethStats) float64 { return float64(b.headerBytes) })
}

func meanReceipts(blocks []ethStats) float64 {
	s, n := 0.0, 0.0
	for _, b := range blocks {
		if b.receiptBytes > 0 {
			s, n = s+float64(b.receiptBytes), n+1
		}
	}
	return s / n
}

func ethTable(blocks []ethStats) Table {
	t := Table{ID: "eth.blocks", Title: "Header blooms of the embedded mainnet blocks",
		Columns: []Column{
			{Label: "block"},
			{Label: "logs", Kind: Embedded, Source: srcEmbeddedEth},
			{Label: "fill", Kind: Embedded, Model: "bits set / 2048", Source: srcEmbeddedEth},
			{Label: "fill³", Kind: Computed, Model: "false-positive rate for one value", Source: srcEthBloom},
			{Label: "fill⁶", Kind: Computed, Model: "for address AND topic", Source: srcEthBloom},
			{Label: "sampled", Kind: Simulated, Model: fmt.Sprintf("share of %s random values testing positive", format(ethSamples)), Source: srcModel},
			{Label: "values estimated", Kind: Computed, Model: "-(2048/3)·ln(1 - fill)", Source: srcSwamidas},
			{Label: "values counted", Kind: Embedded, Model: "distinct addresses and topics of the block's logs (full blocks only)", Source: srcEmbeddedEth},
			{Label: "fill predicted", Kind: Computed, Model: "1 - (1 - 1/2048)^(3·values counted)", Source: srcBloom},
		}}
	for _, b := range blocks {
		counted, predicted := math.NaN(), math.NaN()
		if b.distinct > 0 {
			counted, predicted = float64(b.distinct), bloom.ExpectedFill(ethBits, ethHashes, float64(b.distinct))
		}
		est := bloom.EstimatedCount(ethBits, ethHashes, b.fill*ethBits)
		t.Rows = append(t.Rows, []Cell{textCell(strconv.FormatUint(b.number, 10)), numCell(float64(b.logs)), numCell(b.fill),
			numCell(b.fp1()), numCell(b.fp2()), numCell(b.sampled), numCell(est), numCell(counted), numCell(predicted)})
	}
	return t
}

func ethPlot(blocks []ethStats) Plot {
	p := Plot{Section: "ethereum", ID: "eth-saturation", Title: "Ethereum logsBloom saturation on real mainnet headers",
		X: PlotAxis{Label: "block number"}, Y: PlotAxis{Label: "fraction", Log: true},
		Caption: fmt.Sprintf("Fill (bits set / 2048) of the %d embedded mainnet header blooms, the false-positive rate for one value "+
			"(fill³) and for an address AND a topic (fill⁶), and the rate sampled with %s random values (package ethlogs). "+
			"Points at zero (old, nearly empty blooms) are off the log scale.", len(blocks), format(ethSamples))}
	series := []struct {
		name string
		kind Kind
		f    func(ethStats) float64
		pts  bool
	}{
		{"fill", Embedded, func(b ethStats) float64 { return b.fill }, false},
		{"fill³ (one value)", Computed, ethStats.fp1, false},
		{"fill⁶ (address AND topic)", Computed, ethStats.fp2, false},
		{"sampled (one value)", Simulated, func(b ethStats) float64 { return b.sampled }, true},
	}
	for _, s := range series {
		ps := PlotSeries{Name: s.name, Kind: s.kind, Points: s.pts}
		for _, b := range blocks {
			ps.X, ps.Y = append(ps.X, Num(b.number)), append(ps.Y, Num(s.f(b)))
		}
		p.Series = append(p.Series, ps)
	}
	return p
}
