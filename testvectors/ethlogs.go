package testvectors

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// EthBlocksFile is an ethlogs/mainnet-*.json file: real Ethereum blocks with
// the consensus header encoding and, except in the header-only summary, every
// log and every receipt.
type EthBlocksFile struct {
	Description string          `json:"description"`
	Source      json.RawMessage `json:"source"`
	Blocks      []EthBlock      `json:"blocks"`
}

// EthBlock is one block. Logs and Receipts are nil in header-only files.
type EthBlock struct {
	Number       uint64       `json:"number"`
	Hash         Hex          `json:"hash"`
	ParentHash   Hex          `json:"parentHash"`
	LogsBloom    Hex          `json:"logsBloom"`
	ReceiptsRoot Hex          `json:"receiptsRoot"`
	HeaderRLP    Hex          `json:"headerRlp"`
	TxCount      int          `json:"txCount"`
	LogCount     int          `json:"logCount"`
	BloomBitsSet int          `json:"bloomBitsSet"`
	Logs         []EthLog     `json:"logs"`
	Receipts     []EthReceipt `json:"receipts"`
}

// EthLog is one log as eth_getLogs reports it; LogIndex is block-wide.
type EthLog struct {
	Address          Hex   `json:"address"`
	Topics           []Hex `json:"topics"`
	Data             Hex   `json:"data"`
	TransactionIndex uint  `json:"transactionIndex"`
	TransactionHash  Hex   `json:"transactionHash"`
	LogIndex         uint  `json:"logIndex"`
}

// EthReceipt is one receipt. Raw is its consensus encoding, the value stored
// in the receipts trie under key rlp(index). Status is set after Byzantium,
// PostState before.
type EthReceipt struct {
	TransactionHash   Hex     `json:"transactionHash"`
	Type              uint8   `json:"type"`
	Status            *uint64 `json:"status"`
	PostState         Hex     `json:"postState"`
	CumulativeGasUsed uint64  `json:"cumulativeGasUsed"`
	LogsBloom         Hex     `json:"logsBloom"`
	LogCount          int     `json:"logCount"`
	Raw               Hex     `json:"raw"`
}

// ParseEthBlocks decodes an [EthBlocks] file.
func ParseEthBlocks(data []byte) (*EthBlocksFile, error) {
	var f EthBlocksFile
	return &f, decode(data, &f)
}

func (f *EthBlocksFile) check() error {
	if len(f.Blocks) == 0 {
		return missing("file", "blocks")
	}
	for _, b := range f.Blocks {
		where := fmt.Sprintf("block %d", b.Number)
		switch {
		case len(b.Hash) != 32:
			return fmt.Errorf("%s: hash of %d bytes, want 32", where, len(b.Hash))
		case len(b.LogsBloom) != 256:
			return fmt.Errorf("%s: logsBloom of %d bytes, want 256", where, len(b.LogsBloom))
		case len(b.HeaderRLP) == 0:
			return missing(where, "headerRlp")
		case len(b.ReceiptsRoot) != 32:
			return fmt.Errorf("%s: receiptsRoot of %d bytes, want 32", where, len(b.ReceiptsRoot))
		}
	}
	return nil
}

// EthBloom9File is ethlogs/geth-bloom9-vectors.json: go-ethereum's
// core/types/bloom9_test.go expectations and the bit positions of common
// values.
type EthBloom9File struct {
	Source       json.RawMessage      `json:"source"`
	Rule         string               `json:"rule"`
	TestBloom    *Bloom9Basic         `json:"TestBloom"`
	Extensive    *Bloom9Extensive     `json:"TestBloomExtensively"`
	CreateBloom  *Bloom9CreateBloom   `json:"BenchmarkCreateBloom_rSmall"`
	BitPositions []Bloom9BitPositions `json:"bit_positions"`
}

// Bloom9Basic is TestBloom: add the strings, then test the others.
type Bloom9Basic struct {
	Add           []string `json:"add_utf8"`
	ExpectTrue    []string `json:"expect_test_true"`
	ExpectFalse   []string `json:"expect_test_false"`
	ComputedBloom Hex      `json:"computed_bloom"`
}

// Bloom9Extensive is TestBloomExtensively: add the generated strings; the
// keccak256 of the 256 bloom bytes is the published expectation.
type Bloom9Extensive struct {
	AddPattern     string `json:"add_utf8_pattern"`
	ComputedBits   int    `json:"computed_bits_set"`
	ComputedBloom  Hex    `json:"computed_bloom"`
	ExpectedKeccak Hex    `json:"expected_keccak256_of_bloom_bytes"`
}

// Inputs expands AddPattern ("text with %d ... for %d in 0..99").
func (e Bloom9Extensive) Inputs() ([][]byte, error) {
	format, rng, ok := strings.Cut(e.AddPattern, " for %d in ")
	lo, hi, ok2 := strings.Cut(rng, "..")
	a, err1 := strconv.Atoi(lo)
	b, err2 := strconv.Atoi(hi)
	if !ok || !ok2 || err1 != nil || err2 != nil || b < a || b-a >= maxGenerated {
		return nil, fmt.Errorf("testvectors: unknown pattern %q", e.AddPattern)
	}
	out := make([][]byte, 0, b-a+1)
	for i := a; i <= b; i++ {
		out = append(out, fmt.Appendf(nil, format, i))
	}
	return out, nil
}

// Bloom9CreateBloom is BenchmarkCreateBloom's small case: receipts given as
// lists of log addresses (no topics).
type Bloom9CreateBloom struct {
	Receipts              [][]Hex `json:"receipts"`
	ComputedReceiptBlooms []Hex   `json:"computed_receipt_blooms"`
	ComputedMergedBloom   Hex     `json:"computed_merged_bloom"`
	ExpectedKeccak        Hex     `json:"expected_keccak256_of_merged_bloom"`
}

// Bloom9BitPositions are the three bloom bits of one value.
type Bloom9BitPositions struct {
	Label  string      `json:"label"`
	Input  Hex         `json:"input"`
	Keccak Hex         `json:"keccak256"`
	Bits   []Bloom9Bit `json:"bits"`
	Bloom  Hex         `json:"bloomOfThisItemAlone"`
}

// Bloom9Bit is one bit: its number in the 2048-bit big-endian integer, and
// the byte and mask it lands on.
type Bloom9Bit struct {
	Bit       uint      `json:"bit"`
	ByteIndex int       `json:"byteIndex"`
	Mask      Uint32Hex `json:"mask"`
}

// ParseEthBloom9 decodes an [EthBloom9] file.
func ParseEthBloom9(data []byte) (*EthBloom9File, error) {
	var f EthBloom9File
	return &f, decode(data, &f)
}

func (f *EthBloom9File) check() error {
	if f.TestBloom == nil && f.Extensive == nil && f.CreateBloom == nil && len(f.BitPositions) == 0 {
		return missing("file", "TestBloom, TestBloomExtensively, BenchmarkCreateBloom_rSmall or bit_positions")
	}
	for i, p := range f.BitPositions {
		if len(p.Bits) != 3 {
			return fmt.Errorf("bit_positions %d (%s): %d bits, want 3", i, p.Label, len(p.Bits))
		}
	}
	return nil
}
