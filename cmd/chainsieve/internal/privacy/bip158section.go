package privacy

import (
	"fmt"
	"math"

	"github.com/chainsieve/chainsieve/gcs"
)

// Parameters of the BIP158 scan the report models.
const (
	basicM        = float64(gcs.BasicM)
	blocksPerYear = 52560  // 144 a day at the 600-second target
	headerBytes   = 80     // a Bitcoin block header
	filterHashLen = 32     // one filter hash per block in cfheaders
	cfilterFixed  = 1 + 32 // filter type and block hash in a cfilter message
	syntheticN    = 50000  // elements of the random set whose code length is measured
)

// bip158Scan is a one-year BIP158 scan of a wallet of n scripts.
type bip158Scan struct {
	n, trueBlocks, fpBlock, falseBlocks, fetched float64
}

// newBIP158Scan models the scan: each of the wallet's n scripts is active in
// one block of its own, and every other block is fetched when its filter
// falsely matches one of the n scripts.
func newBIP158Scan(n int) bip158Scan {
	s := bip158Scan{n: float64(n), trueBlocks: min(float64(n), blocksPerYear), fpBlock: falseMatchRate(n, basicM)}
	s.falseBlocks = (blocksPerYear - s.trueBlocks) * s.fpBlock
	s.fetched = s.trueBlocks + s.falseBlocks
	return s
}

func addBIP158(in *inputs, r *Report) error {
	blocks, err := basicBlocks()
	if err != nil {
		return err
	}
	in.basic = blocks
	bits, err := bitsQuantities(in, blocks)
	if err != nil {
		return err
	}
	scan := newBIP158Scan(in.n)
	s := Section{ID: "bip158", Title: "BIP157/158: compact block filters",
		Summary: "The client downloads every block's filter and matches its own scripts locally; the peer learns only which " +
			"blocks the client then fetches. Filters are built with package gcs; bits per element are measured on real and synthetic sets."}
	s.Quantities = append(scan.quantities(in), bits...)
	s.Quantities = append(s.Quantities, bip158Bandwidth(blocks)...)
	s.Tables = []Table{basicTable(blocks)}
	r.Sections = append(r.Sections, s)
	return nil
}

func (sc bip158Scan) quantities(in *inputs) []Quantity {
	scripts := fmt.Sprintf("the wallet queries its %d scripts, each active in one block of its own; a one-year scan of %s blocks",
		in.n, format(blocksPerYear))
	return []Quantity{
		{ID: "bip158.fp_item", Label: "false-match rate per script per filter", Value: Num(1 / basicM), Kind: Computed,
			Model: "1/M: a script's hash lands on one of the filter's N values out of N·M", Source: srcBIP158},
		{ID: "bip158.fp_block", Label: "false-match rate per block for the wallet", Value: Num(sc.fpBlock), Kind: Computed,
			Model: "1 - (1 - 1/M)^N for N distinct scripts", Assumptions: scripts, Source: srcBIP158},
		{ID: "bip158.scan_blocks", Label: "blocks scanned", Value: blocksPerYear, Kind: Input,
			Model: "one year of blocks", Source: srcSpacing},
		{ID: "bip158.false_blocks", Label: "blocks fetched for nothing", Value: Num(sc.falseBlocks), Kind: Computed,
			Model: "(H - t)·(1 - (1 - 1/M)^N) over the H - t blocks without a wallet transaction", Assumptions: scripts, Source: srcBIP158},
		{ID: "bip158.fetched", Label: "blocks fetched", Value: Num(sc.fetched), Kind: Computed,
			Model: "t true blocks plus the false ones", Assumptions: scripts, Source: srcModel},
		candidateQuantity("bip158.candidates_1", "candidate scripts consistent with the fetches (scripts active in 1 block)", in, sc.fetched, blocksPerYear, 1),
		candidateQuantity("bip158.candidates_2", "candidate scripts consistent with the fetches (scripts active in 2 blocks)", in, sc.fetched, blocksPerYear, 2),
	}
}

// candidateQuantity is the fetch-pattern leak: how many of S candidates an
// observer of D fetched blocks out of H cannot rule out.
func candidateQuantity(id, label string, in *inputs, fetched, h float64, a int) Quantity {
	return Quantity{ID: id, Label: label, Value: Num(candidateSet(float64(in.n), in.s, fetched, h, a)), Kind: Computed,
		Model: fmt.Sprintf("N + (S - N)·C(D, %d)/C(H, %d): a candidate active in %d block(s) is consistent when all lie among the D fetched", a, a, a),
		Assumptions: "the S candidates are active in the scanned range, each in blocks drawn uniformly; real activity clusters, " +
			"so this is an upper bound on the anonymity set",
		Source: srcModel}
}

