package verify

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"

	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/testvectors"
)

// basic holds the parameters of BIP158 basic filters.
var basic = gcs.Params{P: gcs.BasicP, M: gcs.BasicM}

func checkBIP158Table(data []byte) ([]Result, error) {
	rows, err := testvectors.ParseBIP158Table(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(rows))
	for i, r := range rows {
		v := blockVector{hash: r.BlockHash, block: r.Block, prevScripts: r.PrevOutputScripts,
			prevHeader: r.PrevHeader, filter: r.Filter, header: r.Header}
		detail, err := v.check()
		out[i] = result(fmt.Sprintf("height %d", r.Height), err, detail)
	}
	return out, nil
}

func checkBIP158Blocks(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP158Blocks(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Vectors))
	for i, bv := range f.Vectors {
		v := blockVector{hash: bv.BlockHash, block: bv.Block, prevScripts: bv.PrevOutputScripts,
			prevHeader: bv.PrevFilterHeader, filter: bv.Filter, header: bv.FilterHeader,
			key: bv.Key, n: bv.N, values: bv.SortedHashedValues, unique: bv.UniqueElements}
		detail, err := v.check()
		if err == nil && i > 0 {
			var more string
			more, err = chainsFrom(bv, f.Vectors[i-1])
			detail += more
		}
		out[i] = result(bv.Name, err, detail)
	}
	return out, nil
}

// chainsFrom checks that v's filter header chains from prev's when v's block
// builds on prev's block. Vectors that are not adjacent blocks (a file may
// skip some) commit to no common header.
func chainsFrom(v, prev testvectors.BIP158BlockVector) (string, error) {
	var h wire.BlockHeader
	if err := h.Deserialize(bytes.NewReader(v.Block)); err != nil {
		return "", err
	}
	if h.PrevBlock != chainhash.Hash(prev.BlockHash) {
		return "; not the child of the previous vector's block, so no header chain between them", nil
	}
	if v.PrevFilterHeader != prev.FilterHeader {
		return "", fmt.Errorf("block builds on the previous vector's, but prev_filter_header %s is not its filter header %s",
			v.PrevFilterHeader, prev.FilterHeader)
	}
	return "; filter header chains from the previous vector's", nil
}

// blockVector is a block with its published basic filter and header; the
// fields after header are optional extras some files give.
type blockVector struct {
	hash        testvectors.DisplayHash
	block       testvectors.Hex
	prevScripts []testvectors.Hex
	prevHeader  testvectors.DisplayHash
	filter      testvectors.Hex
	header      testvectors.DisplayHash

	key    testvectors.Hex
	n      int
	values []uint64
	unique []testvectors.Element
}

// check rebuilds the filter from the block, compares bytes and headers, and
// matches every item against the published bytes.
func (v blockVector) check() (string, error) {
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(v.block)); err != nil {
		return "", fmt.Errorf("block does not parse: %w", err)
	}
	hash := block.BlockHash()
	if hash != chainhash.Hash(v.hash) {
		return "", fmt.Errorf("block hash %s, want %s", hash, chainhash.Hash(v.hash))
	}
	scripts := hexList(v.prevScripts)
	built, err := gcs.CheckBasic(&block, scripts, v.filter)
	if err != nil {
		return "", fmt.Errorf("%w: rebuilt %x, want %x", err, built.Bytes(), []byte(v.filter))
	}
	prev, want := chainhash.Hash(v.prevHeader), chainhash.Hash(v.header)
	if got := built.Header(prev); got != want {
		return "", fmt.Errorf("header of the rebuilt filter %s, want %s", got, want)
	}
	pub, err := gcs.DecodeBasic(hash, v.filter)
	if err != nil {
		return "", fmt.Errorf("published filter: %w", err)
	}
	if got := gcs.FilterHeader(gcs.FilterHash(v.filter), prev); got != want {
		return "", fmt.Errorf("header of the published filter %s, want %s", got, want)
	}
	items, _ := gcs.BasicElements(nil, &block, scripts)
	if err := v.checkExtras(&pub, items); err != nil {
		return "", err
	}
	if err := matchesAll(&pub, items); err != nil {
		return "", err
	}
	return fmt.Sprintf("block hash; filter (N=%d, %d bytes) rebuilt byte for byte; header from the rebuilt and the published filter; "+
		"all %d items match (Match, Set, Query)", pub.Len(), len(v.filter), len(items)), nil
}

