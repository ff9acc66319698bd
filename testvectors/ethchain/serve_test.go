package ethchain_test

import (
	"bytes"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors/ethchain"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/ethereum/go-ethereum/trie"
)

// TestServe checks the server against the database it serves: raw headers
// hash to the canonical hashes, JSON headers and blocks carry them, raw
// receipts are the stored ones, blocks after the head it was given do not
// exist, and its head is also its finalized block.
func TestServe(t *testing.T) {
	c, err := ethchain.Memory(6)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fm, err := c.FilterMaps(rawdb.NewMemoryDatabase(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer fm.Stop()
	s, err := c.Serve(4, fm)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	client, err := rpc.Dial(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	for n := uint64(0); n <= 4; n++ {
		want := c.GetCanonicalHash(n)
		var raw hexutil.Bytes
		if err := client.Call(&raw, "debug_getRawHeader", hexutil.Uint64(n)); err != nil {
			t.Fatal(err)
		}
		if got := crypto.Keccak256Hash(raw); got != want {
			t.Errorf("debug_getRawHeader(%d) hashes to %s, want %s", n, got, want)
		}
		var h types.Header
		if err := client.Call(&h, "eth_getHeaderByNumber", hexutil.Uint64(n)); err != nil {
			t.Fatal(err)
		}
		var blk struct {
			Hash         common.Hash   `json:"hash"`
			Transactions []common.Hash `json:"transactions"`
		}
		if err := client.Call(&blk, "eth_getBlockByHash", want, false); err != nil {
			t.Fatal(err)
		}
		if h.Hash() != want || blk.Hash != want {
			t.Errorf("block %d: eth_getHeaderByNumber hashes to %s, eth_getBlockByHash says %s, want %s", n, h.Hash(), blk.Hash, want)
		}
		var rs []hexutil.Bytes
		if err := client.Call(&rs, "debug_getRawReceipts", want); err != nil {
			t.Fatal(err)
		}
		stored := c.GetRawReceipts(want, n)
		if len(rs) != len(blk.Transactions) || len(rs) != len(stored) {
			t.Fatalf("block %d: %d raw receipts, %d transactions, %d stored", n, len(rs), len(blk.Transactions), len(stored))
		}
		if got, want := types.DeriveSha(rawList(rs), trie.NewStackTrie(nil)), c.Header(n).ReceiptHash; got != want {
			t.Errorf("block %d: raw receipts' root %s, header's %s", n, got, want)
		}
	}
	var none *types.Header
	if err := client.Call(&none, "eth_getHeaderByNumber", hexutil.Uint64(5)); err != nil || none != nil {
		t.Errorf("eth_getHeaderByNumber(5) past head 4 = %v, %v; want null", none, err)
	}
	var fin types.Header
	if err := client.Call(&fin, "eth_getHeaderByNumber", "finalized"); err != nil || fin.Number.Uint64() != 4 {
		t.Errorf("finalized = %v, %v; want block 4", fin.Number, err)
	}
}

// rawList is a list of consensus encodings, as the receipts trie takes them.
type rawList []hexutil.Bytes

func (l rawList) Len() int                           { return len(l) }
func (l rawList) EncodeIndex(i int, w *bytes.Buffer) { w.Write(l[i]) }
