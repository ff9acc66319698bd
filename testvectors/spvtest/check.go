package spvtest

import (
	"context"
	"fmt"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Want returns the wallet's transactions confirmed at heights from to to,
// both included.
func (sc *Scenario) Want(from, to int32) []*livenode.Tx {
	var txs []*livenode.Tx
	for _, tx := range sc.Wallet.Txs() {
		if tx.Height >= from && tx.Height <= to {
			txs = append(txs, tx)
		}
	}
	return txs
}

// Addresses returns the wallet's addresses, as a scan watches them.
func (sc *Scenario) Addresses() []*livenode.Addr { return sc.Wallet.Addresses() }

// Watch returns a watch of the wallet's addresses and of coins.
func (sc *Scenario) Watch(t testing.TB, coins ...wire.OutPoint) *spv.Watch {
	return sc.WatchDecoys(t, 0, coins...)
}

// WatchDecoys returns a watch of the wallet's addresses, decoys more that
// no transaction uses, and coins: a wallet of realistic size.
func (sc *Scenario) WatchDecoys(t testing.TB, decoys int, coins ...wire.OutPoint) *spv.Watch {
	t.Helper()
	var addrs []address.Address
	for _, a := range sc.Wallet.Addresses() {
		addrs = append(addrs, a.Address)
	}
	d := livenode.NewWallet("spvtest decoys", regtest)
	for i := range decoys {
		addrs = append(addrs, d.NewAddress(livenode.AddrType(i%3)).Address)
	}
	w, err := spv.NewWatch(addrs, coins)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Check compares what a scan of heights from to to found with the
// wallet's transactions there: the same transactions in block order, each
// with its block, height, the outputs that pay the wallet and the inputs
// that spend its coins.
func (sc *Scenario) Check(t testing.TB, found []spv.Tx, from, to int32) {
	t.Helper()
	want := sc.Want(from, to)
	byID := make(map[[32]byte]*livenode.Tx)
	for _, tx := range want {
		byID[tx.ID] = tx
	}
	for i, got := range found {
		if i > 0 && got.Height < found[i-1].Height {
			t.Errorf("found %s at height %d after height %d: not in block order", got.ID, got.Height, found[i-1].Height)
		}
		w := byID[got.ID]
		if w == nil {
			t.Errorf("found %s at height %d, which is not a wallet transaction in %d..%d", got.ID, got.Height, from, to)
			continue
		}
		delete(byID, got.ID)
		if got.Height != w.Height || got.Block != w.Block {
			t.Errorf("found %s in block %d %s, want %d %s", got.ID, got.Height, got.Block, w.Height, w.Block)
		}
		if g, x := outputs(got), indexes(w.Pays); !slices.Equal(g, x) {
			t.Errorf("found %s paying the wallet in outputs %v, want %v", got.ID, g, x)
		}
		if g, x := inputs(got), indexes(w.Spends); !slices.Equal(g, x) {
			t.Errorf("found %s spending the wallet in inputs %v, want %v", got.ID, g, x)
		}
	}
	for id, w := range byID {
		t.Errorf("missed wallet transaction %x at height %d", id, w.Height)
	}
}

func outputs(tx spv.Tx) []int {
	var is []int
	for _, o := range tx.Outputs {
		is = append(is, int(o.Index))
	}
	return is
}

func inputs(tx spv.Tx) []int {
	var is []int
	for _, in := range tx.Inputs {
		is = append(is, int(in.Index))
	}
	return is
}

func indexes(addrs []*livenode.Addr) []int {
	var is []int
	for i, a := range addrs {
		if a != nil {
			is = append(is, i)
		}
	}
	return is
}

// Dial connects to the node at addr (a loopback address) for network n,
// requiring services, with the given timeout for each wait (zero means
// [Timeout]). The session is closed when the test ends.
func Dial(t testing.TB, addr string, n *spv.Network, services wire.ServiceFlag, timeout time.Duration) *spv.Session {
	t.Helper()
	if err := checkLoopback(addr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if timeout == 0 {
		timeout = Timeout
	}
	s, err := spv.Dial(ctx, addr, spv.Config{Network: n, Services: services, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Timeout bounds each wait of a test session by default: long enough for
// a loaded machine.
const Timeout = 10 * time.Second

// checkLoopback refuses any address but a literal loopback IP: tests talk
// to 127.0.0.1 only.
func checkLoopback(hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("spvtest: address %q: %v", hostport, err)
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("spvtest: %q is not a loopback address; tests talk to 127.0.0.1 only", hostport)
	}
	return nil
}
