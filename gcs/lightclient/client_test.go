package lightclient

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// history is a fake chain of 8 blocks where the wallet (its address at
// key 1) is paid at height 4 and spends that coin at height 6.
type history struct {
	chain  *fakeChain
	addr   address.Address
	script []byte
	pay    wire.OutPoint // the wallet's coin, created at 4
}

func newHistory(t testing.TB) *history {
	h := &history{chain: newFakeChain(t)}
	h.addr, h.script = walletAddr(t, 1)
	_, other := walletAddr(t, 9)
	c := h.chain
	for range 3 {
		c.mine(t, 0)
	}
	cb := wire.OutPoint{Hash: c.blocks[1].Transactions[0].TxHash()}
	b := c.mine(t, 0, fakeTx{from: []wire.OutPoint{cb}, to: []payment{{h.script, 1e8}, {other, 2e8}}})
	h.pay = wire.OutPoint{Hash: b.Transactions[1].TxHash()}
	c.mine(t, 0)
	c.mine(t, 0, fakeTx{from: []wire.OutPoint{h.pay}, to: []payment{{other, 9e7}}})
	c.mine(t, 0)
	return h
}

// testConfig is a client of the history's wallet on the given peers.
func (h *history) config(peers ...*fakePeer) Config {
	cfg := Config{Network: spv.Regtest, Addresses: []address.Address{h.addr}, Timeout: 5 * time.Second}
	for _, p := range peers {
		cfg.Peers = append(cfg.Peers, p.addr)
	}
	return cfg
}

// start starts a client and returns it; it is stopped when the test ends.
func start(t testing.TB, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop() })
	return c
}

// collect reads events until the stream closes or a Synced event at
// height or above, within 30 s.
func collect(t testing.TB, c *Client, until int32) []Event {
	t.Helper()
	var got []Event
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				return got
			}
			got = append(got, ev)
			if ev.Kind == Synced && until >= 0 && ev.Height >= until {
				return got
			}
		case <-timer.C:
			t.Fatalf("no Synced event at %d within 30 s; got %s (client error %v)", until, describe(got), c.Err())
		}
	}
}

// withoutSynced drops the Synced events but the last: how many come
// between depends on when the client hears of each branch.
func withoutSynced(evs []Event) []Event {
	var out []Event
	for i, ev := range evs {
		if ev.Kind != Synced || i == len(evs)-1 {
			out = append(out, ev)
		}
	}
	return out
}

// describe writes events as "+4[1] -6[1] =7": connected, disconnected
// and synced heights, with the number of transactions.
func describe(evs []Event) string {
	var parts []string
	for _, ev := range evs {
		sign := map[EventKind]string{Connected: "+", Disconnected: "-", Synced: "="}[ev.Kind]
		if ev.Rescan {
			sign = "r"
		}
		s := fmt.Sprintf("%s%d", sign, ev.Height)
		if len(ev.Txs) > 0 {
			s += fmt.Sprintf("[%d]", len(ev.Txs))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// TestScanTwoPeers scans the history from two scripted peers that agree:
// every block connects once, in order, the wallet's payment and spend at
// their heights, then Synced; the stream closes and the ledger holds both
// transactions and no coin.
func TestScanTwoPeers(t *testing.T) {
	h := newHistory(t)
	p1, p2 := startFakePeer(t, h.chain), startFakePeer(t, h.chain)
	c := start(t, h.config(p1, p2))
	got := collect(t, c, -1)
	if err := c.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "+0 +1 +2 +3 +4[1] +5 +6[1] +7 =7"; describe(got) != want {
		t.Errorf("events %s, want %s", describe(got), want)
	}
	if txs := c.Transactions(); len(txs) != 2 || len(c.Unspent()) != 0 || c.Balance(1) != (wallet.Balance{}) {
		t.Errorf("ledger: %d transactions, %d coins, balance %+v; want 2, none, zero", len(txs), len(c.Unspent()), c.Balance(1))
	}
	st := c.Stats()
	if st.FilterHeaders != 8 || st.Traffic.Received["cfheaders"].Messages != 2 || st.Filters != 8 || st.BlocksFetched != 2 {
		t.Errorf("stats: %d filter hashes in %d cfheaders, %d filters, %d blocks; want 8 in 2 (one a peer), 8, 2",
			st.FilterHeaders, st.Traffic.Received["cfheaders"].Messages, st.Filters, st.BlocksFetched)
	}
}
