package ethlogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func TestVerifyReceiptsMainnet(t *testing.T) {
	for _, name := range []string{"mainnet-14764013.json", "mainnet-15537393.json", "mainnet-17034869.json",
		"mainnet-19426587.json", "mainnet-22431084.json", "mainnet-22869878.json"} {
		b := loadBlock(t, name)
		if err := VerifyReceipts(b.header, b.receipts); err != nil {
			t.Errorf("VerifyReceipts(%s) = %v", name, err)
		}
		if err := VerifyHeader(b.header, b.hash); err != nil {
			t.Errorf("VerifyHeader(%s) = %v", name, err)
		}
	}
}

// TestHostileReceipts changes what a lying node could change in
// eth_getBlockReceipts and requires a clear error naming the block.
func TestHostileReceipts(t *testing.T) {
	tests := []struct {
		name   string
		change func(h *types.Header, rs types.Receipts) types.Receipts
		want   error
	}{
		{"dropped log", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[0].Logs = rs[0].Logs[1:]
			return rs
		}, ErrReceiptsRoot},
		{"dropped log, bloom rebuilt", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[0].Logs = rs[0].Logs[1:]
			rs[0].Bloom = types.Bloom(ReceiptBloom(rs[0]))
			return rs
		}, ErrReceiptsRoot},
		{"dropped receipt", func(h *types.Header, rs types.Receipts) types.Receipts { return rs[1:] }, ErrReceiptsRoot},
		{"swapped receipts", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[0], rs[1] = rs[1], rs[0]
			return rs
		}, ErrReceiptsRoot},
		{"altered log data", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[0].Logs[0].Data = append([]byte{1}, rs[0].Logs[0].Data...)
			return rs
		}, ErrReceiptsRoot},
		{"altered receipt bloom", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[2].Bloom[7] ^= 0x40
			return rs
		}, ErrReceiptsRoot},
		{"wrong root in the header", func(h *types.Header, rs types.Receipts) types.Receipts {
			h.ReceiptHash[0] ^= 1
			return rs
		}, ErrReceiptsRoot},
		{"a chain that commits a wrong receipt bloom", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[2].Bloom[7] ^= 0x40
			h.ReceiptHash = ReceiptsRoot(rs)
			return rs
		}, ErrReceiptBloom},
		{"null receipt", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[3] = nil
			return rs
		}, ErrReceipt},
		{"null log", func(h *types.Header, rs types.Receipts) types.Receipts {
			rs[0].Logs[1] = nil
			return rs
		}, ErrReceipt},
		{"a chain whose header bloom is wrong", func(h *types.Header, rs types.Receipts) types.Receipts {
			h.Bloom = types.Bloom{}
			return rs
		}, ErrHeaderBloom},
	}
	for _, tt := range tests {
		b := loadBlock(t, "mainnet-19426587.json")
		rs := tt.change(b.header, b.receipts)
		err := VerifyReceipts(b.header, rs)
		var be *BlockError
		if !errors.Is(err, tt.want) || !errors.As(err, &be) || be.Number != 19426587 || !strings.HasPrefix(err.Error(), "ethlogs: block 19426587 ") {
			t.Errorf("%s: VerifyReceipts = %v, want %v naming block 19426587", tt.name, err, tt.want)
		}
	}
}

// TestBloomUntrustedMode: with a wrong header bloom, the root still proves
// the receipts.
func TestBloomUntrustedMode(t *testing.T) {
	b := loadBlock(t, "mainnet-19426587.json")
	b.header.Bloom = types.Bloom{}
	if err := VerifyReceiptsRoot(b.header, b.receipts); err != nil {
		t.Errorf("VerifyReceiptsRoot(zero header bloom) = %v, want nil", err)
	}
}

func TestLogsDerivedFields(t *testing.T) {
	b := loadBlock(t, "mainnet-19426587.json")
	for _, r := range b.receipts {
		for _, l := range r.Logs {
			l.Index, l.TxIndex, l.BlockNumber, l.Removed = 999, 999, 1, true // what a liar could send
		}
	}
	logs := Logs(b.header, b.receipts)
	if len(logs) != 39 {
		t.Fatalf("Logs() = %d logs, want 39", len(logs))
	}
	for i, l := range logs {
		if l.Index != uint(i) || l.BlockNumber != 19426587 || l.BlockHash != b.hash || l.Removed || l.BlockTimestamp != b.header.Time {
			t.Fatalf("log %d = index %d block %d %s removed %v, want the recomputed fields", i, l.Index, l.BlockNumber, l.BlockHash, l.Removed)
		}
		if b.receipts[l.TxIndex].TxHash != l.TxHash || !containsLog(b.receipts[l.TxIndex].Logs, l) {
			t.Fatalf("log %d: transactionIndex %d does not hold it", i, l.TxIndex)
		}
	}
}

