package ethlogs

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
)

// BlockNumber is a block number or one of JSON-RPC's named blocks, which take
// the negative values go-ethereum's rpc.BlockNumber gives them, so that
// conversions between the two are plain.
type BlockNumber int64

// The named blocks. The node resolves them; a header scan needs numbers.
const (
	Earliest  BlockNumber = -5
	Safe      BlockNumber = -4
	Finalized BlockNumber = -3
	Latest    BlockNumber = -2
	Pending   BlockNumber = -1
)

var blockNames = map[BlockNumber]string{
	Earliest: "earliest", Safe: "safe", Finalized: "finalized", Latest: "latest", Pending: "pending",
}

// IsNamed reports whether n is a named block rather than a number.
func (n BlockNumber) IsNamed() bool { return n < 0 }

// String returns the name, or the number in 0x-prefixed hex.
func (n BlockNumber) String() string {
	if name, ok := blockNames[n]; ok {
		return name
	}
	if n < 0 {
		return fmt.Sprintf("BlockNumber(%d)", int64(n))
	}
	return hexutil.EncodeUint64(uint64(n))
}

// MarshalText encodes n as JSON-RPC does; an unnamed negative value is an
// error.
func (n BlockNumber) MarshalText() ([]byte, error) {
	if _, ok := blockNames[n]; n < 0 && !ok {
		return nil, fmt.Errorf("ethlogs: invalid block number %d", int64(n))
	}
	return []byte(n.String()), nil
}

// UnmarshalJSON accepts exactly what go-ethereum's node accepts for fromBlock
// and toBlock: a name, or a 0x-prefixed hex quantity without leading zeros
// up to 2^63-1. Like the node, it reads the quoted text as is (JSON escapes
// are not decoded), and it accepts the bare unquoted form too.
func (n *BlockNumber) UnmarshalJSON(data []byte) error {
	s := strings.TrimSpace(string(data))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	for v, name := range blockNames {
		if s == name {
			*n = v
			return nil
		}
	}
	v, err := hexutil.DecodeUint64(s)
	if err != nil {
		return fmt.Errorf("ethlogs: block number %q: %w", clip(s), err)
	}
	if v > math.MaxInt64 {
		return errors.New("ethlogs: block number larger than int64")
	}
	*n = BlockNumber(v)
	return nil
}

// Big returns n as go-ethereum's ethereum.FilterQuery carries it: names as
// their negative values, which ethclient sends by name.
func (n BlockNumber) Big() *big.Int { return big.NewInt(int64(n)) }

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
