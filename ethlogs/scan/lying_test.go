package scan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
)

type receiptJSON = []map[string]json.RawMessage

// lies are answers a node can forge, each with the error that must catch
// it: the reason and the block named (target or the one after it).
var lies = []struct {
	name    string
	method  string // "header": debug_getRawHeader, eth_getHeaderByNumber or eth_getBlockByNumber
	forge   func(result json.RawMessage) json.RawMessage
	want    error
	blockUp uint64 // the error names target+blockUp
	json    bool   // a lie told in JSON: the node's raw headers and receipts are refused
}{
	{"drop a log", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) {
			for _, rc := range *rs {
				var logs []json.RawMessage
				json.Unmarshal(rc["logs"], &logs)
				if len(logs) > 0 {
					rc["logs"], _ = json.Marshal(logs[:len(logs)-1])
					return
				}
			}
		})
	}, ethlogs.ErrReceiptsRoot, 0, true},
	{"alter a log's data", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) {
			for _, rc := range *rs {
				var logs []map[string]json.RawMessage
				json.Unmarshal(rc["logs"], &logs)
				if len(logs) > 0 {
					logs[0]["data"] = json.RawMessage(`"0x01"`)
					rc["logs"], _ = json.Marshal(logs)
					return
				}
			}
		})
	}, ethlogs.ErrReceiptsRoot, 0, true},
	{"swap two receipts", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) { (*rs)[0], (*rs)[1] = (*rs)[1], (*rs)[0] })
	}, ethlogs.ErrReceiptsRoot, 0, true},
	{"alter a receipt bloom", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) {
			(*rs)[0]["logsBloom"], _ = json.Marshal(types.Bloom{})
		})
	}, ethlogs.ErrReceiptsRoot, 0, true},
	{"withhold every receipt", "eth_getBlockReceipts", func(json.RawMessage) json.RawMessage {
		return json.RawMessage("[]")
	}, ethlogs.ErrReceiptsRoot, 0, true},
	{"alter a header bloom", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(b *map[string]json.RawMessage) { (*b)["logsBloom"], _ = json.Marshal(types.Bloom{}) })
	}, ethlogs.ErrHeaderHash, 0, true},
	{"alter a header bloom and its hash", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(h *types.Header) { h.Bloom = types.Bloom{} }) // marshals the new hash
	}, ethlogs.ErrParentLink, 1, false},
	{"break a parent link", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(h *types.Header) { h.ParentHash[0] ^= 1 })
	}, ethlogs.ErrParentLink, 0, false},
}

// TestLyingNode puts a proxy in front of the node that forges one block's
// answer, in each of the ways above, and requires the scan to stop with
// an error that names that block and the reason, having emitted only logs
// of earlier blocks, all of them true.
func TestLyingNode(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	truth := getLogs(t, c.URL, withRange(q, 0, c.Head))
	target, hash := lieTarget(t, truth)
	honest := t.TempDir() // an index of honest headers, for the lies told in receipts
	for _, lie := range lies {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			dir := honest
			if lie.method == "header" {
				dir = t.TempDir()
			}
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			if lie.json {
				p.Disable("debug_getRawHeader")
				p.Disable("debug_getRawReceipts")
			}
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				if call.Block() == int64(target) && lie.method == "header" || call.Method == lie.method && call.Hash() == hash {
					if lie.method == "header" && call.Method != "debug_getRawHeader" && !lie.json {
						t.Errorf("%s(%d) asked; the demo node serves raw headers", call.Method, target)
					}
					return lie.forge(result)
				}
				return result
			})
			got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: dir, ReceiptsBatch: 3})
			var be *ethlogs.BlockError
			wantBlock := target + lie.blockUp
			if !errors.Is(err, lie.want) || !errors.As(err, &be) || be.Number != wantBlock || !strings.Contains(err.Error(), fmt.Sprintf("block %d", wantBlock)) {
				t.Fatalf("scan = %v; want %v naming block %d", err, lie.want, wantBlock)
			}
			if !slices.Equal(got, truth[:len(got)]) {
				t.Errorf("emitted logs that are not the node's true ones:\n%s", strings.Join(got, "\n"))
			}
			for _, l := range got {
				if blockOf(t, l) >= target {
					t.Errorf("emitted a log of block %d, at or after the forged block %d", blockOf(t, l), target)
				}
			}
			t.Logf("%s: %v (%d true logs emitted before it)", lie.name, err, len(got))
		})
	}
}