// checkExtras compares the optional key, N, values and unique items.
func (v blockVector) checkExtras(f *gcs.Filter, items [][]byte) error {
	if key := f.Key(); v.key != nil && !bytes.Equal(key[:], v.key) {
		return fmt.Errorf("key %x, want %x", key, []byte(v.key))
	}
	if v.n != 0 && f.Len() != v.n {
		return fmt.Errorf("N = %d, want %d", f.Len(), v.n)
	}
	if v.values != nil {
		if err := equalValues(f, v.values); err != nil {
			return err
		}
	}
	if v.unique != nil {
		distinct := distinctItems(items)
		if len(distinct) != len(v.unique) {
			return fmt.Errorf("%d distinct items, want %d", len(distinct), len(v.unique))
		}
		for i, want := range v.unique {
			if !slices.ContainsFunc(distinct, want.Equal) {
				return fmt.Errorf("unique element %d (%d bytes) is not an item of the rebuilt filter", i, want.Len)
			}
		}
	}
	return nil
}

func distinctItems(items [][]byte) [][]byte {
	var out [][]byte
	for _, it := range items {
		if !slices.ContainsFunc(out, func(o []byte) bool { return bytes.Equal(o, it) }) {
			out = append(out, it)
		}
	}
	return out
}

func equalValues(f *gcs.Filter, want []uint64) error {
	got, err := f.Values(nil)
	if err != nil {
		return err
	}
	if !slices.Equal(got, want) {
		return fmt.Errorf("sorted hashed values %v, want %v", got, want)
	}
	return nil
}

// matchesAll checks that every item matches f through Filter.Match, a
// decoded Set and a Query (MatchAny and Matches).
func matchesAll(f *gcs.Filter, items [][]byte) error {
	var s gcs.Set
	if err := s.Reset(f); err != nil {
		return err
	}
	for i, it := range items {
		if !s.Match(it) {
			return fmt.Errorf("item %d (%x) does not match the decoded set", i, clipBytes(it))
		}
		if len(items) <= 1000 && !f.Match(it) {
			return fmt.Errorf("item %d (%x) does not match", i, clipBytes(it))
		}
	}
	q := gcs.NewQuery(items)
	if len(items) > 0 && !q.MatchAny(f) {
		return fmt.Errorf("MatchAny over all %d items = false, want true", len(items))
	}
	if got := q.Matches(nil, f); len(got) != len(items) {
		return fmt.Errorf("Matches reports %d of %d items", len(got), len(items))
	}
	return nil
}

func clipBytes(b []byte) []byte { return b[:min(len(b), 40)] }

func hexList(h []testvectors.Hex) [][]byte {
	out := make([][]byte, len(h))
	for i, x := range h {
		out[i] = x
	}
	return out
}

func checkGCSRaw(data []byte) ([]Result, error) {
	f, err := testvectors.ParseGCSRaw(data)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, v := range f.GCS {
		detail, err := checkRawSet(v)
		out = append(out, result("set "+v.Name, err, detail))
	}
	for i, v := range f.HashToRange {
		detail, err := checkHashToRange(v)
		out = append(out, result(fmt.Sprintf("hash-to-range %d", i), err, detail))
	}
	return out, nil
}

func checkRawSet(v testvectors.GCSRawVector) (string, error) {
	elements, err := v.GenerateElements()
	if err != nil {
		return "", err
	}
	p := gcs.Params{P: v.P, M: v.M}
	key := gcs.Key(v.Key)
	built, err := gcs.Build(p, key, elements)
	if err != nil {
		return "", err
	}
	if err := sameEncoding(built.Bytes(), v); err != nil {
		return "", err
	}
	f, err := gcs.Decode(p, key, built.Bytes())
	if err != nil {
		return "", fmt.Errorf("decoding the built filter: %w", err)
	}
	if v.SortedHashedValues != nil {
		if err := equalValues(&f, v.SortedHashedValues); err != nil {
			return "", err
		}
	}
	for _, q := range v.Queries {
		if got := f.Match(q.Element); got != q.ExpectedMatch {
			return "", fmt.Errorf("Match(%x) = %v, want %v", []byte(q.Element), got, q.ExpectedMatch)
		}
	}
	if err := matchesAll(&f, elements); err != nil {
		return "", err
	}
	return fmt.Sprintf("built filter (P=%d, M=%d, N=%d, %d bytes) equals the published one; decodes strictly; %d queries; every element matches",
		v.P, v.M, f.Len(), len(built.Bytes()), len(v.Queries)), nil
}

// sameEncoding compares a built encoding with the vector's, given whole or
// by length, SHA-256, prefix and suffix.
func sameEncoding(got []byte, v testvectors.GCSRawVector) error {
	if v.Filter != nil && !bytes.Equal(got, v.Filter) {
		return fmt.Errorf("built filter %x, want %x", clipBytes(got), clipBytes(v.Filter))
	}
	if v.FilterLen != 0 && len(got) != v.FilterLen {
		return fmt.Errorf("built filter of %d bytes, want %d", len(got), v.FilterLen)
	}
	if sum := sha256.Sum256(got); v.FilterSHA256 != nil && !bytes.Equal(sum[:], v.FilterSHA256) {
		return fmt.Errorf("built filter SHA-256 %x, want %x", sum, []byte(v.FilterSHA256))
	}
	if !bytes.HasPrefix(got, v.FilterPrefix) || !bytes.HasSuffix(got, v.FilterSuffix) {
		return fmt.Errorf("built filter does not start with %x and end with %x", []byte(v.FilterPrefix), []byte(v.FilterSuffix))
	}
	return nil
}

