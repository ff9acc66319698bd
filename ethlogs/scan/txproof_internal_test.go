package scan

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// sampleTxs returns the JSON of a block object holding two signed
// transactions, and a header committing to them.
func sampleTxs(t testing.TB) ([]byte, *types.Header, types.Receipts) {
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	to := common.Address{7}
	var txs types.Transactions
	for i, inner := range []types.TxData{
		&types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: 1, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(9), Gas: 50000, To: &to, Data: []byte{1, 2}},
		&types.LegacyTx{Nonce: 2, GasPrice: big.NewInt(3), Gas: 21000, To: &to, Value: big.NewInt(5)},
	} {
		tx, err := types.SignNewTx(key, signer, inner)
		if err != nil {
			t.Fatal(i, err)
		}
		txs = append(txs, tx)
	}
	raw, err := json.Marshal(map[string]any{"transactions": txs})
	if err != nil {
		t.Fatal(err)
	}
	h := &types.Header{Number: big.NewInt(9), Difficulty: new(big.Int), TxHash: ethlogs.TransactionsRoot(txs)}
	rs := types.Receipts{{TxHash: txs[0].Hash()}, {TxHash: txs[1].Hash()}}
	return raw, h, rs
}

// proveJSON proves a block's transactions as eth_getBlockByHash lists them.
func proveJSON(m matched, raw json.RawMessage) error {
	hashes, err := txHashes(raw, m.b, false)
	if err != nil {
		return err
	}
	return proveBlockTxs(m, hashes)
}

func TestProveBlockTxs(t *testing.T) {
	raw, h, rs := sampleTxs(t)
	log := &types.Log{TxIndex: 1}
	m := matched{b: &block{header: h, hash: h.Hash()}, rs: rs, logs: []*types.Log{log}}
	if err := proveJSON(m, raw); err != nil || log.TxHash != rs[1].TxHash {
		t.Fatalf("proveBlockTxs = %v, log hash %s; want nil, %s", err, log.TxHash, rs[1].TxHash)
	}
	m.rs = rs[:1]
	if err := proveJSON(m, raw); err == nil {
		t.Error("proveBlockTxs(2 transactions, 1 receipt) = nil")
	}
	if err := proveJSON(m, []byte(`{"transactions":[{"type":"0x7e"}]}`)); err == nil || !strings.Contains(err.Error(), "turn the proof off") {
		t.Errorf("proveBlockTxs(an unknown transaction type) = %v", err)
	}
}

// FuzzProveBlockTxs feeds arbitrary block objects to the transaction
// proof: it must not panic, and what it accepts hashes to the header's
// transactionsRoot.
func FuzzProveBlockTxs(f *testing.F) {
	raw, h, rs := sampleTxs(f)
	f.Add(raw)
	f.Add([]byte(`{"transactions":[]}`))
	f.Add([]byte(`{"transactions":[null]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := matched{b: &block{header: h, hash: h.Hash()}, rs: rs}
		if proveJSON(m, data) != nil {
			return
		}
		var body struct {
			Transactions types.Transactions `json:"transactions"`
		}
		if err := json.Unmarshal(data, &body); err != nil || ethlogs.TransactionsRoot(body.Transactions) != h.TxHash ||
			len(body.Transactions) != len(rs) || body.Transactions[0].Hash() != rs[0].TxHash || body.Transactions[1].Hash() != rs[1].TxHash {
			t.Fatalf("accepted %q", data)
		}
	})
}

// BenchmarkProveBlockTxs is the client's cost of proving a block's
// transaction hashes: decoding the transactions of a 200-transaction
// block from the node's JSON, their trie root and hashes.
func BenchmarkProveBlockTxs(b *testing.B) {
	c, err := demo.StartDense(2, 200)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	client := NewClient(c.URL)
	var raw json.RawMessage
	var h types.Header
	var rs types.Receipts
	ctx := context.Background()
	if err := client.Call(ctx, &raw, "eth_getBlockByNumber", hexutil.Uint64(2), true); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		b.Fatal(err)
	}
	if err := client.Call(ctx, &rs, "eth_getBlockReceipts", hexutil.Uint64(2)); err != nil {
		b.Fatal(err)
	}
	m := matched{b: &block{header: &h, hash: h.Hash()}, rs: rs}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if err := proveJSON(m, raw); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rs)), "txs/block")
}
