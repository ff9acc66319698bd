package beacontest

import (
	"fmt"
	"math/big"

	"github.com/attestantio/go-eth2-client/spec/bellatrix"
	"github.com/attestantio/go-eth2-client/spec/deneb"
	"github.com/attestantio/go-eth2-client/spec/phase0"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"
)

// payloadHeader returns the Deneb execution payload header of an
// execution block header: what a beacon block carrying that block
// commits to. transactions_root and withdrawals_root are SSZ roots of the
// block body's lists, which a header does not carry: they are left zero,
// and no light client reads them.
func payloadHeader(h *types.Header) (*deneb.ExecutionPayloadHeader, error) {
	if len(h.Extra) > 32 {
		return nil, fmt.Errorf("beacontest: block %d has %d bytes of extra data, more than a payload's 32", h.Number, len(h.Extra))
	}
	if !h.Number.IsUint64() {
		return nil, fmt.Errorf("beacontest: block number %s", h.Number)
	}
	baseFee := new(uint256.Int)
	if h.BaseFee != nil && baseFee.SetFromBig(h.BaseFee) {
		return nil, fmt.Errorf("beacontest: block %d: base fee overflows 256 bits", h.Number)
	}
	p := &deneb.ExecutionPayloadHeader{
		ParentHash:    phase0.Hash32(h.ParentHash),
		FeeRecipient:  bellatrix.ExecutionAddress(h.Coinbase),
		StateRoot:     phase0.Root(h.Root),
		ReceiptsRoot:  phase0.Root(h.ReceiptHash),
		LogsBloom:     h.Bloom,
		PrevRandao:    h.MixDigest,
		BlockNumber:   h.Number.Uint64(),
		GasLimit:      h.GasLimit,
		GasUsed:       h.GasUsed,
		Timestamp:     h.Time,
		ExtraData:     append([]byte{}, h.Extra...),
		BaseFeePerGas: baseFee,
		BlockHash:     phase0.Hash32(h.Hash()),
	}
	if h.BlobGasUsed != nil {
		p.BlobGasUsed = *h.BlobGasUsed
	}
	if h.ExcessBlobGas != nil {
		p.ExcessBlobGas = *h.ExcessBlobGas
	}
	return p, nil
}

// synthetic returns a stand-in execution header for a beacon block that
// needs one: base renumbered and marked, so each has its own hash.
func synthetic(base *types.Header, number uint64, mark string) *types.Header {
	h := types.CopyHeader(base)
	h.Number = new(big.Int).SetUint64(number)
	h.Extra = []byte(mark)
	return h
}
