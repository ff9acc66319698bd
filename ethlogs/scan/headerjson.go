package scan

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// blockJSON is a block object as eth_getBlockByNumber(n, false) returns
// it: the header's fields, named as the execution API and go-ethereum's
// types.Header JSON name them, with the hash the node claims and the
// transaction hashes. Decoding it is one pass of encoding/json, where
// types.Header's own decoder would need a second pass for the rest: the
// header scan spends most of its client time here.
type blockJSON struct {
	ParentHash          *common.Hash      `json:"parentHash"`
	UncleHash           *common.Hash      `json:"sha3Uncles"`
	Coinbase            *common.Address   `json:"miner"`
	Root                *common.Hash      `json:"stateRoot"`
	TxHash              *common.Hash      `json:"transactionsRoot"`
	ReceiptHash         *common.Hash      `json:"receiptsRoot"`
	Bloom               *types.Bloom      `json:"logsBloom"`
	Difficulty          *hexutil.Big      `json:"difficulty"`
	Number              *hexutil.Big      `json:"number"`
	GasLimit            *hexutil.Uint64   `json:"gasLimit"`
	GasUsed             *hexutil.Uint64   `json:"gasUsed"`
	Time                *hexutil.Uint64   `json:"timestamp"`
	Extra               *hexutil.Bytes    `json:"extraData"`
	MixDigest           *common.Hash      `json:"mixHash"`
	Nonce               *types.BlockNonce `json:"nonce"`
	BaseFee             *hexutil.Big      `json:"baseFeePerGas"`
	WithdrawalsHash     *common.Hash      `json:"withdrawalsRoot"`
	BlobGasUsed         *hexutil.Uint64   `json:"blobGasUsed"`
	ExcessBlobGas       *hexutil.Uint64   `json:"excessBlobGas"`
	ParentBeaconRoot    *common.Hash      `json:"parentBeaconBlockRoot"`
	RequestsHash        *common.Hash      `json:"requestsHash"`
	BlockAccessListHash *common.Hash      `json:"blockAccessListHash"`
	SlotNumber          *hexutil.Uint64   `json:"slotNumber"`

	Hash         common.Hash   `json:"hash"`
	Transactions []common.Hash `json:"transactions"`
}

// header returns the header, refusing a block object that lacks a field
// every header has.
func (b *blockJSON) header() (*types.Header, error) {
	if b.ParentHash == nil || b.UncleHash == nil || b.Root == nil || b.TxHash == nil || b.ReceiptHash == nil ||
		b.Bloom == nil || b.Difficulty == nil || b.Number == nil || b.GasLimit == nil || b.GasUsed == nil ||
		b.Time == nil || b.Extra == nil {
		return nil, errors.New("a required header field is missing")
	}
	h := &types.Header{
		ParentHash: *b.ParentHash, UncleHash: *b.UncleHash, Root: *b.Root, TxHash: *b.TxHash,
		ReceiptHash: *b.ReceiptHash, Bloom: *b.Bloom, Difficulty: (*big.Int)(b.Difficulty),
		Number: (*big.Int)(b.Number), GasLimit: uint64(*b.GasLimit), GasUsed: uint64(*b.GasUsed),
		Time: uint64(*b.Time), Extra: *b.Extra, BaseFee: (*big.Int)(b.BaseFee),
		WithdrawalsHash: b.WithdrawalsHash, BlobGasUsed: (*uint64)(b.BlobGasUsed), ExcessBlobGas: (*uint64)(b.ExcessBlobGas),
		ParentBeaconRoot: b.ParentBeaconRoot, RequestsHash: b.RequestsHash,
		BlockAccessListHash: b.BlockAccessListHash, SlotNumber: (*uint64)(b.SlotNumber),
	}
	if b.Coinbase != nil {
		h.Coinbase = *b.Coinbase
	}
	if b.MixDigest != nil {
		h.MixDigest = *b.MixDigest
	}
	if b.Nonce != nil {
		h.Nonce = *b.Nonce
	}
	return h, nil
}
