// Package testvectors holds the published test vectors chainsieve is checked
// against, embedded in the binary, and decodes every file format among them.
//
// The files are transcribed byte for byte from their sources (see README.md
// for each file's repository, path and commit, and SHA256SUMS for their
// digests); expected values are never edited. The decoders are strict about
// what a check needs (a missing field is an error naming it) and lenient about
// the rest (notes and descriptions are kept as they come), so that any further
// file in the same format can be read and checked too.
//
// Byte orders: Bitcoin block hashes and filter headers appear in the files in
// RPC display order (byte-reversed); [DisplayHash] turns them into the
// internal order that chainhash and the protocols use. Ethereum hashes are
// never reversed.
package testvectors

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed bip37/*.json bip158/*.json ethlogs/*.json descriptor/*.json SHA256SUMS
var files embed.FS

// FS returns the embedded vector files, rooted so that names read
// "bip37/murmur3_x86_32.json".
func FS() fs.FS { return files }

// Files returns the names of the embedded vector files in sorted order.
func Files() []string {
	names, err := fs.Glob(files, "*/*.json")
	if err != nil {
		panic("testvectors: " + err.Error()) // the pattern is constant
	}
	slices.Sort(names)
	return names
}

// Read returns the contents of the embedded file name.
func Read(name string) ([]byte, error) { return files.ReadFile(name) }

// Format names one layout of vector file.
type Format string

// The formats found under the published vectors.
const (
	Murmur3          Format = "bip37-murmur3"     // MurmurHash3 x86_32 (seed, data, expected)
	BIP37Filter      Format = "bip37-filter"      // filter construction and filterload bytes
	BIP37Match       Format = "bip37-match"       // transaction matching with update semantics
	BIP37MerkleBlock Format = "bip37-merkleblock" // merkle blocks built from a filter and a block
	BIP158Table      Format = "bip158-table"      // the official testnet-19 table of basic filters
	BIP158Blocks     Format = "bip158-blocks"     // chained blocks with filters and filter headers
	GCSRaw           Format = "gcs-raw"           // raw Golomb-coded sets and SipHash/hash-to-range
	GCSMatchAny      Format = "gcs-matchany"      // MatchAny against one large filter
	GCSDecode        Format = "gcs-decode"        // malformed encodings and Core's accept/reject
	EthBlocks        Format = "eth-blocks"        // Ethereum headers, logs and receipts
	EthBloom9        Format = "eth-bloom9"        // go-ethereum bloom9 expectations and bit positions
	Descriptor       Format = "descriptor"        // BIP380 output script descriptors and their scripts
)

// Formats lists every format in a stable order.
var Formats = []Format{
	Murmur3, BIP37Filter, BIP37Match, BIP37MerkleBlock,
	BIP158Table, BIP158Blocks, GCSRaw, GCSMatchAny, GCSDecode,
	EthBlocks, EthBloom9, Descriptor,
}

// Detect recognises the format of a vector file from its JSON shape.
func Detect(data []byte) (Format, error) {
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("testvectors: not JSON: %w", err)
	}
	switch t := top.(type) {
	case []any:
		if len(t) > 0 {
			if head, ok := t[0].([]any); ok && len(head) == 1 {
				if s, ok := head[0].(string); ok && strings.HasPrefix(s, "Block Height,Block Hash,Block,") {
					return BIP158Table, nil
				}
			}
		}
		return "", fmt.Errorf("testvectors: unrecognised JSON array (not the BIP158 table layout)")
	case map[string]any:
		if f := detectObject(t); f != "" {
			return f, nil
		}
		return "", fmt.Errorf("testvectors: unrecognised vector file with top-level keys %s", keyList(t))
	}
	return "", fmt.Errorf("testvectors: unrecognised JSON value %T", top)
}

func detectObject(t map[string]any) Format {
	has := func(k string) bool { _, ok := t[k]; return ok }
	first := func(k string) map[string]any {
		if list, ok := t[k].([]any); ok && len(list) > 0 {
			m, _ := list[0].(map[string]any)
			return m
		}
		return nil
	}
	v := first("vectors")
	vhas := func(k string) bool { _, ok := v[k]; return ok }
	switch {
	case has("gcs_vectors") || has("hash_to_range_vectors"):
		return GCSRaw
	case has("main_filter"):
		return GCSMatchAny
	case has("cases") && has("member_script"):
		return GCSDecode
	case has("tx_hex") && has("vectors"):
		return BIP37Match
	case vhas("seed") && vhas("data_hex"):
		return Murmur3
	case vhas("expected_filterload_hex"):
		return BIP37Filter
	case vhas("steps"):
		return BIP37MerkleBlock
	case vhas("block_hex") && vhas("filter"):
		return BIP158Blocks
	case first("blocks") != nil && first("blocks")["headerRlp"] != nil:
		return EthBlocks
	case has("TestBloom") || has("bit_positions"):
		return EthBloom9
	case has("checksums") && has("descriptors"):
		return Descriptor
	}
	return ""
}

func keyList(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

// decode unmarshals data into v and then runs its required-field check.
func decode[T interface{ check() error }](data []byte, v T) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("testvectors: %w", err)
	}
	if err := v.check(); err != nil {
		return fmt.Errorf("testvectors: %w", err)
	}
	return nil
}

// missing builds the error for an absent or empty required field.
func missing(where, field string) error {
	return fmt.Errorf("%s: missing %q", where, field)
}
