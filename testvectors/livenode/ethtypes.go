package livenode

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// EthAddress is a 20-byte Ethereum account address. It converts to
// go-ethereum's common.Address with a plain conversion; this package does
// not import go-ethereum so that Bitcoin-only tests do not compile it.
type EthAddress [20]byte

// EthHash is a 32-byte Keccak-256 hash (block, transaction, log topic);
// it converts to go-ethereum's common.Hash.
type EthHash [32]byte

func (a EthAddress) String() string { return "0x" + hex.EncodeToString(a[:]) }
func (h EthHash) String() string    { return "0x" + hex.EncodeToString(h[:]) }

// MarshalText encodes a as 0x-prefixed hex.
func (a EthAddress) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// MarshalText encodes h as 0x-prefixed hex.
func (h EthHash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText decodes 0x-prefixed hex of exactly 20 bytes.
func (a *EthAddress) UnmarshalText(b []byte) error { return decodeFixed(a[:], b) }

// UnmarshalText decodes 0x-prefixed hex of exactly 32 bytes.
func (h *EthHash) UnmarshalText(b []byte) error { return decodeFixed(h[:], b) }

func decodeFixed(dst, text []byte) error {
	b, err := decodeHex(text)
	if err != nil {
		return err
	}
	if len(b) != len(dst) {
		return fmt.Errorf("livenode: %q is %d bytes, want %d", text, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}

// decodeHex decodes Ethereum JSON-RPC DATA: 0x-prefixed hex.
func decodeHex(text []byte) ([]byte, error) {
	s, ok := strings.CutPrefix(string(text), "0x")
	if !ok {
		return nil, fmt.Errorf("livenode: %.80q lacks the 0x prefix", text)
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("livenode: %.80q: %v", text, err)
	}
	return b, nil
}

// hexBytes is Ethereum JSON-RPC DATA of any length.
type hexBytes []byte

func (b hexBytes) MarshalText() ([]byte, error) { return []byte("0x" + hex.EncodeToString(b)), nil }

func (b *hexBytes) UnmarshalText(text []byte) (err error) {
	*b, err = decodeHex(text)
	return err
}

// hexUint is an Ethereum JSON-RPC QUANTITY: 0x-prefixed hex, no leading
// zeros.
type hexUint uint64

func (n hexUint) MarshalText() ([]byte, error) {
	return []byte("0x" + strconv.FormatUint(uint64(n), 16)), nil
}

func (n *hexUint) UnmarshalText(text []byte) error {
	s, ok := strings.CutPrefix(string(text), "0x")
	v, err := strconv.ParseUint(s, 16, 64)
	if !ok || err != nil {
		return fmt.Errorf("livenode: %.80q is not a hex quantity", text)
	}
	*n = hexUint(v)
	return nil
}

// Log is an event log as eth_getLogs and receipts return it.
type Log struct {
	Address     EthAddress
	Topics      []EthHash
	Data        []byte
	BlockNumber uint64
	BlockHash   EthHash
	TxHash      EthHash
	TxIndex     uint64
	LogIndex    uint64 // position in the block
	Removed     bool
}

// UnmarshalJSON decodes the JSON-RPC form, whose numbers are hex strings.
func (l *Log) UnmarshalJSON(b []byte) error {
	var raw struct {
		Address     EthAddress `json:"address"`
		Topics      []EthHash  `json:"topics"`
		Data        hexBytes   `json:"data"`
		BlockNumber hexUint    `json:"blockNumber"`
		BlockHash   EthHash    `json:"blockHash"`
		TxHash      EthHash    `json:"transactionHash"`
		TxIndex     hexUint    `json:"transactionIndex"`
		LogIndex    hexUint    `json:"logIndex"`
		Removed     bool       `json:"removed"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*l = Log{raw.Address, raw.Topics, raw.Data, uint64(raw.BlockNumber), raw.BlockHash,
		raw.TxHash, uint64(raw.TxIndex), uint64(raw.LogIndex), raw.Removed}
	return nil
}

// Receipt is a transaction receipt, with the fields tests compare.
type Receipt struct {
	TxHash          EthHash
	BlockHash       EthHash
	BlockNumber     uint64
	Status          uint64      // 1 success, 0 failure
	ContractAddress *EthAddress // set for a contract creation
	Logs            []Log
	LogsBloom       []byte // 256 bytes
}

// UnmarshalJSON decodes the JSON-RPC form, whose numbers are hex strings.
func (r *Receipt) UnmarshalJSON(b []byte) error {
	var raw struct {
		TxHash          EthHash     `json:"transactionHash"`
		BlockHash       EthHash     `json:"blockHash"`
		BlockNumber     hexUint     `json:"blockNumber"`
		Status          hexUint     `json:"status"`
		ContractAddress *EthAddress `json:"contractAddress"`
		Logs            []Log       `json:"logs"`
		LogsBloom       hexBytes    `json:"logsBloom"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*r = Receipt{raw.TxHash, raw.BlockHash, uint64(raw.BlockNumber), uint64(raw.Status),
		raw.ContractAddress, raw.Logs, raw.LogsBloom}
	return nil
}

// LogQuery is an eth_getLogs filter over blocks FromBlock to ToBlock
// inclusive. A log matches if it comes from one of Addresses (any, if
// empty) and, for each position i of Topics, its topic i is one of
// Topics[i] (a nil or empty entry matches anything).
type LogQuery struct {
	FromBlock, ToBlock uint64
	Addresses          []EthAddress
	Topics             [][]EthHash
}

// MarshalJSON encodes the JSON-RPC filter object.
func (q LogQuery) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		FromBlock hexUint      `json:"fromBlock"`
		ToBlock   hexUint      `json:"toBlock"`
		Address   []EthAddress `json:"address,omitempty"`
		Topics    [][]EthHash  `json:"topics,omitempty"`
	}{hexUint(q.FromBlock), hexUint(q.ToBlock), q.Addresses, q.Topics})
}
