package testvectors

import (
	"encoding/json"
	"fmt"
)

// Murmur3File is bip37/murmur3_x86_32.json: MurmurHash3 x86_32 outputs from
// Bitcoin Core's hash_tests.cpp.
type Murmur3File struct {
	Source  json.RawMessage `json:"source"`
	Vectors []Murmur3Vector `json:"vectors"`
}

// Murmur3Vector is one hash: MurmurHash3(Seed, Data) == Expected.
type Murmur3Vector struct {
	Seed     Uint32Hex `json:"seed"`
	Data     Hex       `json:"data_hex"`
	Expected Uint32Hex `json:"expected"`
}

// ParseMurmur3 decodes a [Murmur3] file.
func ParseMurmur3(data []byte) (*Murmur3File, error) {
	var f Murmur3File
	return &f, decode(data, &f)
}

func (f *Murmur3File) check() error {
	if len(f.Vectors) == 0 {
		return missing("file", "vectors")
	}
	return nil
}

// BIP37Params are the arguments of Core's CBloomFilter(nElements, nFPRate,
// nTweak, nFlags) constructor.
type BIP37Params struct {
	Elements uint32  `json:"elements"`
	FPRate   float64 `json:"fp_rate"`
	Tweak    uint32  `json:"tweak"`
	Flags    uint8   `json:"flags"`
}

func (p BIP37Params) check(where string) error {
	if p.Elements == 0 {
		return missing(where, "elements")
	}
	if p.FPRate == 0 {
		return missing(where, "fp_rate")
	}
	return nil
}

// BIP37FilterFile is bip37/filter_serialize.json: filters built from
// parameters and inserts, with their exact filterload serialisation.
type BIP37FilterFile struct {
	Source  json.RawMessage     `json:"source"`
	Vectors []BIP37FilterVector `json:"vectors"`
}

// BIP37FilterVector is one constructed filter.
type BIP37FilterVector struct {
	Name string `json:"name"`
	BIP37Params
	Inserts            []Hex  `json:"inserts_hex"`
	ExpectedFilterload Hex    `json:"expected_filterload_hex"`
	ExpectedHashFuncs  uint32 `json:"expected_hash_funcs"`
	ExpectedSizeBytes  int    `json:"expected_size_bytes"`
	ContainsTrue       []Hex  `json:"contains_true"`
	ContainsFalse      []Hex  `json:"contains_false"`
	// AfterClearContainsFalse must not match once the filter's data is zeroed.
	AfterClearContainsFalse []Hex `json:"after_clear_contains_false"`
}

// ParseBIP37Filter decodes a [BIP37Filter] file.
func ParseBIP37Filter(data []byte) (*BIP37FilterFile, error) {
	var f BIP37FilterFile
	return &f, decode(data, &f)
}

func (f *BIP37FilterFile) check() error {
	if len(f.Vectors) == 0 {
		return missing("file", "vectors")
	}
	for i, v := range f.Vectors {
		where := fmt.Sprintf("vector %d", i)
		if err := v.BIP37Params.check(where); err != nil {
			return err
		}
		if len(v.ExpectedFilterload) == 0 {
			return missing(where, "expected_filterload_hex")
		}
	}
	return nil
}

// BIP37Insert is one element inserted into a filter. As says how the bytes
// were formed: "raw", "txid" (a uint256 in internal order, the reverse of
// Display) or "outpoint" (internal txid ‖ uint32le index). Element holds the
// exact bytes to insert in every case.
type BIP37Insert struct {
	As      string `json:"as"`
	Display string `json:"display"`
	Element Hex    `json:"element_hex"`
}

// BIP37MatchFile is bip37/bloom_match.json: transaction matching with Core's
// IsRelevantAndUpdate.
type BIP37MatchFile struct {
	Source       json.RawMessage    `json:"source"`
	Filter       BIP37Params        `json:"filter"`
	Tx           Hex                `json:"tx_hex"`
	TxID         DisplayHash        `json:"txid"`
	SpendingTx   Hex                `json:"spending_tx_hex"`
	SpendingTxID DisplayHash        `json:"spending_txid"`
	Vectors      []BIP37MatchVector `json:"vectors"`
}