// bitsQuantities are the code length per element: by theory, and measured on
// the embedded and synthetic sets.
func bitsQuantities(in *inputs, blocks []basicBlock) ([]Quantity, error) {
	benchN, benchSize, err := coreBenchFilter()
	if err != nil {
		return nil, err
	}
	randBits, err := randomSetBits(in.cfg.Seed, syntheticN, gcs.Params{P: gcs.BasicP, M: gcs.BasicM})
	if err != nil {
		return nil, err
	}
	total, codes, n := 0, 0, 0
	for _, b := range blocks {
		if b.n > 0 {
			total, codes, n = total+8*b.filterBytes, codes+8*(b.filterBytes-b.prefixBytes()), n+b.n
		}
	}
	return []Quantity{
		{ID: "bip158.bits_theory", Label: "bits per element, Golomb-Rice expectation", Value: Num(gcs.RiceBits(gcs.BasicP, basicM)), Kind: Computed,
			Model: "P + 1 + r/(1-r), r = (1 - 1/M)^(2^P), for geometric deltas of mean M; excludes the N prefix and padding", Source: srcGolomb},
		{ID: "bip158.bits_entropy", Label: "bits per element, entropy of the deltas", Value: Num(geometricEntropy(basicM)), Kind: Computed,
			Model: "what any code of the geometric deltas needs at least", Source: srcGolomb},
		{ID: "bip158.bits_bound", Label: "bits per element, lower bound log2(1/ε)", Value: Num(math.Log2(basicM)), Kind: Computed,
			Model: "ε = 1/M", Source: srcBound},
		{ID: "bip158.bits_core_bench", Label: "bits per element, Core's 10,000-element bench set", Value: Num(8 * float64(benchSize) / float64(benchN)), Kind: Embedded,
			Model: "8·bytes / N, prefix and padding included", Source: srcEmbeddedGCS},
		{ID: "bip158.bits_random", Label: fmt.Sprintf("bits per element, %s random elements", format(syntheticN)), Value: Num(randBits), Kind: Simulated,
			Model: "8·bytes / N of a set of random 32-byte elements under a random key, built with package gcs", Source: srcModel},
		{ID: "bip158.bits_testnet", Label: "bits per element, the BIP158 testnet blocks", Value: Num(float64(total) / float64(n)), Kind: Embedded,
			Model:       fmt.Sprintf("8·bytes / N summed over the %d blocks with elements (%d elements), prefix and padding included", countNonEmpty(blocks), n),
			Assumptions: "tiny test-network blocks: the one-byte prefix and up to seven padding bits weigh heavily at N of 1 to 13",
			Source:      srcEmbeddedBIP158},
		{ID: "bip158.bits_testnet_codes", Label: "bits per element, the testnet blocks' codes alone", Value: Num(float64(codes) / float64(n)), Kind: Embedded,
			Model: "as above without the CompactSize prefix (padding still included)", Source: srcEmbeddedBIP158},
	}, nil
}

func countNonEmpty(blocks []basicBlock) int {
	c := 0
	for _, b := range blocks {
		if b.n > 0 {
			c++
		}
	}
	return c
}

// randomSetBits builds a set of n random 32-byte elements and returns its
// size in bits per element.
func randomSetBits(seed uint64, n int, p gcs.Params) (float64, error) {
	r := stream(seed, fmt.Sprintf("gcs random set %d %d", p.P, p.M))
	var key gcs.Key
	copy(key[:], randomBytes(r, gcs.KeySize))
	els := make([][]byte, n)
	for i := range els {
		els[i] = randomBytes(r, 32)
	}
	f, err := gcs.Build(p, key, els)
	if err != nil {
		return 0, err
	}
	return 8 * float64(len(f.Bytes())) / float64(f.Len()), nil
}

// bip158Bandwidth are the per-block costs of a BIP157 client.
func bip158Bandwidth(blocks []basicBlock) []Quantity {
	filter, block := 0.0, 0.0
	for _, b := range blocks {
		filter += float64(b.filterBytes)
		block += float64(b.blockBytes)
	}
	n := float64(len(blocks))
	return []Quantity{
		{ID: "bip158.bytes_fixed", Label: "bytes per block before the filter", Value: headerBytes + filterHashLen + cfilterFixed + 1, Unit: "bytes", Kind: Computed,
			Model: "80-byte header, 32-byte filter hash (cfheaders), filter type and block hash and a one-byte length (cfilter)", Source: srcBIP157},
		{ID: "bip158.filter_bytes", Label: "filter bytes per block, testnet blocks", Value: Num(filter / n), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("mean over the %d official BIP158 blocks", len(blocks)), Source: srcEmbeddedBIP158},
		{ID: "bip158.block_bytes", Label: "block bytes fetched on a match, testnet blocks", Value: Num(block / n), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("mean size of the %d official BIP158 blocks", len(blocks)), Source: srcEmbeddedBIP158},
		{ID: "bip158.year_headers", Label: "header chain and filter hashes for a year", Value: blocksPerYear * (headerBytes + filterHashLen), Unit: "bytes", Kind: Computed,
			Model: "52,560 × (80 + 32) bytes", Source: srcBIP157},
	}
}

// basicTable lists the embedded BIP158 blocks.
func basicTable(blocks []basicBlock) Table {
	t := Table{ID: "bip158.blocks", Title: "Basic filters of the official BIP158 test blocks, rebuilt with package gcs",
		Columns: []Column{
			{Label: "block"},
			{Label: "block", Unit: "bytes", Kind: Embedded, Source: srcEmbeddedBIP158},
			{Label: "N", Kind: Embedded, Model: "distinct elements", Source: srcEmbeddedBIP158},
			{Label: "filter", Unit: "bytes", Kind: Embedded, Source: srcEmbeddedBIP158},
			{Label: "bits per element", Kind: Embedded, Model: "8·filter bytes / N", Source: srcEmbeddedBIP158},
		}}
	for _, b := range blocks {
		per := math.NaN()
		if b.n > 0 {
			per = 8 * float64(b.filterBytes) / float64(b.n)
		}
		t.Rows = append(t.Rows, []Cell{textCell(b.name), numCell(float64(b.blockBytes)), numCell(float64(b.n)), numCell(float64(b.filterBytes)), numCell(per)})
	}
	return t
}
