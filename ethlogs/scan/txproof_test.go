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
)

// forgedTxHash is a transaction hash no demo transaction has.
var forgedTxHash = common.HexToHash("0x7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e")

// txLies are the ways a node can forge the transactionHash of a log: in
// the receipts (the field the receipts root does not commit to), in the
// block's transactions, or both consistently.
var txLies = []struct {
	name  string
	forge func(call scantest.Request, result json.RawMessage) json.RawMessage
	want  error
}{
	{"a receipt's transactionHash", func(call scantest.Request, r json.RawMessage) json.RawMessage {
		if call.Method != "eth_getBlockReceipts" {
			return r
		}
		return scantest.Edit(r, func(rs *[]map[string]json.RawMessage) { forgeReceipts(*rs) })
	}, ethlogs.ErrReceipt},
	{"a transaction's input", func(call scantest.Request, r json.RawMessage) json.RawMessage {
		if call.Method != "eth_getBlockByHash" || string(call.Params[1]) != "true" {
			return r
		}
		return scantest.Edit(r, func(b *map[string]json.RawMessage) {
			var txs []map[string]json.RawMessage
			json.Unmarshal((*b)["transactions"], &txs)
			txs[0]["input"] = json.RawMessage(`"0x01"`)
			(*b)["transactions"], _ = json.Marshal(txs)
		})
	}, ethlogs.ErrTransactionsRoot},
	{"the receipts and the transactions' hash fields", func(call scantest.Request, r json.RawMessage) json.RawMessage {
		switch {
		case call.Method == "eth_getBlockReceipts":
			return scantest.Edit(r, func(rs *[]map[string]json.RawMessage) { forgeReceipts(*rs) })
		case call.Method == "eth_getBlockByHash" && string(call.Params[1]) == "true":
			return scantest.Edit(r, func(b *map[string]json.RawMessage) {
				var txs []map[string]json.RawMessage
				json.Unmarshal((*b)["transactions"], &txs)
				for _, tx := range txs {
					tx["hash"], _ = json.Marshal(forgedTxHash)
				}
				(*b)["transactions"], _ = json.Marshal(txs)
			})
		}
		return r
	}, ethlogs.ErrReceipt},
	{"a transaction dropped", func(call scantest.Request, r json.RawMessage) json.RawMessage {
		if call.Method != "eth_getBlockByHash" || string(call.Params[1]) != "true" {
			return r
		}
		return scantest.Edit(r, func(b *map[string]json.RawMessage) {
			var txs []json.RawMessage
			json.Unmarshal((*b)["transactions"], &txs)
			(*b)["transactions"], _ = json.Marshal(txs[1:])
		})
	}, ethlogs.ErrTransactionsRoot},
}

// forgeReceipts sets every receipt's and log's transactionHash to
// forgedTxHash.
func forgeReceipts(rs []map[string]json.RawMessage) {
	h, _ := json.Marshal(forgedTxHash)
	for _, rc := range rs {
		rc["transactionHash"] = h
		var logs []map[string]json.RawMessage
		json.Unmarshal(rc["logs"], &logs)
		for _, l := range logs {
			l["transactionHash"] = h
		}
		rc["logs"], _ = json.Marshal(logs)
	}
}

// TestForgedTxHash puts a proxy in front of the node that forges the
// transaction hashes of one block with matching logs: the scan stops with
// an error naming that block, having emitted only true logs of earlier
// blocks. With TrustTxHashes the forgery goes through: that is what the
// proof is for.
func TestForgedTxHash(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}}
	truth := getLogs(t, c.URL, withRange(q, 0, c.Head))
	target, hash := lieTarget(t, truth)
	for _, lie := range txLies {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			p.Disable("debug_getRawReceipts") // lies told in JSON
			p.Disable("debug_getRawBlock")
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				if call.Hash() != hash {
					return result
				}
				return lie.forge(call, result)
			})
			cfg := scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: t.TempDir(), ReceiptsBatch: 3}
			got, _, err := collect(t.Context(), cfg)
			var be *ethlogs.BlockError
			if !errors.Is(err, lie.want) || !errors.As(err, &be) || be.Number != target || !strings.Contains(err.Error(), fmt.Sprintf("block %d", target)) {
				t.Fatalf("scan = %v; want %v naming block %d", err, lie.want, target)
			}
			if !slices.Equal(got, truth[:len(got)]) || slices.ContainsFunc(got, func(l string) bool { return blockOf(t, l) >= target }) {
				t.Errorf("emitted logs that are not the node's true ones, or of block %d or after:\n%s", target, strings.Join(got, "\n"))
			}
			t.Logf("%s: %v", lie.name, err)
		})
	}
	t.Run("trusted", func(t *testing.T) {
		p := scantest.NewProxy(c.URL)
		defer p.Close()
		p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
			if call.Hash() != hash {
				return result
			}
			return txLies[0].forge(call, result)
		})
		got, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(p.URL), Query: q, IndexDir: t.TempDir(), TrustTxHashes: true})
		if err != nil || st.TxProven != 0 || !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, forgedTxHash.Hex()) }) {
			t.Errorf("TrustTxHashes: %v, %d blocks proven; want the forged hash printed, nothing proven", err, st.TxProven)
		}
	})
}

// TestTxProofStats: every block with matches has its transactions proven,
// and their bytes are counted; bloom false positives fetch none.
func TestTxProofStats(t *testing.T) {
	c := startDemo(t)
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}, Topics: [][]common.Hash{{transferTopic}}}
	got, st, err := collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir()})
	if err != nil || !slices.Equal(got, getLogs(t, c.URL, withRange(q, 0, c.Head))) {
		t.Fatalf("scan: %v, or not eth_getLogs' logs", err)
	}
	if st.TxProven != st.Matched || st.Matched == 0 || st.Candidates == st.Matched || st.TxBytes <= 0 || st.TxBytes >= st.ReceiptBytes {
		t.Errorf("%d blocks' transactions proven (%d bytes), %d with matches, %d candidates, %d receipt bytes", st.TxProven, st.TxBytes, st.Matched, st.Candidates, st.ReceiptBytes)
	}
	_, st, err = collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: t.TempDir(), Mode: scan.None})
	if err != nil || st.TxProven != 0 {
		t.Errorf("verify none: %v, %d blocks proven; want none", err, st.TxProven)
	}
}
