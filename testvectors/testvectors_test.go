package testvectors

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wantFormats pins the format of every embedded file, so a detection change
// or a missing transcription shows up here.
var wantFormats = map[string]Format{
	"bip37/murmur3_x86_32.json":           Murmur3,
	"bip37/filter_serialize.json":         BIP37Filter,
	"bip37/bloom_match.json":              BIP37Match,
	"bip37/merkle_blocks.json":            BIP37MerkleBlock,
	"bip158/testnet-19.json":              BIP158Table,
	"bip158/synthetic-blocks.json":        BIP158Blocks,
	"bip158/raw-gcs.json":                 GCSRaw,
	"bip158/matchany.json":                GCSMatchAny,
	"bip158/decode-strictness.json":       GCSDecode,
	"ethlogs/mainnet-14764013.json":       EthBlocks,
	"ethlogs/mainnet-15537393.json":       EthBlocks,
	"ethlogs/mainnet-17034869.json":       EthBlocks,
	"ethlogs/mainnet-19426587.json":       EthBlocks,
	"ethlogs/mainnet-22431084.json":       EthBlocks,
	"ethlogs/mainnet-22869878.json":       EthBlocks,
	"ethlogs/mainnet-headers-portal.json": EthBlocks,
	"ethlogs/geth-bloom9-vectors.json":    EthBloom9,
	"descriptor/descriptors.json":         Descriptor,
}

func TestDetectEveryFile(t *testing.T) {
	names := Files()
	if len(names) != len(wantFormats) {
		t.Errorf("Files() = %d files, want %d", len(names), len(wantFormats))
	}
	for _, name := range names {
		data, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Detect(data)
		if err != nil || got != wantFormats[name] {
			t.Errorf("Detect(%s) = %q, %v; want %q", name, got, err, wantFormats[name])
		}
	}
}

func TestDetectRejects(t *testing.T) {
	for _, in := range []string{``, `not json`, `42`, `[]`, `[["x"]]`, `{}`, `{"vectors": []}`, `{"vectors": [{"name": "x"}]}`} {
		if f, err := Detect([]byte(in)); err == nil {
			t.Errorf("Detect(%q) = %q, want an error", in, f)
		}
	}
}

// TestCounts checks the vector counts the published README states.
func TestCounts(t *testing.T) {
	read := func(name string) []byte {
		data, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	m, err := ParseMurmur3(read("bip37/murmur3_x86_32.json"))
	check(t, "murmur3", len(m.Vectors), 14, err)
	fl, err := ParseBIP37Filter(read("bip37/filter_serialize.json"))
	check(t, "filter_serialize", len(fl.Vectors), 3, err)
	bm, err := ParseBIP37Match(read("bip37/bloom_match.json"))
	check(t, "bloom_match", len(bm.Vectors), 12, err)
	mb, err := ParseBIP37MerkleBlock(read("bip37/merkle_blocks.json"))
	check(t, "merkle_blocks", len(mb.Vectors), 1, err)
	rows, err := ParseBIP158Table(read("bip158/testnet-19.json"))
	check(t, "testnet-19", len(rows), 10, err)
	sb, err := ParseBIP158Blocks(read("bip158/synthetic-blocks.json"))
	check(t, "synthetic-blocks", len(sb.Vectors), 2, err)
	rg, err := ParseGCSRaw(read("bip158/raw-gcs.json"))
	check(t, "raw-gcs sets", len(rg.GCS), 3, err)
	check(t, "raw-gcs hash-to-range", len(rg.HashToRange), 3, err)
	ma, err := ParseGCSMatchAny(read("bip158/matchany.json"))
	check(t, "matchany", len(ma.Cases), 3, err)
	ds, err := ParseGCSDecode(read("bip158/decode-strictness.json"))
	check(t, "decode-strictness", len(ds.Cases), 3, err)
	eb, err := ParseEthBlocks(read("ethlogs/mainnet-headers-portal.json"))
	check(t, "headers-portal", len(eb.Blocks), 13, err)
	b9, err := ParseEthBloom9(read("ethlogs/geth-bloom9-vectors.json"))
	check(t, "bloom9 bit positions", len(b9.BitPositions), 16, err)
	dv, err := ParseDescriptors(read("descriptor/descriptors.json"))
	check(t, "descriptor checksums", len(dv.Checksums), 15, err)
	check(t, "descriptor keys", len(dv.Keys), 36, err)
	check(t, "descriptors", len(dv.Descriptors), 47, err)
	check(t, "descriptor combo", len(dv.Combo), 3, err)
	check(t, "invalid descriptors", len(dv.Invalid), 39, err)
	check(t, "bip86 addresses", len(dv.BIP86.Addresses), 3, err)

	// Spot checks on byte order and decoding.
	if got := rows[0].BlockHash.String(); got != "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943" {
		t.Errorf("testnet genesis hash = %s", got)
	}
	if rows[0].BlockHash[0] != 0x43 {
		t.Errorf("DisplayHash keeps display order: first internal byte %#x, want 0x43", rows[0].BlockHash[0])
	}
	if m.Vectors[1].Seed != 0xfba4c795 || m.Vectors[1].Expected != 0x6a396f08 {
		t.Errorf("murmur vector 1 = %+v", m.Vectors[1])
	}
	if b9.BitPositions[0].Bits[0].Mask != 0x80 {
		t.Errorf("bit mask = %#x, want 0x80", b9.BitPositions[0].Bits[0].Mask)
	}
	if want := "6bff7fcd4f8565ef406dd5d63d4ff94f318fe82027fd4dc451b04474019f74b4"; hex.EncodeToString(bm.TxID[:]) != want {
		t.Errorf("bloom_match txid internal = %x, want %s", bm.TxID, want)
	}
}

func check(t *testing.T, what string, got, want int, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
	} else if got != want {
		t.Errorf("%s: %d vectors, want %d", what, got, want)
	}
}

