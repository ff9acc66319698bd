package ethlogs_test

import (
	"math/big"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
)

// BenchmarkDecodeHeader is what the raw scan pays per header to decode a
// post-Prague header's RLP, prove it canonical and hash it, beside
// go-ethereum decoding it and hashing the bytes.
func BenchmarkDecodeHeader(b *testing.B) {
	zero, root := uint64(0), common.Hash{1}
	h := &types.Header{ParentHash: common.Hash{2}, Root: common.Hash{3}, TxHash: common.Hash{4}, ReceiptHash: common.Hash{5},
		Number: big.NewInt(19_000_000), GasLimit: 30_000_000, GasUsed: 12_345_678, Time: 1_700_000_000, Difficulty: new(big.Int),
		Extra: []byte("chainsieve"), BaseFee: big.NewInt(7_000_000_000), WithdrawalsHash: &root, BlobGasUsed: &zero,
		ExcessBlobGas: &zero, ParentBeaconRoot: &root, RequestsHash: &root}
	for i := range h.Bloom {
		h.Bloom[i] = byte(i * 7)
	}
	enc, err := rlp.EncodeToBytes(h)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			if _, _, err := ethlogs.DecodeHeader(enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	// geth: go-ethereum at its fastest to the same pair, decoding and
	// hashing the bytes received (Header.Hash would re-encode the header
	// first). It does not prove the bytes canonical, which ours does.
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			var h types.Header
			if err := rlp.DecodeBytes(enc, &h); err != nil {
				b.Fatal(err)
			}
			_ = crypto.Keccak256Hash(enc)
		}
	})
}
