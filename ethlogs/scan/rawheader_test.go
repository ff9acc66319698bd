package scan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

// rawDemo is the package's shared demo node, for the differential tests
// of the raw answers.
func rawDemo(t *testing.T) *demo.Chain {
	t.Helper()
	c, err := DemoChain()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRawHeaderAgainstJSON fetches every header of the demo chain both
// ways, debug_getRawHeader and eth_getHeaderByNumber, and requires the
// same header and hash from decodeRawHeader as from the JSON path, whose
// hash go-ethereum computes from the fields.
func TestRawHeaderAgainstJSON(t *testing.T) {
	c := rawDemo(t)
	client := NewClient(c.URL)
	defer client.Close()
	var calls []Call
	for n := range c.Head + 1 {
		calls = append(calls, Call{Method: rawHeaderMethod, Params: []any{hexutil.Uint64(n)}},
			Call{Method: "eth_getHeaderByNumber", Params: []any{hexutil.Uint64(n)}})
	}
	if err := client.Batch(t.Context(), calls); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(calls); i += 2 {
		n := uint64(i / 2)
		raw, err := decodeRawHeader(calls[i].Result, n)
		if err != nil {
			t.Fatalf("decodeRawHeader(block %d) = %v", n, err)
		}
		js, err := decodeBlock(calls[i+1].Result, n)
		if err != nil {
			t.Fatalf("decodeBlock(block %d) = %v", n, err)
		}
		a, _ := rlp.EncodeToBytes(raw.header)
		b, _ := rlp.EncodeToBytes(js.header)
		if raw.hash != js.hash || !bytes.Equal(a, b) {
			t.Fatalf("block %d: raw header %s %x, JSON header %s %x", n, raw.hash, a, js.hash, b)
		}
	}
}

// FuzzRawHeader decodes arbitrary bytes as a debug_getRawHeader answer
// and compares with go-ethereum's RLP decoding: whatever decodeRawHeader
// accepts, go-ethereum decodes to a header whose hash (the Keccak-256 of
// its own encoding) is the hash decodeRawHeader gives, for the number
// asked.
func FuzzRawHeader(f *testing.F) {
	for _, name := range []string{"14764013", "15537393", "17034869", "19426587", "22431084", "22869878"} {
		data, err := testvectors.Read("ethlogs/mainnet-" + name + ".json")
		if err != nil {
			f.Fatal(err)
		}
		blocks, err := testvectors.ParseEthBlocks(data)
		if err != nil {
			f.Fatal(err)
		}
		for _, b := range blocks.Blocks {
			f.Add([]byte(b.HeaderRLP))
		}
	}
	f.Add([]byte{0xc0})
	f.Fuzz(func(t *testing.T, enc []byte) {
		var theirs types.Header
		gerr := rlp.DecodeBytes(enc, &theirs)
		want := uint64(0)
		if gerr == nil && theirs.Number != nil && theirs.Number.IsUint64() {
			want = theirs.Number.Uint64()
		}
		answer, _ := json.Marshal(hexutil.Bytes(enc))
		ours, err := decodeRawHeader(answer, want)
		if err != nil {
			return
		}
		if gerr != nil {
			t.Fatalf("decodeRawHeader accepted %x, go-ethereum: %v", enc, gerr)
		}
		if ours.hash != theirs.Hash() || ours.header.Number.Uint64() != want {
			t.Fatalf("decodeRawHeader(%x) = block %d %s, go-ethereum %d %s", enc, ours.header.Number, ours.hash, want, theirs.Hash())
		}
	})
}
