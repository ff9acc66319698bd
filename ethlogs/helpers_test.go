package ethlogs

import (
	"math/rand/v2"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// vectorBlock is a published mainnet block: its header, its receipts'
// consensus encodings and those receipts decoded.
type vectorBlock struct {
	header   *types.Header
	hash     common.Hash
	raws     [][]byte
	receipts types.Receipts
}

// readBlocks reads a published block file.
func readBlocks(t testing.TB, name string) []testvectors.EthBlock {
	t.Helper()
	data, err := testvectors.Read("ethlogs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		t.Fatal(err)
	}
	return f.Blocks
}

// loadBlock reads a published mainnet block with its receipts.
func loadBlock(t testing.TB, name string) vectorBlock {
	t.Helper()
	b := readBlocks(t, name)[0]
	h, hash, err := DecodeHeader(b.HeaderRLP)
	if err != nil {
		t.Fatal(err)
	}
	raws := make([][]byte, len(b.Receipts))
	for i, r := range b.Receipts {
		raws[i] = r.Raw
	}
	rs, err := DecodeReceipts(raws)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rs {
		rs[i].TxHash = common.BytesToHash(b.Receipts[i].TransactionHash)
	}
	return vectorBlock{h, hash, raws, rs}
}

// portalBlooms returns the header blooms of every published header: real
// mainnet saturation, 0.7% to 100% of bits set.
func portalBlooms(t testing.TB) []Bloom {
	t.Helper()
	blocks := readBlocks(t, "mainnet-headers-portal.json")
	out := make([]Bloom, len(blocks))
	for i, b := range blocks {
		copy(out[i][:], b.LogsBloom)
	}
	return out
}

func randomHash(r *rand.Rand) (h common.Hash) {
	for i := range h {
		h[i] = byte(r.Uint32())
	}
	return h
}

func randomLog(r *rand.Rand, addrs []common.Address, topics []common.Hash) *types.Log {
	l := &types.Log{Address: addrs[r.IntN(len(addrs))], Data: make([]byte, r.IntN(40))}
	for range r.IntN(5) {
		l.Topics = append(l.Topics, topics[r.IntN(len(topics))])
	}
	return l
}
