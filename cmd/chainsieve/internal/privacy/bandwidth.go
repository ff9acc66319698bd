package privacy

import "fmt"

// bar is one bar of the bandwidth chart and the quantity behind it.
type bar struct {
	label string
	q     Quantity
}

func addBandwidth(in *inputs, r *Report) error {
	m, err := measureMerkle(in.bip37.filters[0])
	if err != nil {
		return err
	}
	bars := append(bitcoinBars(in, m), ethBars(in)...)
	s := Section{ID: "bandwidth", Title: "Bandwidth per block",
		Summary: "Bytes a light client receives per block scanned, measured on the embedded real blocks (different chains and eras: " +
			"compare orders of magnitude, not digits) and, when --measured gives them, measured by scans."}
	p := Plot{Section: "bandwidth", ID: "bandwidth", Title: "Bytes per block, by scheme", Bars: true, Y: PlotAxis{Label: "bytes", Log: true},
		Caption: "Bars of the first series are measured on the embedded real blocks or computed from protocol sizes; " +
			"bars of the second, when present, are bytes received per block in real scans (--measured)."}
	embedded := PlotSeries{Name: "embedded data", Kind: Embedded}
	scanned := PlotSeries{Name: "measured scans", Kind: Scan}
	for _, b := range bars {
		s.Quantities = append(s.Quantities, b.q)
		p.Labels = append(p.Labels, b.label)
		embedded.Y, scanned.Y = append(embedded.Y, b.q.Value), append(scanned.Y, Num(nan))
	}
	for _, st := range in.cfg.Measured {
		p.Labels = append(p.Labels, fmt.Sprintf("%s scan (%s)", st.Mode, st.File))
		embedded.Y, scanned.Y = append(embedded.Y, Num(nan)), append(scanned.Y, Num(st.BytesReceived/st.Blocks))
	}
	p.Series = []PlotSeries{embedded}
	if len(in.cfg.Measured) > 0 {
		p.Series = append(p.Series, scanned)
	}
	r.Sections = append(r.Sections, s)
	r.Plots = append(r.Plots, p)
	return nil
}

func bitcoinBars(in *inputs, m merkleSizes) []bar {
	filterload, _ := in.bip37.filters[0].MarshalBinary() // built by New: always encodes
	fixed := float64(headerBytes + filterHashLen + cfilterFixed + 1)
	filter, block := 0.0, 0.0
	for _, b := range in.basic {
		filter, block = filter+float64(b.filterBytes), block+float64(b.blockBytes)
	}
	n := float64(len(in.basic))
	blocks := fmt.Sprintf("mean over the %d official BIP158 test blocks", len(in.basic))
	fp := newBIP158Scan(in.n).fpBlock
	return []bar{
		{"BIP37: merkleblock, no match", Quantity{ID: "bandwidth.bip37_nomatch", Label: "BIP37 merkleblock proving nothing", Value: Num(m.noMatch), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("package bip37, NewMerkleBlock with an empty filter of the wallet filter's shape over a real %d-transaction block: header, count, the root, flags", m.txs), Source: srcEmbeddedBIP37}},
		{"BIP37: merkleblock + 1 transaction", Quantity{ID: "bandwidth.bip37_onematch", Label: "BIP37 merkleblock proving one transaction, and the transaction", Value: Num(m.oneMatch + m.oneTx), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("merkleblock (%d bytes) of the vector's first step plus the matched transaction without witness (%d bytes)", m.oneMatch, m.oneTx), Source: srcEmbeddedBIP37}},
		{"BIP37: filterload, once per peer", Quantity{ID: "bandwidth.bip37_filterload", Label: "BIP37 filterload payload, once per peer and restart", Value: Num(len(filterload)), Unit: "bytes", Kind: Computed,
			Model: "the wallet filter's payload", Source: "BIP 37; package bip37"}},
		{"BIP158: header, filter hash, filter", Quantity{ID: "bandwidth.bip158_filter", Label: "BIP157 header, filter hash and cfilter per block", Value: Num(fixed + filter/n), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("%s fixed bytes plus the filter; %s", format(fixed), blocks), Source: srcBIP157 + "; " + srcEmbeddedBIP158}},
		{"BIP158: block fetched on a match", Quantity{ID: "bandwidth.bip158_block", Label: "BIP158 block download on a match", Value: Num(block / n), Unit: "bytes", Kind: Embedded,
			Model: blocks, Source: srcEmbeddedBIP158}},
		{"BIP158: expected per block for the wallet", Quantity{ID: "bandwidth.bip158_expected", Label: "BIP158 bytes per block without a wallet transaction", Value: Num(fixed + filter/n + fp*block/n), Unit: "bytes", Kind: Embedded,
			Model: "header, filter hash and filter, plus the block times the wallet's false-match rate per block", Source: srcModel}},
	}
}

func ethBars(in *inputs) []bar {
	post := postMerge(in.eth)
	header, receipts := meanHeader(in.eth), meanReceipts(in.eth)
	fp := mean(post, func(b ethStats) float64 { return b.fpWallet(in.n) })
	return []bar{
		{"Ethereum: header", Quantity{ID: "bandwidth.eth_header", Label: "Ethereum header (RLP)", Value: Num(header), Unit: "bytes", Kind: Embedded,
			Model: fmt.Sprintf("mean over the %d embedded mainnet headers", len(in.eth)), Source: srcEmbeddedEth}},
		{"Ethereum: receipts of a fetched block", Quantity{ID: "bandwidth.eth_receipts", Label: "Ethereum receipts of one block (consensus encoding)", Value: Num(receipts), Unit: "bytes", Kind: Embedded,
			Model: "mean over the embedded blocks with receipts", Source: srcEmbeddedEth}},
		{"Ethereum: expected per block for the wallet", Quantity{ID: "bandwidth.eth_expected", Label: "Ethereum bytes per block without a wallet log", Value: Num(header + fp*receipts), Unit: "bytes", Kind: Embedded,
			Model: "header plus receipts times the wallet's post-Merge false-positive rate per block", Source: srcModel}},
	}
}