// BIP37MatchVector is one case: a fresh filter, one insert, then the listed
// transactions ("tx" or "spending_tx") matched in order against that filter.
type BIP37MatchVector struct {
	Name          string        `json:"name"`
	Insert        BIP37Insert   `json:"insert"`
	ExpectInOrder []BIP37Expect `json:"expect_in_order"`
}

// BIP37Expect is one expected IsRelevantAndUpdate result.
type BIP37Expect struct {
	Tx    string `json:"tx"`
	Match bool   `json:"match"`
}

// ParseBIP37Match decodes a [BIP37Match] file.
func ParseBIP37Match(data []byte) (*BIP37MatchFile, error) {
	var f BIP37MatchFile
	return &f, decode(data, &f)
}

func (f *BIP37MatchFile) check() error {
	if err := f.Filter.check("filter"); err != nil {
		return err
	}
	if len(f.Tx) == 0 {
		return missing("file", "tx_hex")
	}
	for i, v := range f.Vectors {
		if len(v.ExpectInOrder) == 0 {
			return missing(fmt.Sprintf("vector %d", i), "expect_in_order")
		}
		for _, e := range v.ExpectInOrder {
			if e.Tx != "tx" && e.Tx != "spending_tx" {
				return fmt.Errorf("vector %d: unknown transaction %q", i, e.Tx)
			}
		}
	}
	if len(f.Vectors) == 0 {
		return missing("file", "vectors")
	}
	return nil
}

// BIP37MerkleBlockFile is bip37/merkle_blocks.json: Core's CMerkleBlock built
// from a block and a filter that is updated as it goes.
type BIP37MerkleBlockFile struct {
	Source  json.RawMessage          `json:"source"`
	Vectors []BIP37MerkleBlockVector `json:"vectors"`
}

// BIP37MerkleBlockVector is one block and one filter; the steps apply to the
// same filter in order.
type BIP37MerkleBlockVector struct {
	Name      string            `json:"name"`
	BlockHash DisplayHash       `json:"block_hash"`
	Block     Hex               `json:"block_hex"`
	TxCount   int               `json:"block_tx_count"`
	Filter    BIP37Params       `json:"filter"`
	Steps     []BIP37MerkleStep `json:"steps"`
}

// BIP37MerkleStep inserts elements, then builds a merkle block.
// ExpectedMatched is Core's published vMatchedTxn. ExpectedMerkleBlock, when
// present, is Core's published serialisation; DerivedMerkleBlock was computed
// with btcd and checked independently (see the file's format note).
type BIP37MerkleStep struct {
	Insert              []BIP37Insert `json:"insert"`
	ExpectedMatched     []MatchedTx   `json:"expected_matched"`
	ExpectedMerkleBlock Hex           `json:"expected_merkleblock_hex"`
	DerivedMerkleBlock  Hex           `json:"derived_merkleblock_hex"`
}

// MatchedTx is a transaction's index in its block and its txid, written in
// the files as [index, "display hex"].
type MatchedTx struct {
	Index uint32
	TxID  DisplayHash
}

// UnmarshalJSON decodes the two-element array.
func (m *MatchedTx) UnmarshalJSON(b []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil {
		return err
	}
	if len(pair) != 2 {
		return fmt.Errorf("matched tx has %d fields, want [index, txid]", len(pair))
	}
	if err := json.Unmarshal(pair[0], &m.Index); err != nil {
		return err
	}
	return m.TxID.UnmarshalJSON(pair[1])
}

// ParseBIP37MerkleBlock decodes a [BIP37MerkleBlock] file.
func ParseBIP37MerkleBlock(data []byte) (*BIP37MerkleBlockFile, error) {
	var f BIP37MerkleBlockFile
	return &f, decode(data, &f)
}

func (f *BIP37MerkleBlockFile) check() error {
	if len(f.Vectors) == 0 {
		return missing("file", "vectors")
	}
	for i, v := range f.Vectors {
		where := fmt.Sprintf("vector %d", i)
		if len(v.Block) == 0 {
			return missing(where, "block_hex")
		}
		if err := v.Filter.check(where + " filter"); err != nil {
			return err
		}
		if len(v.Steps) == 0 {
			return missing(where, "steps")
		}
	}
	return nil
}