// lieTarget picks a block with matching logs in at least its second
// transaction, so that it has two receipts to swap, and some logs before
// it, so that a scan emits before it meets the lie.
func lieTarget(t *testing.T, truth []string) (uint64, string) {
	for _, line := range truth[3:] {
		var l struct {
			Block   string `json:"blockNumber"`
			Hash    string `json:"blockHash"`
			TxIndex string `json:"transactionIndex"`
		}
		json.Unmarshal([]byte(line), &l)
		if l.TxIndex != "0x0" {
			return blockOf(t, line), l.Hash
		}
	}
	t.Fatal("no log in a second transaction")
	return 0, ""
}

func blockOf(t *testing.T, line string) uint64 {
	var l types.Log
	if err := json.Unmarshal([]byte(line), &l); err != nil {
		t.Fatal(err)
	}
	return l.BlockNumber
}

// TestLyingRawHeader forges the RLP a node answers to debug_getRawHeader
// in ways only raw bytes can be forged, and requires the scan to stop
// naming the block, having emitted only true logs of earlier blocks.
func TestLyingRawHeader(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	truth := getLogs(t, c.URL, withRange(q, 0, c.Head))
	target, _ := lieTarget(t, truth)
	var before json.RawMessage
	if err := scan.NewClient(c.URL).Call(t.Context(), &before, "debug_getRawHeader", hexNumber(target-1)); err != nil {
		t.Fatal(err)
	}
	hexOf := func(b []byte) json.RawMessage { out, _ := json.Marshal(hexutil.Bytes(b)); return out }
	bytesOf := func(r json.RawMessage) []byte { var b hexutil.Bytes; json.Unmarshal(r, &b); return b }
	for _, lie := range []struct {
		name    string
		forge   func(json.RawMessage) json.RawMessage
		want    error
		blockUp uint64
	}{
		{"the header of the block before", func(json.RawMessage) json.RawMessage { return before }, ethlogs.ErrHeaderRLP, 0},
		{"a byte after the header", func(r json.RawMessage) json.RawMessage { return hexOf(append(bytesOf(r), 0x80)) }, ethlogs.ErrHeaderRLP, 0},
		{"a header cut short", func(r json.RawMessage) json.RawMessage { b := bytesOf(r); return hexOf(b[:len(b)-1]) }, ethlogs.ErrHeaderRLP, 0},
		{"not hex", func(json.RawMessage) json.RawMessage { return json.RawMessage(`"0xzz"`) }, ethlogs.ErrHeaderRLP, 0},
		{"a JSON header instead", func(json.RawMessage) json.RawMessage { return json.RawMessage(`{"number":"0x1"}`) }, ethlogs.ErrHeaderRLP, 0},
		{"one bit of the bloom flipped", func(r json.RawMessage) json.RawMessage {
			return scantest.Edit(r, func(h *types.Header) { h.Bloom[100] ^= 1 })
		}, ethlogs.ErrParentLink, 1},
	} {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			var forged atomic.Bool
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				if call.Method == "debug_getRawHeader" && call.Block() == int64(target) {
					forged.Store(true)
					return lie.forge(result)
				}
				return result
			})
			got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: t.TempDir()})
			var be *ethlogs.BlockError
			wantBlock := target + lie.blockUp
			if !forged.Load() || !errors.Is(err, lie.want) || !errors.As(err, &be) || be.Number != wantBlock {
				t.Fatalf("scan = %v (forged: %t); want %v naming block %d", err, forged.Load(), lie.want, wantBlock)
			}
			if !slices.Equal(got, truth[:len(got)]) {
				t.Errorf("emitted logs that are not the node's true ones:\n%s", strings.Join(got, "\n"))
			}
			t.Logf("%s: %v (%d true logs emitted before it)", lie.name, err, len(got))
		})
	}
}

