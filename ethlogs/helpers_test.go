package ethlogs

import (
	"math/rand/v2"
	"testing"

	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// vectorBlock is a published mainnet block: its header and decoded receipts.
type vectorBlock struct {
	header   *types.Header
	hash     common.Hash
	receipts types.Receipts
}

// loadBlock reads a published mainnet block with its receipts.
func loadBlock(t testing.TB, name string) vectorBlock {
	t.Helper()
	data, err := testvectors.Read("ethlogs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		t.Fatal(err)
	}
	b := f.Blocks[0]
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
	return vectorBlock{h, hash, rs}
}

// portalBlooms returns the header blooms of every published header: real
// mainnet saturation, 0.7% to 100% of bits set.
func portalBlooms(t testing.TB) []Bloom {
	t.Helper()
	data, err := testvectors.Read("ethlogs/mainnet-headers-portal.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := testvectors.ParseEthBlocks(data)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Bloom, len(f.Blocks))
	for i, b := range f.Blocks {
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
