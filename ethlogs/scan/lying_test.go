package scan_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

type receiptJSON = []map[string]json.RawMessage

// lies are answers a node can forge, each with the error that must catch
// it: the reason and the block named (target or the one after it).
var lies = []struct {
	name    string
	method  string // "header": eth_getHeaderByNumber or eth_getBlockByNumber
	forge   func(result json.RawMessage) json.RawMessage
	want    error
	blockUp uint64 // the error names target+blockUp
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
	}, ethlogs.ErrReceiptsRoot, 0},
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
	}, ethlogs.ErrReceiptsRoot, 0},
	{"swap two receipts", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) { (*rs)[0], (*rs)[1] = (*rs)[1], (*rs)[0] })
	}, ethlogs.ErrReceiptsRoot, 0},
	{"alter a receipt bloom", "eth_getBlockReceipts", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(rs *receiptJSON) {
			(*rs)[0]["logsBloom"], _ = json.Marshal(types.Bloom{})
		})
	}, ethlogs.ErrReceiptsRoot, 0},
	{"withhold every receipt", "eth_getBlockReceipts", func(json.RawMessage) json.RawMessage {
		return json.RawMessage("[]")
	}, ethlogs.ErrReceiptsRoot, 0},
	{"alter a header bloom", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(b *map[string]json.RawMessage) { (*b)["logsBloom"], _ = json.Marshal(types.Bloom{}) })
	}, ethlogs.ErrHeaderHash, 0},
	{"alter a header bloom and its hash", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(h *types.Header) { h.Bloom = types.Bloom{} }) // marshals the new hash
	}, ethlogs.ErrParentLink, 1},
	{"break a parent link", "header", func(r json.RawMessage) json.RawMessage {
		return scantest.Edit(r, func(h *types.Header) { h.ParentHash[0] ^= 1 })
	}, ethlogs.ErrParentLink, 0},
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
	for _, lie := range lies {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				if call.Block() == int64(target) && lie.method == "header" || call.Method == lie.method && call.Hash() == hash {
					return lie.forge(result)
				}
				return result
			})
			got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: t.TempDir(), ReceiptsBatch: 3})
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
