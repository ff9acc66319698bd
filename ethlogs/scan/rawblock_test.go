package scan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/trie"
)

// mixedBlock is a block of a legacy, an access-list, a dynamic-fee and a
// blob transaction, signed, as go-ethereum encodes it.
func mixedBlock(t testing.TB) *types.Block {
	key, _ := crypto.HexToECDSA("b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291")
	signer := types.LatestSignerForChainID(params.TestChainConfig.ChainID)
	to := common.Address{0xaa}
	var txs types.Transactions
	for i, data := range []types.TxData{
		&types.LegacyTx{Nonce: 0, GasPrice: big.NewInt(7), Gas: 21000, To: &to, Value: big.NewInt(1)},
		&types.AccessListTx{ChainID: params.TestChainConfig.ChainID, Nonce: 1, GasPrice: big.NewInt(7), Gas: 30000, To: &to,
			AccessList: types.AccessList{{Address: to, StorageKeys: []common.Hash{{1}}}}},
		&types.DynamicFeeTx{ChainID: params.TestChainConfig.ChainID, Nonce: 2, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(9), Gas: 40000, To: &to, Data: []byte{1, 2, 3}},
	} {
		tx, err := types.SignNewTx(key, signer, data)
		if err != nil {
			t.Fatal(i, err)
		}
		txs = append(txs, tx)
	}
	h := &types.Header{Number: big.NewInt(7), Difficulty: new(big.Int)}
	return types.NewBlock(h, &types.Body{Transactions: txs}, nil, trie.NewStackTrie(nil))
}

// TestRawBlockTxs proves the transactions of a block of every type from
// its RLP, as debug_getRawBlock answers, and requires go-ethereum's hashes;
// a block whose transactions are not its header's fails naming it.
func TestRawBlockTxs(t *testing.T) {
	blk := mixedBlock(t)
	enc, err := rlp.EncodeToBytes(blk)
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := json.Marshal(hexutil.Bytes(enc))
	encs, err := rawBlockTxs(answer, 7)
	if err != nil {
		t.Fatal(err)
	}
	hashes, err := ethlogs.TransactionHashes(blk.Header(), encs)
	if err != nil || len(hashes) != len(blk.Transactions()) {
		t.Fatalf("TransactionHashes = %d hashes, %v", len(hashes), err)
	}
	for i, tx := range blk.Transactions() {
		if hashes[i] != tx.Hash() {
			t.Errorf("transaction %d (type %d): %s, go-ethereum %s", i, tx.Type(), hashes[i], tx.Hash())
		}
	}
	other := blk.Header()
	other.TxHash = common.Hash{1}
	if _, err := ethlogs.TransactionHashes(other, encs); err == nil {
		t.Error("transactions proven against another root")
	}
	for _, bad := range []string{`"0x"`, `"0xc0"`, `"0xc3c0c181"`, `"0xc3c0c180"`, `null`, `{}`} {
		if _, err := rawBlockTxs(json.RawMessage(bad), 7); err == nil {
			t.Errorf("rawBlockTxs(%s) = nil error", bad)
		}
	}
}

// FuzzRawBlockTxs holds rawBlockTxs to go-ethereum on arbitrary block
// RLP: every block go-ethereum decodes, it splits into encodings whose
// Keccak-256 are the transactions' hashes and whose trie root is theirs.
func FuzzRawBlockTxs(f *testing.F) {
	enc, err := rlp.EncodeToBytes(mixedBlock(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Add([]byte{0xc3, 0xc0, 0xc0, 0xc0})
	f.Fuzz(func(t *testing.T, enc []byte) {
		var blk types.Block
		if rlp.DecodeBytes(enc, &blk) != nil {
			return
		}
		answer, _ := json.Marshal(hexutil.Bytes(enc))
		encs, err := rawBlockTxs(answer, 7)
		if err != nil {
			t.Fatalf("go-ethereum decodes %x, rawBlockTxs: %v", enc, err)
		}
		h := &types.Header{Number: big.NewInt(7), TxHash: ethlogs.TransactionsRoot(blk.Transactions())}
		hashes, err := ethlogs.TransactionHashes(h, encs)
		if err != nil || len(hashes) != len(blk.Transactions()) {
			t.Fatalf("%x: %d hashes, %v; go-ethereum has %d transactions", enc, len(hashes), err, len(blk.Transactions()))
		}
		for i, tx := range blk.Transactions() {
			if hashes[i] != tx.Hash() {
				t.Fatalf("%x: transaction %d: %s, go-ethereum %s", enc, i, hashes[i], tx.Hash())
			}
		}
	})
}

// TestRawAnswersCounted refuses a block of more transactions, or a
// receipts answer of more values, than ethlogs.MaxBlockTransactions: one-
// byte items (an empty list, an empty string) would otherwise grow a
// slice header of 24 bytes for each byte of the answer.
func TestRawAnswersCounted(t *testing.T) {
	n := ethlogs.MaxBlockTransactions + 1
	w := rlp.NewEncoderBuffer(nil)
	blk := w.List()
	w.Write([]byte{0xc0}) // an empty header
	txs := w.List()
	w.Write(bytes.Repeat([]byte{0xc0}, n)) // n empty lists
	w.ListEnd(txs)
	w.ListEnd(blk)
	answer, _ := json.Marshal(hexutil.Bytes(w.ToBytes()))
	if _, err := rawBlockTxs(answer, 7); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d transactions", n-1)) {
		t.Errorf("rawBlockTxs(%d transactions) = %v", n, err)
	}
	array := "[" + strings.Repeat(`"",`, n-1) + `""]`
	if _, err := splitHexArray([]byte(array)); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d receipts", n-1)) {
		t.Errorf("splitHexArray(%d values) = %v", n, err)
	}
}
