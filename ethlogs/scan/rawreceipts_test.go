package scan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestRawReceiptsAgainstJSON fetches the receipts of every block of the
// demo chain both ways, debug_getRawReceipts and eth_getBlockReceipts,
// and requires decodeRawReceipts to give what go-ethereum's JSON decoding
// gives: the same receipts root, statuses, gas and logs; and the
// transaction hashes proven from debug_getRawBlock's encodings to be
// those of eth_getBlockByNumber's transactions.
func TestRawReceiptsAgainstJSON(t *testing.T) {
	c := rawDemo(t)
	client := NewClient(c.URL)
	defer client.Close()
	var calls []Call
	for n := range c.Head + 1 {
		calls = append(calls, Call{Method: rawReceiptsMethod, Params: []any{hexutil.Uint64(n)}},
			Call{Method: "eth_getBlockReceipts", Params: []any{hexutil.Uint64(n)}},
			Call{Method: rawBlockMethod, Params: []any{hexutil.Uint64(n)}},
			Call{Method: "eth_getBlockByNumber", Params: []any{hexutil.Uint64(n), true}},
			Call{Method: rawHeaderMethod, Params: []any{hexutil.Uint64(n)}})
	}
	for i := 0; i < len(calls); i += 250 { // geth answers at most 1,000 calls a batch
		if err := client.Batch(t.Context(), calls[i:min(i+250, len(calls))]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range calls {
		if c.Err != nil {
			t.Fatalf("%s%v: %v", c.Method, c.Params, c.Err)
		}
	}
	logs := 0
	for i := 0; i < len(calls); i += 5 {
		n := uint64(i / 5)
		b, err := decodeRawHeader(calls[i+4].Result, n)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := decodeRawReceipts(calls[i].Result, b.header)
		if err != nil {
			t.Fatalf("decodeRawReceipts(block %d) = %v", n, err)
		}
		var theirs types.Receipts
		if err := json.Unmarshal(calls[i+1].Result, &theirs); err != nil {
			t.Fatal(err)
		}
		if len(ours) != len(theirs) || ethlogs.ReceiptsRoot(ours) != ethlogs.ReceiptsRoot(theirs) {
			t.Fatalf("block %d: %d raw receipts, %d JSON, roots differ or not", n, len(ours), len(theirs))
		}
		for j := range ours {
			a, b := ours[j], theirs[j]
			if a.Type != b.Type || a.Status != b.Status || a.CumulativeGasUsed != b.CumulativeGasUsed || a.Bloom != b.Bloom || len(a.Logs) != len(b.Logs) {
				t.Fatalf("block %d receipt %d: raw %+v, JSON %+v", n, j, a, b)
			}
			for k := range a.Logs {
				x, y := a.Logs[k], b.Logs[k]
				if x.Address != y.Address || !bytes.Equal(x.Data, y.Data) || len(x.Topics) != len(y.Topics) {
					t.Fatalf("block %d receipt %d log %d: raw %+v, JSON %+v", n, j, k, x, y)
				}
				for m := range x.Topics {
					if x.Topics[m] != y.Topics[m] {
						t.Fatalf("block %d receipt %d log %d topic %d: raw %s, JSON %s", n, j, k, m, x.Topics[m], y.Topics[m])
					}
				}
				logs++
			}
		}
		encs, err := rawBlockTxs(calls[i+2].Result, n)
		if err != nil {
			t.Fatalf("rawBlockTxs(block %d) = %v", n, err)
		}
		hashes, err := ethlogs.TransactionHashes(b.header, encs)
		if err != nil {
			t.Fatalf("block %d: %v", n, err)
		}
		var body struct {
			Transactions types.Transactions `json:"transactions"`
		}
		if err := json.Unmarshal(calls[i+3].Result, &body); err != nil {
			t.Fatal(err)
		}
		if len(hashes) != len(body.Transactions) || len(hashes) != len(ours) {
			t.Fatalf("block %d: %d raw transactions, %d JSON, %d receipts", n, len(hashes), len(body.Transactions), len(ours))
		}
		for j := range hashes {
			if hashes[j] != body.Transactions[j].Hash() || hashes[j] != theirs[j].TxHash {
				t.Fatalf("block %d transaction %d: raw %s, JSON %s, receipt %s", n, j, hashes[j], body.Transactions[j].Hash(), theirs[j].TxHash)
			}
		}
	}
	if logs == 0 {
		t.Fatal("no logs compared")
	}
}

// FuzzSplitHexArray compares the hand-written reader of
// debug_getRawReceipts answers with encoding/json: what it accepts,
// encoding/json decodes to the same bytes; and what encoding/json
// accepts as an array of hex strings, written compactly without escapes
// as a node's answer reaches it, it accepts too.
func FuzzSplitHexArray(f *testing.F) {
	f.Add([]byte(`["0x01","0x","0xc0ffee"]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`["0x0"]`))
	f.Add([]byte(`["0x01",]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ours, err := splitHexArray(data)
		var theirs []hexutil.Bytes
		jerr := json.Unmarshal(data, &theirs)
		if err == nil {
			if jerr != nil || len(ours) != len(theirs) {
				t.Fatalf("splitHexArray(%q) = %d values, encoding/json: %d, %v", data, len(ours), len(theirs), jerr)
			}
			for i := range ours {
				if !bytes.Equal(ours[i], theirs[i]) {
					t.Fatalf("splitHexArray(%q)[%d] = %x, encoding/json %x", data, i, ours[i], theirs[i])
				}
			}
			return
		}
		compact := !bytes.ContainsAny(data, "\\ \t\r\n") && string(data) != "null"
		if jerr == nil && compact && len(theirs) <= ethlogs.MaxBlockTransactions {
			t.Fatalf("splitHexArray(%q) = %v; encoding/json accepts it", data, err)
		}
	})
}
