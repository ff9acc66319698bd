package beacon_test

import (
	"math/big"
	"sync"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// testHeader is an execution block header standing in for a real one.
func testHeader(number uint64) *types.Header {
	blobGas, excess := uint64(131072), uint64(0)
	return &types.Header{
		ParentHash: common.HexToHash("0x01"), Coinbase: common.HexToAddress("0xfee"), Root: common.HexToHash("0x02"),
		TxHash: types.EmptyTxsHash, ReceiptHash: common.HexToHash("0x03"), Difficulty: new(big.Int),
		Number: new(big.Int).SetUint64(number), GasLimit: 30_000_000, GasUsed: 21_000, Time: 1_700_000_000,
		Extra: []byte("test"), MixDigest: common.HexToHash("0x04"), BaseFee: big.NewInt(7),
		WithdrawalsHash: &types.EmptyWithdrawalsHash, BlobGasUsed: &blobGas, ExcessBlobGas: &excess,
		ParentBeaconRoot: &common.Hash{5},
	}
}

func newChain(t testing.TB, opts beacontest.Options) *beacontest.Chain {
	t.Helper()
	if opts.Finalized == nil {
		opts.Finalized = testHeader(1000)
	}
	c, err := beacontest.NewChain(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func serve(t testing.TB, c *beacontest.Chain, lie beacontest.Lie, maxUpdates int) *beacontest.Server {
	t.Helper()
	s, err := c.Serve(lie, maxUpdates)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sharedChain is a two-period chain with a fork boundary under the
// finality update's signature, built once for the tests that only read
// it: its keys take a tenth of a second a period to draw.
var sharedChain = func() func(testing.TB) *beacontest.Chain {
	once := sync.OnceValues(func() (*beacontest.Chain, error) {
		return beacontest.NewChain(beacontest.Options{Finalized: testHeader(1000), Periods: 2, ForkBoundary: true})
	})
	return func(t testing.TB) *beacontest.Chain {
		t.Helper()
		c, err := once()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}()
