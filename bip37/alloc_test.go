package bip37

import (
	"bytes"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors"
)

// TestZeroAllocs pins the per-element and per-transaction paths at zero
// allocations.
func TestZeroAllocs(t *testing.T) {
	f, _ := New(1000, 1e-6, 7, UpdateAll)
	elems := map[string][]byte{"32 bytes": make([]byte, 32), "300 bytes": make([]byte, 300), "600 bytes": make([]byte, 600)}
	for _, e := range elems {
		f.Add(e)
	}
	tx, spend := vectorTxs(t)
	txid, spendID := tx.TxHash(), spend.TxHash()
	f.Add(tx.TxOut[0].PkScript[3:23]) // matches, and inserts an outpoint
	op := wire.OutPoint{Hash: txid, Index: 1}
	cases := map[string]func(){
		"AddOutPoint":      func() { f.AddOutPoint(op) },
		"ContainsOutPoint": func() { f.ContainsOutPoint(op) },
		"MatchTx":          func() { f.MatchTx(tx, txid) },
		"MatchTx spend":    func() { f.MatchTx(spend, spendID) },
	}
	for name, e := range elems {
		cases["Add "+name] = func() { f.Add(e) }
		cases["Contains "+name] = func() { f.Contains(e) }
	}
	for name, fn := range cases {
		if n := testing.AllocsPerRun(100, fn); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

func vectorTxs(t testing.TB) (tx, spend *wire.MsgTx) {
	t.Helper()
	data, _ := testvectors.Read("bip37/bloom_match.json")
	f, err := testvectors.ParseBIP37Match(data)
	if err != nil {
		t.Fatal(err)
	}
	tx, spend = new(wire.MsgTx), new(wire.MsgTx)
	if err := tx.Deserialize(bytes.NewReader(f.Tx)); err != nil {
		t.Fatal(err)
	}
	if err := spend.Deserialize(bytes.NewReader(f.SpendingTx)); err != nil {
		t.Fatal(err)
	}
	return tx, spend
}