// TestLyingRawReceipts forges the consensus encodings a node answers to
// debug_getRawReceipts and debug_getRawBlock, and requires the scan to
// stop naming the block (the receipts root, or the transactions root
// that proves each log's transactionHash), having emitted only true logs
// of earlier blocks.
func TestLyingRawReceipts(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	truth := getLogs(t, c.URL, withRange(q, 0, c.Head))
	target, hash := lieTarget(t, truth)
	honest := t.TempDir() // the headers are true: one index serves every lie
	receipts := func(f func(encs [][]byte) [][]byte) func(json.RawMessage) json.RawMessage {
		return func(r json.RawMessage) json.RawMessage {
			var encs []hexutil.Bytes
			json.Unmarshal(r, &encs)
			bs := make([][]byte, len(encs))
			for i := range encs {
				bs[i] = encs[i]
			}
			out := make([]hexutil.Bytes, 0, len(encs))
			for _, b := range f(bs) {
				out = append(out, b)
			}
			j, _ := json.Marshal(out)
			return j
		}
	}
	editReceipt := func(i int, edit func(*types.Receipt)) func([][]byte) [][]byte {
		return func(encs [][]byte) [][]byte {
			var r types.Receipt
			if err := r.UnmarshalBinary(encs[i]); err != nil {
				t.Error(err)
			}
			edit(&r)
			encs[i], _ = r.MarshalBinary()
			return encs
		}
	}
	for _, lie := range []struct {
		name   string
		method string
		forge  func(json.RawMessage) json.RawMessage
		want   error
	}{
		{"drop a receipt", "debug_getRawReceipts", receipts(func(e [][]byte) [][]byte { return e[1:] }), ethlogs.ErrReceiptsRoot},
		{"swap two receipts", "debug_getRawReceipts", receipts(func(e [][]byte) [][]byte { e[0], e[1] = e[1], e[0]; return e }), ethlogs.ErrReceiptsRoot},
		{"alter a log's data", "debug_getRawReceipts", receipts(editReceipt(1, func(r *types.Receipt) { r.Logs[0].Data = []byte{1} })), ethlogs.ErrReceiptsRoot},
		{"drop a log and its bloom bits", "debug_getRawReceipts", receipts(editReceipt(1, func(r *types.Receipt) {
			r.Logs = r.Logs[:len(r.Logs)-1]
			r.Bloom = types.CreateBloom(r)
		})), ethlogs.ErrReceiptsRoot},
		{"a byte after a receipt", "debug_getRawReceipts", receipts(func(e [][]byte) [][]byte { e[0] = append(e[0], 0x80); return e }), ethlogs.ErrReceipt},
		{"not an array", "debug_getRawReceipts", func(json.RawMessage) json.RawMessage { return json.RawMessage(`"0x"`) }, ethlogs.ErrReceipt},
		{"an object in the array", "debug_getRawReceipts", func(json.RawMessage) json.RawMessage { return json.RawMessage(`[{}]`) }, ethlogs.ErrReceipt},
		{"a transaction dropped from the block", "debug_getRawBlock", func(r json.RawMessage) json.RawMessage {
			var enc hexutil.Bytes
			var b types.Block
			if json.Unmarshal(r, &enc) != nil || rlp.DecodeBytes(enc, &b) != nil {
				t.Error("debug_getRawBlock: not a block")
			}
			body := b.Body()
			body.Transactions = body.Transactions[1:]
			out, _ := rlp.EncodeToBytes(types.NewBlockWithHeader(b.Header()).WithBody(*body))
			j, _ := json.Marshal(hexutil.Bytes(out))
			return j
		}, ethlogs.ErrTransactionsRoot},
	} {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			var forged atomic.Bool
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				if call.Method == lie.method && call.Hash() == hash {
					forged.Store(true)
					return lie.forge(result)
				}
				return result
			})
			got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: honest, ReceiptsBatch: 3})
			var be *ethlogs.BlockError
			if !forged.Load() || !errors.Is(err, lie.want) || !errors.As(err, &be) || be.Number != target {
				t.Fatalf("scan = %v (forged: %t); want %v naming block %d", err, forged.Load(), lie.want, target)
			}
			if !slices.Equal(got, truth[:len(got)]) || slices.ContainsFunc(got, func(l string) bool { return blockOf(t, l) >= target }) {
				t.Errorf("emitted logs that are not the node's true ones, or of block %d or after:\n%s", target, strings.Join(got, "\n"))
			}
			t.Logf("%s: %v (%d true logs emitted before it)", lie.name, err, len(got))
		})
	}
}