func containsLog(logs []*types.Log, l *types.Log) bool {
	for _, x := range logs {
		if x == l {
			return true
		}
	}
	return false
}

func TestVerifyChain(t *testing.T) {
	byNumber := map[uint64]*types.Header{}
	for _, b := range readBlocks(t, "mainnet-headers-portal.json") {
		h, _, err := DecodeHeader(b.HeaderRLP)
		if err != nil {
			t.Fatal(err)
		}
		byNumber[b.Number] = h
	}
	// The published headers include four parent/child pairs.
	for _, child := range []uint64{15537394, 17034870, 19426587, 22431084} {
		pair := []*types.Header{byNumber[child-1], byNumber[child]}
		anchor := pair[1].Hash()
		if _, err := VerifyChain(pair, anchor); err != nil {
			t.Errorf("VerifyChain(%d, %d) = %v", child-1, child, err)
		}
		if _, err := VerifyChain(pair, common.Hash{1}); !errors.Is(err, ErrHeaderHash) {
			t.Errorf("VerifyChain(%d, %d, wrong anchor) = %v, want ErrHeaderHash", child-1, child, err)
		}
		if _, err := VerifyChain([]*types.Header{pair[1], pair[0]}, pair[0].Hash()); !errors.Is(err, ErrParentLink) {
			t.Errorf("VerifyChain(%d, %d reversed) = %v, want ErrParentLink", child, child-1, err)
		}
	}
	if _, err := VerifyChain([]*types.Header{byNumber[15537393], byNumber[17034870]}, byNumber[17034870].Hash()); !errors.Is(err, ErrParentLink) {
		t.Errorf("VerifyChain(gap) = %v, want ErrParentLink", err)
	}
}

func TestDecodeHeaderRejects(t *testing.T) {
	raw := readBlocks(t, "mainnet-15537393.json")[0].HeaderRLP
	tests := []struct {
		name string
		in   []byte
	}{
		{"trailing byte", append(bytes.Clone(raw), 0)},
		{"truncated", raw[:len(raw)-1]},
		{"empty", nil},
		{"too large", make([]byte, MaxHeaderSize+1)},
	}
	for _, tt := range tests {
		if _, _, err := DecodeHeader(tt.in); !errors.Is(err, ErrHeaderRLP) || !strings.HasPrefix(err.Error(), "ethlogs: header: ") {
			t.Errorf("DecodeHeader(%s) = %v, want ErrHeaderRLP", tt.name, err)
		}
	}
}

func receiptSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, name := range []string{"mainnet-15537393.json", "mainnet-22869878.json"} {
		seen := map[uint8]bool{}
		for _, r := range readBlocks(t, name)[0].Receipts {
			if !seen[r.Type] && len(r.Raw) < 2000 {
				seen[r.Type] = true
				seeds = append(seeds, r.Raw)
			}
		}
	}
	return seeds
}

// FuzzDecodeReceipt checks DecodeReceipt against go-ethereum's decoder: what
// we accept, go-ethereum decodes to the same receipt; what go-ethereum
// decodes and re-encodes to the same bytes, we accept.
func FuzzDecodeReceipt(f *testing.F) {
	for _, s := range receiptSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte{0x02})
	f.Add([]byte{0x05, 0xc0})
	f.Fuzz(func(t *testing.T, enc []byte) {
		r, err := DecodeReceipt(enc)
		var g types.Receipt
		gerr := g.UnmarshalBinary(enc)
		canonical := false
		if gerr == nil {
			again, _ := g.MarshalBinary()
			canonical = bytes.Equal(again, enc)
		}
		if (err == nil) != canonical {
			t.Fatalf("DecodeReceipt(%x) error = %v; go-ethereum: %v, canonical %v", enc, err, gerr, canonical)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "ethlogs: receipt: ") {
				t.Fatalf("DecodeReceipt error %q lacks the package prefix", err)
			}
			return
		}
		a, _ := r.MarshalBinary()
		if !bytes.Equal(a, enc) || r.Type != g.Type || r.Status != g.Status || ReceiptBloom(r) != ReceiptBloom(&g) {
			t.Fatalf("DecodeReceipt(%x) differs from go-ethereum's decoding", enc)
		}
		ReceiptsRoot(types.Receipts{r})
	})
}