func TestGenerators(t *testing.T) {
	data, _ := Read("bip158/raw-gcs.json")
	rg, err := ParseGCSRaw(data)
	if err != nil {
		t.Fatal(err)
	}
	wantLen := map[string]int{"btcd-zero-hash-included": 13, "core-bench-10000": 10000, "p8-m256-n50": 50}
	for _, v := range rg.GCS {
		els, err := v.GenerateElements()
		if err != nil || len(els) != wantLen[v.Name] {
			t.Errorf("%s: GenerateElements() = %d elements, %v; want %d", v.Name, len(els), err, wantLen[v.Name])
		}
		switch v.Name {
		case "core-bench-10000":
			if e := els[258]; len(e) != 32 || e[0] != 2 || e[1] != 1 {
				t.Errorf("core-bench element 258 = %x", e)
			}
		case "p8-m256-n50":
			if string(els[49]) != "pm-8-49" {
				t.Errorf("p8 element 49 = %q, want pm-8-49", els[49])
			}
		}
	}
	if _, err := (GCSRawVector{ElementsGenerator: "something else"}).GenerateElements(); err == nil {
		t.Errorf("unknown generator accepted")
	}

	data, _ = Read("bip158/matchany.json")
	ma, err := ParseGCSMatchAny(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ma.Cases {
		q, err := ma.QueryElements(c)
		want := map[string]int{"empty-query": 0, "single-member": 1, "100-nonmembers": 100}[c.Name]
		if err != nil || len(q) != want {
			t.Errorf("%s: QueryElements() = %d, %v; want %d", c.Name, len(q), err, want)
		}
	}

	data, _ = Read("ethlogs/geth-bloom9-vectors.json")
	b9, _ := ParseEthBloom9(data)
	in, err := b9.Extensive.Inputs()
	if err != nil || len(in) != 100 || string(in[7]) != "xxxxxxxxxx data 7 yyyyyyyyyyyyyy" {
		t.Errorf("Extensive.Inputs() = %d inputs (%q), %v", len(in), in[min(7, len(in)-1)], err)
	}
}

// TestDigests checks every embedded file against SHA256SUMS, and the sums
// against the published copies in ../shared/testvectors when they are beside
// the project: nothing was edited in transcription.
func TestDigests(t *testing.T) {
	sums, err := Read("SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(sums))
	for sc.Scan() {
		want, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("bad SHA256SUMS line %q", sc.Text())
		}
		local, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := sha256.Sum256(local); hex.EncodeToString(got[:]) != want {
			t.Errorf("%s: sha256 %x, want %s", name, got, want)
		}
		seen++
		shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "testvectors", name))
		if err != nil {
			continue // not beside the project
		}
		if !bytes.Equal(shared, local) {
			t.Errorf("%s differs from ../shared/testvectors/%s", name, name)
		}
	}
	if seen < len(wantFormats) {
		t.Errorf("SHA256SUMS covers %d files, want at least %d", seen, len(wantFormats))
	}
}
