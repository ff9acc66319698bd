package spv

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// randomTx returns a transaction of about 100 bytes with random contents.
func randomTx(r *rand.Rand) *wire.MsgTx {
	tx := wire.NewMsgTx(2)
	var prev chainhash.Hash
	for i := range prev {
		prev[i] = byte(r.Uint32())
	}
	tx.AddTxIn(wire.NewTxIn(wire.NewOutPoint(&prev, r.Uint32()%4), []byte{0x51}, nil))
	tx.AddTxOut(wire.NewTxOut(r.Int64N(1e8), []byte{0x00, 0x14, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, byte(r.Uint32())}))
	return tx
}

// randomBlock returns a block of n random transactions whose header holds
// their merkle root as btcd's blockchain package computes it.
func randomBlock(r *rand.Rand, n int) *wire.MsgBlock {
	b := &wire.MsgBlock{Header: wire.BlockHeader{Version: 4, Bits: regtestBits}}
	var txs []*btcutil.Tx
	for range n {
		tx := randomTx(r)
		b.Transactions = append(b.Transactions, tx)
		txs = append(txs, btcutil.NewTx(tx))
	}
	b.Header.MerkleRoot = blockchain.CalcMerkleRoot(txs, false)
	return b
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }

// TestVerifyBlockBTCD checks merkle roots against btcd's for every size up
// to 70 transactions.
func TestVerifyBlockBTCD(t *testing.T) {
	r := newRand()
	for n := 1; n <= 70; n++ {
		b := randomBlock(r, n)
		txids, err := VerifyBlock(b, b.BlockHash())
		if err != nil {
			t.Fatalf("VerifyBlock(block of %d transactions, btcd's root) = %v", n, err)
		}
		if len(txids) != n || txids[n-1] != b.Transactions[n-1].TxHash() {
			t.Errorf("VerifyBlock(block of %d) returned %d txids, last %s", n, len(txids), txids[len(txids)-1])
		}
	}
}

func TestVerifyBlockRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tests := []struct {
		name  string
		block func() (*wire.MsgBlock, chainhash.Hash)
		want  string
	}{
		{"another block", func() (*wire.MsgBlock, chainhash.Hash) {
			return randomBlock(r, 3), chainhash.Hash{1}
		}, "arrived for"},
		{"no transactions", func() (*wire.MsgBlock, chainhash.Hash) {
			b := randomBlock(r, 1)
			b.Transactions = nil
			return b, b.BlockHash()
		}, "no transactions"},
		{"a transaction withheld", func() (*wire.MsgBlock, chainhash.Hash) {
			b := randomBlock(r, 4)
			b.Transactions = b.Transactions[:3]
			return b, b.BlockHash()
		}, "transactions hash to merkle root"},
		{"a transaction altered", func() (*wire.MsgBlock, chainhash.Hash) {
			b := randomBlock(r, 4)
			b.Transactions[2].TxOut[0].Value++
			return b, b.BlockHash()
		}, "transactions hash to merkle root"},
		{"last transaction repeated (CVE-2012-2459)", func() (*wire.MsgBlock, chainhash.Hash) {
			b := randomBlock(r, 3)
			b.Transactions = append(b.Transactions, b.Transactions[2])
			return b, b.BlockHash()
		}, "CVE-2012-2459"},
		{"last two repeated", func() (*wire.MsgBlock, chainhash.Hash) {
			b := randomBlock(r, 6)
			b.Transactions = append(b.Transactions, b.Transactions[4:]...)
			return b, b.BlockHash()
		}, "CVE-2012-2459"},
		{"64-byte transaction", func() (*wire.MsgBlock, chainhash.Hash) {
			tx := wire.NewMsgTx(2)
			tx.AddTxIn(wire.NewTxIn(wire.NewOutPoint(&chainhash.Hash{}, 0), nil, nil))
			tx.AddTxOut(wire.NewTxOut(0, []byte{0x51, 0x51, 0x51, 0x51}))
			b := &wire.MsgBlock{Transactions: []*wire.MsgTx{tx}}
			b.Header.MerkleRoot = tx.TxHash()
			return b, b.BlockHash()
		}, "64 bytes"},
	}
	for _, tt := range tests {
		b, want := tt.block()
		_, err := VerifyBlock(b, want)
		if !errors.Is(err, ErrMisbehaving) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: VerifyBlock() = %v, want an error wrapping ErrMisbehaving containing %q", tt.name, err, tt.want)
		}
	}
}