// FuzzVerifyReceiptsJSON feeds eth_getBlockReceipts answers, as a node
// could send them, through go-ethereum's JSON decoding and VerifyReceipts:
// whatever passes must be exactly the block's receipts.
func FuzzVerifyReceiptsJSON(f *testing.F) {
	b := loadBlock(f, "mainnet-15537393.json")
	good, err := json.Marshal(b.receipts)
	if err != nil {
		f.Fatal(err)
	}
	want := make([][]byte, len(b.receipts))
	for i, r := range b.receipts {
		want[i], _ = r.MarshalBinary()
	}
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"status":"0x1"`), []byte(`"status":"0x0"`), 1))
	f.Add([]byte(`[]`))
	f.Add([]byte(`[null]`))
	f.Add(bytes.Replace(good, []byte(`"logs":[{`), []byte(`"logs":[null,{`), 1))
	f.Fuzz(func(t *testing.T, in []byte) {
		var rs types.Receipts
		if json.Unmarshal(in, &rs) != nil {
			return
		}
		h := *b.header
		if err := VerifyReceipts(&h, rs); err != nil {
			var be *BlockError
			if !errors.As(err, &be) || be.Number != 15537393 {
				t.Fatalf("VerifyReceipts error %v does not name block 15537393", err)
			}
			return
		}
		if len(rs) != len(want) {
			t.Fatalf("VerifyReceipts passed %d receipts, the block has %d", len(rs), len(want))
		}
		for i, r := range rs {
			if got, _ := r.MarshalBinary(); !bytes.Equal(got, want[i]) {
				t.Fatalf("VerifyReceipts passed receipt %d with other consensus bytes", i)
			}
		}
	})
}

// TestDecodeProvenReceipts proves each published block's receipt
// encodings against its header, and requires what DecodeReceipts gives;
// then a byte changed anywhere, a receipt dropped or two swapped must fail
// naming the block: ErrReceipt where the bytes no longer decode,
// ErrReceiptsRoot where they do.
func TestDecodeProvenReceipts(t *testing.T) {
	for _, name := range []string{"mainnet-14764013.json", "mainnet-15537393.json", "mainnet-17034869.json",
		"mainnet-19426587.json", "mainnet-22431084.json", "mainnet-22869878.json"} {
		b := loadBlock(t, name)
		h, encs := b.header, b.raws
		got, err := DecodeProvenReceipts(h, encs)
		if err != nil || ReceiptsRoot(got) != ReceiptsRoot(b.receipts) || len(got) != len(b.receipts) {
			t.Fatalf("%s: DecodeProvenReceipts = %v, or not DecodeReceipts' receipts", name, err)
		}
		last := len(encs) - 1
		for _, tt := range []struct {
			name  string
			edit  func([][]byte) [][]byte
			wants []error
		}{
			{"a byte of the last receipt's last log", func(e [][]byte) [][]byte {
				e[last] = bytes.Clone(e[last])
				e[last][len(e[last])-1] ^= 1
				return e
			}, []error{ErrReceipt, ErrReceiptsRoot}},
			{"a byte after the first receipt", func(e [][]byte) [][]byte { e[0] = append(bytes.Clone(e[0]), 0x80); return e }, []error{ErrReceipt}},
			{"the last receipt dropped", func(e [][]byte) [][]byte { return e[:last] }, []error{ErrReceiptsRoot}},
			{"the first two swapped", func(e [][]byte) [][]byte {
				if len(e) < 2 {
					return append(e, e[0]) // one receipt: a copy added instead
				}
				e[0], e[1] = e[1], e[0]
				return e
			}, []error{ErrReceiptsRoot}},
			{"an empty encoding", func(e [][]byte) [][]byte { e[0] = nil; return e }, []error{ErrReceipt}},
		} {
			_, err := DecodeProvenReceipts(h, tt.edit(slices.Clone(encs)))
			var be *BlockError
			if !errors.As(err, &be) || be.Number != h.Number.Uint64() || !slices.ContainsFunc(tt.wants, func(w error) bool { return errors.Is(err, w) }) {
				t.Errorf("%s, %s: %v; want one of %v naming block %d", name, tt.name, err, tt.wants, h.Number)
			}
		}
	}
}
