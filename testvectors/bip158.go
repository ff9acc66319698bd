package testvectors

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// BIP158Row is one row of the official BIP158 table (bip158/testnet-19.json):
// a block, the scripts its inputs spend, and its basic filter and header.
type BIP158Row struct {
	Height            uint32
	BlockHash         DisplayHash
	Block             Hex
	PrevOutputScripts []Hex // input order, coinbase excluded; empty = empty script
	PrevHeader        DisplayHash
	Filter            Hex // CompactSize N ‖ Golomb-Rice bytes, not reversed
	Header            DisplayHash
	Notes             string
}

// ParseBIP158Table decodes a [BIP158Table] file, skipping its header row.
func ParseBIP158Table(data []byte) ([]BIP158Row, error) {
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("testvectors: %w", err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("testvectors: BIP158 table has no rows after its header")
	}
	out := make([]BIP158Row, 0, len(rows)-1)
	for i, raw := range rows[1:] {
		r, err := parseBIP158Row(raw)
		if err != nil {
			return nil, fmt.Errorf("testvectors: row %d: %w", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseBIP158Row(raw json.RawMessage) (BIP158Row, error) {
	var f []json.RawMessage
	var r BIP158Row
	if err := json.Unmarshal(raw, &f); err != nil {
		return r, err
	}
	if len(f) != 8 {
		return r, fmt.Errorf("%d fields, want 8", len(f))
	}
	for i, dst := range []any{&r.Height, &r.BlockHash, &r.Block, &r.PrevOutputScripts,
		&r.PrevHeader, &r.Filter, &r.Header, &r.Notes} {
		if err := json.Unmarshal(f[i], dst); err != nil {
			return r, fmt.Errorf("field %d: %w", i, err)
		}
	}
	if len(r.Block) == 0 || len(r.Filter) == 0 {
		return r, fmt.Errorf("empty block or filter")
	}
	return r, nil
}

// BIP158BlocksFile is bip158/synthetic-blocks.json: chained blocks whose
// filter headers chain from the first vector's PrevFilterHeader.
type BIP158BlocksFile struct {
	Source  json.RawMessage     `json:"source"`
	Vectors []BIP158BlockVector `json:"vectors"`
}

// BIP158BlockVector is one block with its basic filter.
type BIP158BlockVector struct {
	Name              string      `json:"name"`
	BlockHash         DisplayHash `json:"block_hash"`
	Block             Hex         `json:"block_hex"`
	Key               Hex         `json:"key_hex"`
	PrevOutputScripts []Hex       `json:"prev_output_scripts"`
	PrevFilterHeader  DisplayHash `json:"prev_filter_header"`
	Filter            Hex         `json:"filter"`
	FilterHeader      DisplayHash `json:"filter_header"`
	N                 int         `json:"n"`
	// SortedHashedValues and UniqueElements are given for small N only.
	SortedHashedValues []uint64  `json:"sorted_hashed_values"`
	UniqueElements     []Element `json:"unique_elements"`
	Notes              string    `json:"notes"`
}

// ParseBIP158Blocks decodes a [BIP158Blocks] file.
func ParseBIP158Blocks(data []byte) (*BIP158BlocksFile, error) {
	var f BIP158BlocksFile
	return &f, decode(data, &f)
}

func (f *BIP158BlocksFile) check() error {
	if len(f.Vectors) == 0 {
		return missing("file", "vectors")
	}
	for i, v := range f.Vectors {
		where := fmt.Sprintf("vector %d", i)
		if len(v.Block) == 0 {
			return missing(where, "block_hex")
		}
		if len(v.Filter) == 0 {
			return missing(where, "filter")
		}
	}
	return nil
}

// GCSRawFile is bip158/raw-gcs.json: Golomb-coded sets built directly from
// elements, and SipHash / hash-to-range values.
type GCSRawFile struct {
	Source      json.RawMessage     `json:"source"`
	GCS         []GCSRawVector      `json:"gcs_vectors"`
	HashToRange []HashToRangeVector `json:"hash_to_range_vectors"`
}

// GCSRawVector is one set. Its elements are either listed (Elements) or
// described by ElementsGenerator (see [GCSRawVector.GenerateElements]). The
// filter is either given whole (Filter) or by length, SHA-256 and its ends.
type GCSRawVector struct {
	Name               string     `json:"name"`
	Key                Hex        `json:"key_hex"`
	P                  uint8      `json:"p"`
	M                  uint64     `json:"m"`
	Elements           []Hex      `json:"elements_hex"`
	ElementsGenerator  string     `json:"elements_generator"`
	Filter             Hex        `json:"filter"`
	FilterLen          int        `json:"filter_len"`
	FilterSHA256       Hex        `json:"filter_sha256"`
	FilterPrefix       Hex        `json:"filter_prefix_hex"`
	FilterSuffix       Hex        `json:"filter_suffix_hex"`
	SortedHashedValues []uint64   `json:"sorted_hashed_values"`
	Queries            []GCSQuery `json:"queries"`
	Notes              string     `json:"notes"`
}

// GCSQuery is one single-element Match with its expected answer.
type GCSQuery struct {
	Element       Hex  `json:"element_hex"`
	ExpectedMatch bool `json:"expected_match"`
}

// HashToRangeVector is one SipHash-2-4 output and its reduction
// (SipHash·F) >> 64 with F = N·M.
type HashToRangeVector struct {
	Key         Hex       `json:"key_hex"`
	Item        Hex       `json:"item_hex"`
	N           uint64    `json:"n"`
	M           uint64    `json:"m"`
	F           uint64    `json:"f"`
	SipHash     Uint64Hex `json:"siphash24"`
	HashToRange uint64    `json:"hash_to_range"`
}

// ParseGCSRaw decodes a [GCSRaw] file.
func ParseGCSRaw(data []byte) (*GCSRawFile, error) {
	var f GCSRawFile
	return &f, decode(data, &f)
}

func (f *GCSRawFile) check() error {
	if len(f.GCS)+len(f.HashToRange) == 0 {
		return missing("file", "gcs_vectors")
	}
	for i, v := range f.GCS {
		where := fmt.Sprintf("gcs vector %d (%s)", i, v.Name)
		switch {
		case len(v.Key) != 16:
			return fmt.Errorf("%s: key of %d bytes, want 16", where, len(v.Key))
		case v.P == 0 || v.M == 0:
			return missing(where, "p and m")
		case v.Elements == nil && v.ElementsGenerator == "":
			return missing(where, "elements_hex or elements_generator")
		case len(v.Filter) == 0 && len(v.FilterSHA256) == 0:
			return missing(where, "filter or filter_sha256")
		}
	}
	return nil
}

// GenerateElements returns the vector's elements: the listed ones, or those
// its generator describes. It knows the generators the published files use
// and returns an error for any other description.
func (v GCSRawVector) GenerateElements() ([][]byte, error) {
	if v.Elements != nil {
		out := make([][]byte, len(v.Elements))
		for i, e := range v.Elements {
			out[i] = e
		}
		return out, nil
	}
	g := v.ElementsGenerator
	var n int
	switch {
	case scan(g, "element i for i in [0,%d): 32 bytes, byte0 = i & 0xff, byte1 = (i >> 8) & 0xff, bytes 2..31 = 0", &n):
		if err := checkCount(n, "generator"); err != nil {
			return nil, err
		}
		out := make([][]byte, n)
		for i := range out {
			e := make([]byte, 32)
			e[0], e[1] = byte(i), byte(i>>8)
			out[i] = e
		}
		return out, nil
	case strings.HasPrefix(g, "element i for i in [0,") && strings.Contains(g, "): ASCII string \""):
		var prefix string
		if _, err := fmt.Sscanf(g, "element i for i in [0,%d): ASCII string %q", &n, &prefix); err != nil {
			return nil, fmt.Errorf("testvectors: generator %q: %w", g, err)
		}
		if err := checkCount(n, "generator"); err != nil {
			return nil, err
		}
		prefix = strings.TrimSuffix(prefix, "<i>")
		return asciiSeries(prefix, 0, n, nil), nil
	}
	return nil, fmt.Errorf("testvectors: unknown elements generator %q", g)
}

// maxGenerated bounds what a generator description may ask for: vector files
// are untrusted input.
const maxGenerated = 1 << 20

func checkCount(n int, what string) error {
	if n < 0 || n > maxGenerated {
		return fmt.Errorf("testvectors: %s asks for %d elements, outside [0, %d]", what, n, maxGenerated)
	}
	return nil
}

// scan reports whether s starts with the format's text, filling the verbs.
func scan(s, format string, args ...any) bool {
	n, err := fmt.Sscanf(s, format, args...)
	return err == nil && n == len(args)
}

// asciiSeries returns prefix+decimal(i) for n values of i counting from start,
// skipping the indexes in skip.
func asciiSeries(prefix string, start, n int, skip map[int]bool) [][]byte {
	out := make([][]byte, 0, n)
	for i := start; len(out) < n; i++ {
		if !skip[i] {
			out = append(out, []byte(prefix+strconv.Itoa(i)))
		}
	}
	return out
}

// GCSMatchAnyFile is bip158/matchany.json: MatchAny against one N = 10,000
// filter of "member-<i>" strings.
type GCSMatchAnyFile struct {
	Source           json.RawMessage `json:"source"`
	Key              Hex             `json:"key_hex"`
	MainFilter       Hex             `json:"main_filter"`
	MainFilterSHA256 Hex             `json:"main_filter_sha256"`
	NonmemberSkipped []int           `json:"nonmember_skipped_indices"`
	Cases            []MatchAnyCase  `json:"cases"`
	Format           string          `json:"format"`
}

// MatchAnyCase is one query set. QueryASCII lists the query when present
// (possibly empty); otherwise Query describes it ("first N non-members").
type MatchAnyCase struct {
	Name          string   `json:"name"`
	Filter        string   `json:"filter"`
	Query         string   `json:"query"`
	QueryASCII    []string `json:"query_ascii"`
	ExpectedMatch bool     `json:"expected_match"`
	BtcdMatchAny  *bool    `json:"btcd_v1.2.0_MatchAny"`
}

// ParseGCSMatchAny decodes a [GCSMatchAny] file.
func ParseGCSMatchAny(data []byte) (*GCSMatchAnyFile, error) {
	var f GCSMatchAnyFile
	return &f, decode(data, &f)
}

func (f *GCSMatchAnyFile) check() error {
	if len(f.Key) != 16 {
		return fmt.Errorf("file: key of %d bytes, want 16", len(f.Key))
	}
	if len(f.MainFilter) == 0 {
		return missing("file", "main_filter")
	}
	if len(f.Cases) == 0 {
		return missing("file", "cases")
	}
	for i, c := range f.Cases {
		if c.Filter != "main" {
			return fmt.Errorf("case %d: unknown filter %q (only \"main\")", i, c.Filter)
		}
	}
	return nil
}

// QueryElements returns the case's query set.
func (f *GCSMatchAnyFile) QueryElements(c MatchAnyCase) ([][]byte, error) {
	if c.QueryASCII != nil {
		out := make([][]byte, len(c.QueryASCII))
		for i, s := range c.QueryASCII {
			out[i] = []byte(s)
		}
		return out, nil
	}
	var n int
	if scan(c.Query, "first %d non-members", &n) {
		if err := checkCount(n, "query "+c.Name); err != nil {
			return nil, err
		}
		skip := make(map[int]bool, len(f.NonmemberSkipped))
		for _, i := range f.NonmemberSkipped {
			skip[i] = true
		}
		return asciiSeries("nonmember-", 0, n, skip), nil
	}
	return nil, fmt.Errorf("testvectors: case %q: unknown query %q", c.Name, c.Query)
}

// GCSDecodeFile is bip158/decode-strictness.json: malformed encodings of an
// official filter with Bitcoin Core's decision.
type GCSDecodeFile struct {
	Source       json.RawMessage `json:"source"`
	BlockHash    DisplayHash     `json:"block_hash"`
	MemberScript Hex             `json:"member_script"`
	PaddingBits  int             `json:"padding_bits"`
	Cases        []GCSDecodeCase `json:"cases"`
}

// GCSDecodeCase is one encoding. CoreExpected is "accept" or "reject: why".
type GCSDecodeCase struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	Filter       Hex    `json:"filter"`
	CoreExpected string `json:"bitcoin_core_expected"`
}

// Accept reports whether Bitcoin Core accepts the encoding.
func (c GCSDecodeCase) Accept() bool { return c.CoreExpected == "accept" }

// ParseGCSDecode decodes a [GCSDecode] file.
func ParseGCSDecode(data []byte) (*GCSDecodeFile, error) {
	var f GCSDecodeFile
	return &f, decode(data, &f)
}

func (f *GCSDecodeFile) check() error {
	if len(f.Cases) == 0 {
		return missing("file", "cases")
	}
	for i, c := range f.Cases {
		if c.CoreExpected != "accept" && !strings.HasPrefix(c.CoreExpected, "reject") {
			return fmt.Errorf("case %d: bitcoin_core_expected %q is neither accept nor reject", i, c.CoreExpected)
		}
	}
	return nil
}
