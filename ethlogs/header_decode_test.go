package ethlogs

import (
	"bytes"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// mainnetHeaderRLPs are the published mainnet headers' encodings, from
// Frontier to Prague.
func mainnetHeaderRLPs(t testing.TB) [][]byte {
	var encs [][]byte
	for _, name := range []string{"mainnet-headers-portal.json", "mainnet-14764013.json", "mainnet-15537393.json",
		"mainnet-17034869.json", "mainnet-19426587.json", "mainnet-22431084.json", "mainnet-22869878.json"} {
		for _, b := range readBlocks(t, name) {
			encs = append(encs, b.HeaderRLP)
		}
	}
	return encs
}

// sameHeader reports whether a and b are the same header, down to which
// fields are set: the encoding does not tell a nil Difficulty from a zero one.
func sameHeader(a, b *types.Header) bool {
	ea, err1 := rlp.EncodeToBytes(a)
	eb, err2 := rlp.EncodeToBytes(b)
	set := func(h *types.Header) [10]bool {
		return [10]bool{h.Difficulty != nil, h.Number != nil, h.Extra != nil, h.BaseFee != nil, h.WithdrawalsHash != nil,
			h.BlobGasUsed != nil, h.ExcessBlobGas != nil, h.ParentBeaconRoot != nil, h.RequestsHash != nil, h.SlotNumber != nil}
	}
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb) && set(a) == set(b) &&
		(a.BlockAccessListHash == nil) == (b.BlockAccessListHash == nil)
}

// TestDecodeHeaderFieldsMainnet requires the fast path to take every
// published mainnet header, and to decode it as go-ethereum does.
func TestDecodeHeaderFieldsMainnet(t *testing.T) {
	encs := mainnetHeaderRLPs(t)
	for _, enc := range encs {
		var want types.Header
		if err := rlp.DecodeBytes(enc, &want); err != nil {
			t.Fatal(err)
		}
		got, ok := decodeHeaderFields(enc)
		if !ok || !sameHeader(got, &want) {
			t.Fatalf("block %v: fast path ok=%t, header %+v, want %+v", want.Number, ok, got, &want)
		}
	}
	t.Logf("%d headers", len(encs))
}

// FuzzDecodeHeaderFields holds the fast path to rlp.DecodeBytes on
// arbitrary bytes: whatever it accepts, go-ethereum's decoder accepts
// too, with the same header, and it is that header's canonical encoding
// (so DecodeHeader need not re-encode it); what it declines is
// go-ethereum's to judge.
func FuzzDecodeHeaderFields(f *testing.F) {
	for _, enc := range mainnetHeaderRLPs(f) {
		f.Add(enc)
	}
	f.Add([]byte{0xc0})
	f.Fuzz(func(t *testing.T, enc []byte) {
		got, ok := decodeHeaderFields(enc)
		if !ok {
			return
		}
		var want types.Header
		if err := rlp.DecodeBytes(enc, &want); err != nil {
			t.Fatalf("fast path took %x, rlp.DecodeBytes: %v", enc, err)
		}
		if !sameHeader(got, &want) {
			t.Fatalf("%x: fast path %+v, rlp.DecodeBytes %+v", enc, got, &want)
		}
		if !reencodes(got, enc) {
			t.Fatalf("fast path took %x, which is not the canonical encoding of what it decoded", enc)
		}
	})
}
