package bip37

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// filteredBlock builds a block of n random transactions and the merkle block
// proving those at the given indices.
func filteredBlock(t *testing.T, seed uint64, n int, proven ...int) (*wire.MsgBlock, *wire.MsgMerkleBlock) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed))
	block := randomBlock(r, n, randomKeys(r, 4))
	f, _ := Load(make([]byte, 100), 10, 0, UpdateNone)
	for _, i := range proven {
		f.AddHash(block.Transactions[i].TxHash())
	}
	msg, matches := NewMerkleBlock(block, f)
	if len(matches) != len(proven) {
		t.Fatalf("filter matched %d transactions, want %d", len(matches), len(proven))
	}
	return block, msg
}

func TestCollector(t *testing.T) {
	block, msg := filteredBlock(t, 1, 12, 2, 9)
	var c Collector
	if b, err := c.MerkleBlock(msg); b != nil || err != nil {
		t.Fatalf("MerkleBlock = %v, %v, want nil, nil while transactions are missing", b, err)
	}
	want := []chainhash.Hash{block.Transactions[2].TxHash(), block.Transactions[9].TxHash()}
	if got := c.Missing(); !slices.Equal(got, want) {
		t.Errorf("Missing() = %v, want %v", got, want)
	}
	steps := []struct {
		tx         *wire.MsgTx
		unexpected bool
		done       bool
	}{
		{block.Transactions[9], false, false}, // out of order is fine
		{block.Transactions[9], false, false}, // so is a duplicate
		{block.Transactions[3], true, false},  // in the block but not proven
		{block.Transactions[2], false, true},
	}
	for i, s := range steps {
		b, err := c.Tx(s.tx)
		if s.unexpected != errors.Is(err, ErrUnexpectedTx) || (err != nil && !s.unexpected) || (b != nil) != s.done {
			t.Fatalf("step %d: Tx = %v, %v, want block %v, unexpected %v", i, b, err, s.done, s.unexpected)
		}
		if b != nil && (b.Txs[0] != block.Transactions[2] || b.Txs[1] != block.Transactions[9] || b.Matches[1].Index != 9) {
			t.Errorf("step %d: the block pairs its matches with the wrong transactions", i)
		}
	}
	if c.Missing() != nil {
		t.Errorf("Missing() = %v after completion, want nil", c.Missing())
	}
	if _, err := c.Tx(block.Transactions[2]); !errors.Is(err, ErrUnexpectedTx) {
		t.Errorf("Tx with no block pending = %v, want ErrUnexpectedTx", err)
	}
}

func TestCollectorEmptyBlock(t *testing.T) {
	_, msg := filteredBlock(t, 2, 5)
	var c Collector
	b, err := c.MerkleBlock(msg)
	if err != nil || b == nil || len(b.Matches) != 0 || b.Transactions != 5 {
		t.Errorf("MerkleBlock(no matches) = %v, %v, want a complete block of 5 transactions", b, err)
	}
}

func TestCollectorRejects(t *testing.T) {
	_, first := filteredBlock(t, 3, 7, 1)
	_, second := filteredBlock(t, 4, 7, 2)
	var c Collector
	c.MerkleBlock(first)
	if _, err := c.MerkleBlock(second); err == nil || !strings.Contains(err.Error(), "1 transactions of block") {
		t.Errorf("MerkleBlock while 1 transaction is missing = %v, want an error", err)
	}
	if c.Missing() != nil {
		t.Errorf("the incomplete block was kept")
	}
	bad := *second
	bad.Header.MerkleRoot = chainhash.Hash{}
	if _, err := c.MerkleBlock(&bad); err == nil || c.Missing() != nil {
		t.Errorf("MerkleBlock(wrong root) = %v, want an error and nothing pending", err)
	}
}

// TestCollector64ByteTx: a 64-byte transaction serialises like an inner
// node of the merkle tree (two hashes), so a proof cannot tell them apart.
func TestCollector64ByteTx(t *testing.T) {
	tx := newTx(prevOut, nil, []byte{0x51, 0x51, 0x51, 0x51})
	if n := tx.SerializeSizeStripped(); n != 64 {
		t.Fatalf("test transaction is %d bytes, want 64", n)
	}
	block := &wire.MsgBlock{Transactions: []*wire.MsgTx{tx}}
	block.Header.MerkleRoot = tx.TxHash()
	f, _ := Load(make([]byte, 10), 5, 0, UpdateNone)
	f.AddHash(tx.TxHash())
	msg, _ := NewMerkleBlock(block, f)
	var c Collector
	if _, err := c.MerkleBlock(msg); err != nil {
		t.Fatal(err)
	}
	if b, err := c.Tx(tx); err == nil || !strings.Contains(err.Error(), "64 bytes") {
		t.Errorf("Tx(64-byte transaction) = %v, %v, want an error", b, err)
	}
}
