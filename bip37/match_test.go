package bip37

import (
	"encoding/hex"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// newTx returns a transaction spending prev with scriptSig sig and paying to
// each output script.
func newTx(prev wire.OutPoint, sig []byte, outs ...[]byte) *wire.MsgTx {
	tx := wire.NewMsgTx(1)
	tx.AddTxIn(wire.NewTxIn(&prev, sig, nil))
	for _, s := range outs {
		tx.AddTxOut(wire.NewTxOut(1000, s))
	}
	return tx
}

var (
	hash160  = unhexMust("0123456789abcdef0123456789abcdef01234567")
	p2pkh    = append(append([]byte{0x76, 0xa9, 0x14}, hash160...), 0x88, 0xac)
	p2wpkh   = append([]byte{0x00, 0x14}, hash160...)
	pubKey   = unhexMust(key33)
	p2pk     = append(append([]byte{0x21}, pubKey...), 0xac)
	multisig = append(append([]byte{0x51, 0x21}, pubKey...), 0x51, 0xae)
	prevOut  = wire.OutPoint{Hash: chainhash.Hash{1, 2, 3}, Index: 7}
)

func TestMatchTx(t *testing.T) {
	sigPush := append([]byte{0x03}, "sig"...)
	tests := []struct {
		name    string
		insert  [][]byte
		flags   Flags
		tx      *wire.MsgTx
		want    bool
		outputs []uint32 // outpoints of tx inserted by the match
	}{
		{"nothing", [][]byte{[]byte("other")}, UpdateAll, newTx(prevOut, nil, p2pkh), false, nil},
		{"output push, update all", [][]byte{hash160}, UpdateAll, newTx(prevOut, nil, p2wpkh, p2pkh), true, []uint32{0, 1}},
		{"output push, update none", [][]byte{hash160}, UpdateNone, newTx(prevOut, nil, p2pkh), true, nil},
		{"P2PKH under P2PUBKEY_ONLY", [][]byte{hash160}, UpdateP2PubKeyOnly, newTx(prevOut, nil, p2pkh), true, nil},
		{"P2PK under P2PUBKEY_ONLY", [][]byte{pubKey}, UpdateP2PubKeyOnly, newTx(prevOut, nil, p2pk, multisig), true, []uint32{0, 1}},
		{"flags 3 update nothing", [][]byte{hash160}, 3, newTx(prevOut, nil, p2pkh), true, nil},
		{"reserved flag bits ignored", [][]byte{hash160}, 0x80 | UpdateAll, newTx(prevOut, nil, p2pkh), true, []uint32{0}},
		{"previous outpoint", [][]byte{outPointSlice(prevOut)}, UpdateAll, newTx(prevOut, nil, p2pkh), true, nil},
		{"scriptSig push", [][]byte{[]byte("sig")}, UpdateAll, newTx(prevOut, sigPush, p2pkh), true, nil},
		{"empty push never matches", [][]byte{{}}, UpdateAll, newTx(prevOut, []byte{0x00}, p2wpkh), false, nil},
		{"push before a truncated push", [][]byte{[]byte("sig")}, UpdateAll, newTx(prevOut, append(sigPush, 0x4c), p2pkh), true, nil},
		{"push after a truncated push", [][]byte{[]byte("sig")}, UpdateAll, newTx(prevOut, append([]byte{0x05, 1}, sigPush...), p2pkh), false, nil},
		{"witness is never read", [][]byte{[]byte("witness")}, UpdateAll, withWitness(newTx(prevOut, nil, p2wpkh), []byte("witness")), false, nil},
	}
	for _, tt := range tests {
		f, err := New(10, 1e-6, 0, tt.flags)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tt.insert {
			f.Add(e)
		}
		txid := tt.tx.TxHash()
		if got := f.MatchTx(tt.tx, txid); got != tt.want {
			t.Errorf("%s: MatchTx = %v, want %v", tt.name, got, tt.want)
		}
		for i := range tt.tx.TxOut {
			inserted := f.ContainsOutPoint(wire.OutPoint{Hash: txid, Index: uint32(i)})
			want := false
			for _, o := range tt.outputs {
				want = want || o == uint32(i)
			}
			if inserted != want {
				t.Errorf("%s: ContainsOutPoint(output %d) = %v after MatchTx, want %v", tt.name, i, inserted, want)
			}
		}
	}
}

// TestMatchTxScansEveryOutput follows Core: a txid match does not stop the
// output scan, so the outputs' outpoints are still inserted.
func TestMatchTxScansEveryOutput(t *testing.T) {
	tx := newTx(prevOut, nil, p2pkh)
	txid := tx.TxHash()
	f, _ := New(10, 1e-6, 0, UpdateAll)
	f.AddHash(txid)
	f.Add(hash160)
	if !f.MatchTx(tx, txid) || !f.ContainsOutPoint(wire.OutPoint{Hash: txid, Index: 0}) {
		t.Errorf("MatchTx after a txid match did not insert output 0")
	}
}

// TestMatchTxUpdateFindsSpend: the outpoint inserted for a payment makes the
// spend match, with no insert by the wallet.
func TestMatchTxUpdateFindsSpend(t *testing.T) {
	pay := newTx(prevOut, nil, p2wpkh)
	spend := newTx(wire.OutPoint{Hash: pay.TxHash(), Index: 0}, nil, p2pkh[:3])
	for _, flags := range []Flags{UpdateNone, UpdateAll} {
		f, _ := New(10, 1e-6, 0, flags)
		f.Add(hash160)
		f.MatchTx(pay, pay.TxHash())
		if got := f.MatchTx(spend, spend.TxHash()); got != (flags == UpdateAll) {
			t.Errorf("flags %d: MatchTx(spend) = %v, want %v", flags, got, flags == UpdateAll)
		}
	}
}

func withWitness(tx *wire.MsgTx, w []byte) *wire.MsgTx {
	tx.TxIn[0].Witness = wire.TxWitness{w}
	return tx
}

func outPointSlice(op wire.OutPoint) []byte {
	b := outPointBytes(op)
	return b[:]
}

func unhexMust(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
