package scan

import (
	"math/big"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/ethereum/go-ethereum/beacon/params"
)

// TestBeaconChainOf: the chain ids of go-ethereum's mainnet, sepolia and
// hoodi execution configurations (1, 11155111, 560048) give its beacon
// configurations of the same networks; the dev chain's (1337) and a
// retired network's (holesky, 17000) give none.
func TestBeaconChainOf(t *testing.T) {
	for _, tt := range []struct {
		id   int64
		want *params.ChainConfig
	}{{1, beacon.Mainnet()}, {11155111, beacon.Sepolia()}, {560048, beacon.Hoodi()}, {1337, nil}, {17000, nil}} {
		got := beaconChainOf(big.NewInt(tt.id))
		if (got == nil) != (tt.want == nil) || got != nil && (got.GenesisValidatorsRoot != tt.want.GenesisValidatorsRoot || got.GenesisTime != tt.want.GenesisTime) {
			t.Errorf("beaconChainOf(%d) = %+v, want %+v", tt.id, got, tt.want)
		}
	}
}
