package spvtest

import (
	"context"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Start starts a node mining to an address: livenode.StartBtcd or
// livenode.StartLitecoind.
type Start func(t testing.TB, mining address.Address, args ...string) *livenode.Node

// Options size a scenario.
type Options struct {
	// Filler is the number of blocks of unrelated traffic mined before,
	// between and after the wallet's transactions, in three equal parts.
	Filler int
	// FillerOutputs is the number of outputs, each to a new unrelated
	// address, of the one transaction in each filler block.
	FillerOutputs int
	// Args are passed to the node (for example "--nobanning" to btcd).
	Args []string
}

// Scenario is a regtest chain with a wallet's history, mined by a node:
//
//   - 101 blocks mined to a miner (coinbase maturity);
//   - the miner pays the wallet's P2PKH, P2WPKH and P2TR addresses, and an
//     unrelated one, in one transaction;
//   - the wallet spends its P2PKH coin to an unrelated address (change back
//     to a new P2PKH address), its P2WPKH coin to a new P2TR address of its
//     own, and both P2TR coins to an unrelated address, each in a block of
//     its own beside an unrelated payment by the miner;
//   - filler blocks of unrelated traffic around all of it.
//
// The wallet's transactions (Wallet.Txs) are what a scan must find.
type Scenario struct {
	Node    *livenode.Node
	Network *spv.Network
	Wallet  *livenode.Wallet
	// Received is the height of the block where the miner paid the wallet,
	// and Coins the three outpoints it paid: a scan from a later height
	// needs them to recognise their spends.
	Received int32
	Coins    []wire.OutPoint
	Tip      int32
}

var regtest = &chaincfg.RegressionNetParams

// Bench is the scenario the scan benchmarks share: 150 filler blocks of 40
// unrelated outputs each, so that every filter holds about 40 to 45
// scripts.
var Bench = Options{Filler: 150, FillerOutputs: 40}

// BenchDecoys is the number of unused addresses the benchmarks watch
// besides the wallet's, for a watch list of about 100.
const BenchDecoys = 92

// NewScenario starts a node with start and mines the scenario on it. It
// fails the test on any error, and skips it under -short.
func NewScenario(t testing.TB, start Start, opts Options) *Scenario {
	t.Helper()
	miner := livenode.NewWallet("spvtest miner", regtest)
	n := start(t, miner.NewAddress(livenode.P2PKH).Address, opts.Args...)
	wallet := livenode.NewWallet("spvtest wallet", regtest)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	b := &builder{traffic: livenode.NewTraffic(ctx, t, n, wallet, miner), n: n, miner: miner, wallet: wallet,
		other: livenode.NewWallet("spvtest other", regtest), opts: opts}
	sc := b.build()
	sc.Network = spv.Regtest
	if n.Name == "litecoind" {
		sc.Network = LitecoinRegtest
	}
	return sc
}

// builder mines a scenario.
type builder struct {
	traffic              *livenode.Traffic
	n                    *livenode.Node
	miner, wallet, other *livenode.Wallet
	opts                 Options
}

func (b *builder) build() *Scenario {
	b.traffic.Mine(101)
	w := b.wallet
	pkh, wpkh, tr := w.NewAddress(livenode.P2PKH), w.NewAddress(livenode.P2WPKH), w.NewAddress(livenode.P2TR)
	b.filler(b.opts.Filler / 3)
	pay := b.traffic.Send(b.miner, b.miner.Spendable()[:1],
		pkh.Pay(1e8), wpkh.Pay(2e8), tr.Pay(3e8), b.unrelated().Pay(5e7))
	received := b.traffic.Mine(1)
	pay = w.Tx(pay.ID) // the wallet's view: which outputs pay it
	sc := &Scenario{Node: b.n, Wallet: w, Received: received}
	for i := range 3 {
		sc.Coins = append(sc.Coins, wire.OutPoint{Hash: pay.ID, Index: uint32(i)})
	}
	b.filler(b.opts.Filler / 3)
	b.spend([]livenode.Coin{pay.Coin(0)}, b.unrelated().Pay(5e7))
	self := b.spend([]livenode.Coin{pay.Coin(1)}, w.NewAddress(livenode.P2TR).Pay(15e7))
	b.spend([]livenode.Coin{pay.Coin(2), self.Coin(0)}, b.unrelated().Pay(4e8))
	sc.Tip = b.filler(b.opts.Filler - 2*(b.opts.Filler/3))
	return sc
}

// spend sends a wallet transaction beside an unrelated one and mines them.
func (b *builder) spend(from []livenode.Coin, to ...livenode.Payment) *livenode.Tx {
	tx := b.traffic.Send(b.wallet, from, to...)
	b.traffic.Send(b.miner, b.miner.Spendable()[:1], b.unrelated().Pay(1e7))
	b.traffic.Mine(1)
	return tx
}

// filler mines n blocks with one unrelated transaction each and returns
// the tip's height.
func (b *builder) filler(n int) int32 {
	tip := b.miner.Tip()
	for range n {
		pays := make([]livenode.Payment, max(b.opts.FillerOutputs, 1))
		for i := range pays {
			pays[i] = b.unrelated().Pay(1e5)
		}
		b.traffic.Send(b.miner, b.miner.Spendable()[:1], pays...)
		tip = b.traffic.Mine(1)
	}
	return tip
}

// unrelated returns a new address of someone neither the wallet nor the
// miner, cycling through the address types.
func (b *builder) unrelated() *livenode.Addr {
	return b.other.NewAddress(livenode.AddrType(len(b.other.Addresses()) % 3))
}