func checkHashToRange(v testvectors.HashToRangeVector) (string, error) {
	if len(v.Key) != gcs.KeySize {
		return "", fmt.Errorf("key of %d bytes, want %d", len(v.Key), gcs.KeySize)
	}
	key := gcs.Key(v.Key)
	if got := key.Sum64(v.Item); got != uint64(v.SipHash) {
		return "", fmt.Errorf("SipHash-2-4(%x) = %016x, want %016x", []byte(v.Item), got, uint64(v.SipHash))
	}
	if v.N*v.M != v.F {
		return "", fmt.Errorf("f = %d, but n·m = %d", v.F, v.N*v.M)
	}
	if got := key.HashToRange(v.Item, v.F); got != v.HashToRange {
		return "", fmt.Errorf("hash_to_range(%x, f=%d) = %d, want %d", []byte(v.Item), v.F, got, v.HashToRange)
	}
	return fmt.Sprintf("SipHash-2-4 = %016x and hash_to_range = %d for a %d-byte item", uint64(v.SipHash), v.HashToRange, len(v.Item)), nil
}

func checkGCSMatchAny(data []byte) ([]Result, error) {
	f, err := testvectors.ParseGCSMatchAny(data)
	if err != nil {
		return nil, err
	}
	filter, ferr := mainFilter(f)
	out := make([]Result, len(f.Cases))
	for i, c := range f.Cases {
		if ferr != nil {
			out[i] = result(c.Name, ferr, "")
			continue
		}
		detail, err := checkMatchAnyCase(f, c, &filter)
		out[i] = result(c.Name, err, detail)
	}
	return out, nil
}

func mainFilter(f *testvectors.GCSMatchAnyFile) (gcs.Filter, error) {
	if sum := sha256.Sum256(f.MainFilter); f.MainFilterSHA256 != nil && !bytes.Equal(sum[:], f.MainFilterSHA256) {
		return gcs.Filter{}, fmt.Errorf("main filter SHA-256 %x, want %x", sum, []byte(f.MainFilterSHA256))
	}
	return gcs.Decode(basic, gcs.Key(f.Key), f.MainFilter)
}

// checkMatchAnyCase asks the question three ways: a Query (which picks its
// strategy), a decoded Set, and Query.Matches.
func checkMatchAnyCase(f *testvectors.GCSMatchAnyFile, c testvectors.MatchAnyCase, filter *gcs.Filter) (string, error) {
	items, err := f.QueryElements(c)
	if err != nil {
		return "", err
	}
	if got := gcs.NewQuery(items).MatchAny(filter); got != c.ExpectedMatch {
		return "", fmt.Errorf("MatchAny over %d items = %v, want %v", len(items), got, c.ExpectedMatch)
	}
	var s gcs.Set
	if err := s.Reset(filter); err != nil {
		return "", err
	}
	if got := s.MatchAny(items); got != c.ExpectedMatch {
		return "", fmt.Errorf("Set.MatchAny over %d items = %v, want %v", len(items), got, c.ExpectedMatch)
	}
	if got := len(gcs.NewQuery(items).Matches(nil, filter)) > 0; got != c.ExpectedMatch {
		return "", fmt.Errorf("Matches over %d items found a match: %v, want %v", len(items), got, c.ExpectedMatch)
	}
	return fmt.Sprintf("MatchAny = %v over %d items against N=%d (Query, Set and Matches agree)", c.ExpectedMatch, len(items), filter.Len()), nil
}

func checkGCSDecode(data []byte) ([]Result, error) {
	f, err := testvectors.ParseGCSDecode(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Cases))
	for i, c := range f.Cases {
		detail, err := checkDecodeCase(f, c)
		out[i] = result(c.Name, err, detail)
	}
	return out, nil
}

func checkDecodeCase(f *testvectors.GCSDecodeFile, c testvectors.GCSDecodeCase) (string, error) {
	filter, err := gcs.DecodeBasic(chainhash.Hash(f.BlockHash), c.Filter)
	switch {
	case c.Accept() && err != nil:
		return "", fmt.Errorf("rejected (%v), Core accepts", err)
	case !c.Accept() && err == nil:
		return "", fmt.Errorf("accepted, Core expects %q", c.CoreExpected)
	case !c.Accept():
		return "rejected like Core: " + err.Error(), nil
	}
	if f.MemberScript != nil && !filter.Match(f.MemberScript) {
		return "", fmt.Errorf("accepted, but Match(member script) = false")
	}
	return fmt.Sprintf("accepted like Core (N=%d); the member script matches", filter.Len()), nil
}
