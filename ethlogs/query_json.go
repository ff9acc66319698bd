package ethlogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// ParseQuery decodes an eth_getLogs parameter object, accepting exactly what
// go-ethereum's node accepts:
//
//   - "address" is a string or an array of strings (0x-prefixed, 20 bytes).
//   - "topics" is an array of at most [MaxTopics] positions; each is null
//     (wildcard), a string (32 bytes) or an array of at most
//     [MaxAlternatives] strings. A null inside an array makes the whole
//     position a wildcard, and the node reads no further in that array.
//   - "blockHash" excludes "fromBlock" and "toBlock".
//
// Keys match case-insensitively and unknown keys are ignored, as with
// encoding/json. A JSON null is the empty query.
func ParseQuery(data []byte) (Query, error) {
	var q Query
	err := q.UnmarshalJSON(data)
	return q, err
}

// UnmarshalJSON implements [ParseQuery].
func (q *Query) UnmarshalJSON(data []byte) error {
	var raw struct {
		BlockHash *common.Hash    `json:"blockHash"`
		FromBlock *BlockNumber    `json:"fromBlock"`
		ToBlock   *BlockNumber    `json:"toBlock"`
		Address   json.RawMessage `json:"address"`
		Topics    json.RawMessage `json:"topics"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("ethlogs: query: %w", err)
	}
	if raw.BlockHash != nil && (raw.FromBlock != nil || raw.ToBlock != nil) {
		return errors.New("ethlogs: query: blockHash together with fromBlock/toBlock")
	}
	addrs, err := parseAddresses(raw.Address)
	if err != nil {
		return err
	}
	topics, err := parseTopics(raw.Topics)
	if err != nil {
		return err
	}
	*q = Query{BlockHash: raw.BlockHash, FromBlock: raw.FromBlock, ToBlock: raw.ToBlock, Addresses: addrs, Topics: topics}
	return nil
}

func parseAddresses(raw json.RawMessage) ([]common.Address, error) {
	switch kind(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		a, err := decodeAddress(raw, "address")
		if err != nil {
			return nil, err
		}
		return []common.Address{a}, nil
	case '[':
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("ethlogs: query: address: %w", err)
		}
		addrs := make([]common.Address, len(list))
		for i, item := range list {
			if kind(item) != '"' {
				return nil, fmt.Errorf("ethlogs: query: address %d is not a string", i)
			}
			a, err := decodeAddress(item, fmt.Sprintf("address %d", i))
			if err != nil {
				return nil, err
			}
			addrs[i] = a
		}
		return addrs, nil
	}
	return nil, errors.New("ethlogs: query: address is neither a string nor an array")
}

func parseTopics(raw json.RawMessage) ([][]common.Hash, error) {
	if kind(raw) == 0 || kind(raw) == 'n' {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("ethlogs: query: topics: %w", err)
	}
	if len(list) > MaxTopics {
		return nil, fmt.Errorf("ethlogs: query: %d topic positions, at most %d", len(list), MaxTopics)
	}
	if len(list) == 0 {
		return nil, nil
	}
	topics := make([][]common.Hash, len(list))
	for i, item := range list {
		pos, err := parsePosition(item, i)
		if err != nil {
			return nil, err
		}
		topics[i] = pos
	}
	return topics, nil
}

// parsePosition decodes one topic position; nil is a wildcard.
func parsePosition(raw json.RawMessage, i int) ([]common.Hash, error) {
	where := fmt.Sprintf("topic position %d", i)
	switch kind(raw) {
	case 'n':
		return nil, nil
	case '"':
		h, err := decodeHash(raw, where)
		if err != nil {
			return nil, err
		}
		return []common.Hash{h}, nil
	case '[':
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("ethlogs: query: %s: %w", where, err)
		}
		if len(list) > MaxAlternatives {
			return nil, fmt.Errorf("ethlogs: query: %s has %d alternatives, at most %d", where, len(list), MaxAlternatives)
		}
		var pos []common.Hash
		for j, item := range list {
			switch kind(item) {
			case 'n':
				return nil, nil // the node stops reading here: the position is a wildcard
			case '"':
				h, err := decodeHash(item, fmt.Sprintf("%s, alternative %d", where, j))
				if err != nil {
					return nil, err
				}
				pos = append(pos, h)
			default:
				return nil, fmt.Errorf("ethlogs: query: %s, alternative %d is not a string", where, j)
			}
		}
		return pos, nil
	}
	return nil, fmt.Errorf("ethlogs: query: %s is not null, a string or an array", where)
}

// decodeFixed decodes a JSON string of 0x-prefixed hex that must hold
// exactly n bytes: an address or a hash.
func decodeFixed(raw json.RawMessage, n int, where string) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("ethlogs: query: %s: %w", where, err)
	}
	b, err := hexutil.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("ethlogs: query: %s %q: %w", where, clip(s), err)
	}
	if len(b) != n {
		return nil, fmt.Errorf("ethlogs: query: %s %q: %d bytes, want %d", where, clip(s), len(b), n)
	}
	return b, nil
}

func decodeAddress(raw json.RawMessage, where string) (common.Address, error) {
	b, err := decodeFixed(raw, common.AddressLength, where)
	return common.BytesToAddress(b), err
}

func decodeHash(raw json.RawMessage, where string) (common.Hash, error) {
	b, err := decodeFixed(raw, common.HashLength, where)
	return common.BytesToHash(b), err
}

// kind returns the first byte of a JSON value, or 0 for none.
func kind(raw json.RawMessage) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// MarshalJSON encodes q as an eth_getLogs parameter object: absent fields
// omitted, addresses as an array, each topic position as null (wildcard) or
// an array.
func (q Query) MarshalJSON() ([]byte, error) {
	out := struct {
		BlockHash *common.Hash     `json:"blockHash,omitempty"`
		FromBlock *BlockNumber     `json:"fromBlock,omitempty"`
		ToBlock   *BlockNumber     `json:"toBlock,omitempty"`
		Address   []common.Address `json:"address,omitempty"`
		Topics    [][]common.Hash  `json:"topics,omitempty"`
	}{q.BlockHash, q.FromBlock, q.ToBlock, q.Addresses, make([][]common.Hash, len(q.Topics))}
	for i, pos := range q.Topics {
		if len(pos) > 0 {
			out.Topics[i] = pos // an empty position is a wildcard: write it as null
		}
	}
	return json.Marshal(out)
}
