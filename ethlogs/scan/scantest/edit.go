package scantest

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rlp"
)

// rlpOf returns the bytes of a result that is a 0x-prefixed hex string.
func rlpOf(result json.RawMessage) ([]byte, bool) {
	var b hexutil.Bytes
	if len(result) == 0 || result[0] != '"' || json.Unmarshal(result, &b) != nil {
		return nil, false
	}
	return b, true
}

// Block returns the block number a call asks for: the first parameter of
// eth_getBlockByNumber, eth_getHeaderByNumber or debug_getRawHeader as a
// number, -1 for anything else.
func (r Request) Block() int64 {
	if r.Method != "eth_getBlockByNumber" && r.Method != "eth_getHeaderByNumber" && r.Method != "debug_getRawHeader" || len(r.Params) == 0 {
		return -1
	}
	var s string
	if json.Unmarshal(r.Params[0], &s) != nil || !strings.HasPrefix(s, "0x") {
		return -1
	}
	n, err := strconv.ParseInt(s[2:], 16, 64)
	if err != nil {
		return -1
	}
	return n
}

// Hash returns the first parameter as a string: the block hash of
// eth_getBlockByHash and eth_getBlockReceipts.
func (r Request) Hash() string {
	var s string
	if len(r.Params) > 0 {
		json.Unmarshal(r.Params[0], &s)
	}
	return s
}

// Edit decodes a JSON object or array result, lets f change it, and
// encodes it again; on a decoding error the result is returned as is. A
// result that is a hex string (debug_getRawHeader's) is decoded and
// encoded as RLP, so that an edit of a types.Header forges a raw header
// as it forges a JSON one.
func Edit[T any](result json.RawMessage, f func(*T)) json.RawMessage {
	var v T
	if raw, ok := rlpOf(result); ok {
		if rlp.DecodeBytes(raw, &v) != nil {
			return result
		}
		f(&v)
		enc, err := rlp.EncodeToBytes(&v)
		if err != nil {
			return result
		}
		out, _ := json.Marshal(hexutil.Bytes(enc))
		return out
	}
	if json.Unmarshal(result, &v) != nil {
		return result
	}
	f(&v)
	b, err := json.Marshal(v)
	if err != nil {
		return result
	}
	return b
}
