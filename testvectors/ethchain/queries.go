package ethchain

import "github.com/ethereum/go-ethereum/common"

// Ranks of the queries' contracts and users.
const (
	PopularRank = 0     // the most active contract, a token (USDT's place)
	RareRank    = 2999  // an "other" contract: about 1 log in 40,000
	WalletRank  = 10000 // the wallet's first user; it holds ranks 10000–10099
	WalletSize  = 100
)

// Query is an eth_getLogs filter: Addresses OR, then per topic position an
// OR-list, nil for any value.
type Query struct {
	Name      string
	Addresses []common.Address
	Topics    [][]common.Hash
}

// Queries returns the benchmarks' three queries: a popular token's
// Transfer events (in nearly every block), one rare contract's event (in
// about 1 % of the blocks) and the incoming transfers of a wallet of 100
// addresses (any token; in about one block in ten).
func Queries() []Query {
	wallet := make([]common.Hash, WalletSize)
	for i := range wallet {
		wallet[i] = common.BytesToHash(User(WalletRank + i).Bytes())
	}
	return []Query{
		{Name: "token", Addresses: []common.Address{Contract(PopularRank)}, Topics: [][]common.Hash{{TransferTopic}}},
		{Name: "rare", Addresses: []common.Address{Contract(RareRank)}, Topics: [][]common.Hash{{EventTopic(RareRank)}}},
		{Name: "wallet", Topics: [][]common.Hash{{TransferTopic}, nil, wallet}},
	}
}
