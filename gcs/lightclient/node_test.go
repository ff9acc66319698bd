package lightclient

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// nodeTimeout bounds each wait for a node in these tests: long enough for
// a loaded machine.
const nodeTimeout = 10 * time.Second

// addrs returns the scenario wallet's addresses.
func addrs(sc *spvtest.Scenario) []address.Address {
	var out []address.Address
	for _, a := range sc.Addresses() {
		out = append(out, a.Address)
	}
	return out
}

// found returns the transactions of the Connected events, in order, and
// fails on any other event but Synced.
func found(t testing.TB, evs []Event) []spv.Tx {
	t.Helper()
	var txs []spv.Tx
	for _, ev := range evs {
		switch ev.Kind {
		case Connected:
			txs = append(txs, ev.Txs...)
		case Disconnected:
			t.Errorf("block %d disconnected in a scan without a reorganisation", ev.Height)
		}
	}
	return txs
}

// addNode starts another node of the scenario's kind, linked to its node.
func addNode(t testing.TB, sc *spvtest.Scenario, start spvtest.Start, args ...string) *livenode.Node {
	t.Helper()
	n := start(t, livenode.NewWallet("lightclient other node", &chaincfg.RegressionNetParams).NewAddress(livenode.P2PKH).Address, args...)
	spvtest.Link(t, sc.Node, n)
	return n
}

// TestNodes scans the scenario from two linked nodes, on btcd and on
// litecoind, in both modes: the client reports exactly the wallet's
// transactions, every block once, bans nobody, and in BIP157 mode both
// peers served the filter headers it stored.
func TestNodes(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		t.Run(n.Name, func(t *testing.T) {
			sc := spvtest.NewScenario(t, n.Start, spvtest.Options{Filler: 6, FillerOutputs: 3})
			other := addNode(t, sc, n.Start)
			for _, mode := range []Mode{BIP157, BIP37} {
				t.Run(mode.String(), func(t *testing.T) {
					c := start(t, Config{Network: sc.Network, Mode: mode, Peers: []string{sc.Node.P2PAddr, other.P2PAddr},
						Addresses: addrs(sc), Timeout: nodeTimeout})
					evs := collect(t, c, -1)
					if err := c.Err(); err != nil {
						t.Fatal(err)
					}
					sc.Check(t, found(t, evs), 0, sc.Tip)
					blocks := 0
					for _, ev := range evs {
						if ev.Kind == Connected {
							if ev.Height != int32(blocks) {
								t.Fatalf("block %d connected after %d others", ev.Height, blocks)
							}
							blocks++
						}
					}
					st := c.Stats()
					if blocks != int(sc.Tip)+1 || len(c.Bans()) != 0 {
						t.Errorf("%d blocks connected, bans %+v; want %d, none", blocks, c.Bans(), sc.Tip+1)
					}
					if mode == BIP157 && st.Traffic.Received["cfheaders"].Messages < 2 {
						t.Errorf("%d cfheaders messages received, want one from each peer at least", st.Traffic.Received["cfheaders"].Messages)
					}
					t.Logf("%d blocks, %d wallet transactions, %d B received, %d B sent, %d round trips",
						blocks, st.WalletTxs, st.Traffic.BytesReceived, st.Traffic.BytesSent, st.Traffic.RoundTrips)
				})
			}
		})
	}
}

// TestLyingProxy puts a proxy in front of one of two linked nodes (btcd,
// litecoind) that
// lies consistently about a block's filter: the filter of the block
// where the wallet spends its P2PKH coin, and its filter hash in every
// cfheaders, hold only the wallet's scripts. Beside honest peers the lie
// shows in the comparison of filter headers; the block disproves it (an
// output script is missing), so the liar is banned by its address and
// port with the reason, and the scan finds exactly the wallet's
// transactions; started again on its store, the client holds the ban
// from the start and does not dial the liar. A lie the block cannot
// disprove (the filter holds every output but no spent script, hiding the
// spend) gets the liar and the honest peer it disagreed with
// disconnected, neither banned, and the scan finishes with two other
// peers.
func TestLyingProxy(t *testing.T) {
	for _, n := range spvtest.Nodes() {
		t.Run(n.Name, func(t *testing.T) { lyingProxy(t, n) })
	}
}

func lyingProxy(t *testing.T, n spvtest.Node) {
	var args []string
	if n.Name == "btcd" {
		args = []string{"--nobanning"} // btcd bans 127.0.0.1 for a peer the proxy made misbehave
	}
	sc := spvtest.NewScenario(t, n.Start, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: args})
	b := addNode(t, sc, n.Start, args...)
	spend := sc.Want(sc.Received+1, sc.Tip)[0].Height
	hash := sc.BlockHash(t, spend)
	block, err := sc.Node.Block(t.Context(), hash)
	if err != nil {
		t.Fatal(err)
	}
	var wallet, outputs [][]byte
	for _, a := range sc.Addresses() {
		wallet = append(wallet, a.Script)
	}
	for _, tx := range block.Transactions {
		for _, o := range tx.TxOut {
			outputs = append(outputs, o.PkScript)
		}
	}

	tests := []struct {
		name   string
		items  [][]byte
		more   bool // a third honest node
		target int
		banned string
	}{
		{"filter of the wallet's scripts alone", wallet, false, 3, "the peer's filter lacks the output script of"},
		{"filter without the spent scripts", outputs, true, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := gcs.Build(gcs.Params{P: gcs.BasicP, M: gcs.BasicM}, gcs.BasicKey(hash), tt.items)
			if err != nil {
				t.Fatal(err)
			}
			liar := spvtest.NewProxy(t, b.P2PAddr, sc.Network, spvtest.FilterLie(b, hash, spend, f.Bytes()))
			peers := []string{sc.Node.P2PAddr, liar.Addr, b.P2PAddr}
			if tt.more {
				peers = append(peers, addNode(t, sc, n.Start, args...).P2PAddr)
			}
			cfg := Config{Network: sc.Network, Peers: peers, TargetPeers: tt.target, Addresses: addrs(sc), Timeout: nodeTimeout,
				Store: t.TempDir(), Follow: true} // to look at its peers once it has scanned
			c := start(t, cfg)
			evs := collect(t, c, sc.Tip)
			sc.Check(t, found(t, evs), 0, sc.Tip)
			bans := c.Bans()
			for _, b := range bans {
				t.Logf("banned %s (key %s): %s", b.Peer, b.Key, b.Reason)
			}
			connected := slices.ContainsFunc(c.Peers(), func(p PeerInfo) bool { return p.Addr == liar.Addr })
			switch {
			case tt.banned != "" && (len(bans) != 1 || bans[0].Key != liar.Addr || !strings.Contains(bans[0].Reason, tt.banned)):
				t.Errorf("bans %+v, want the liar %s for %q", bans, liar.Addr, tt.banned)
			case tt.banned == "" && len(bans) != 0:
				t.Errorf("bans %+v, want none", bans)
			case tt.banned == "" && slices.ContainsFunc(c.Peers(), func(p PeerInfo) bool { return p.Addr == sc.Node.P2PAddr }):
				t.Errorf("the honest peer the liar disagreed with is still connected")
			case connected:
				t.Errorf("the liar %s is still connected", liar.Addr)
			}
			if tt.banned == "" {
				return
			}
			if err := c.Stop(); err != nil {
				t.Fatal(err)
			}
			cfg.Follow = false
			again, evs := runOnce(t, cfg)
			kept := again.Bans()
			if describe(evs) != fmt.Sprintf("=%d", sc.Tip) || len(kept) != 1 || kept[0].Key != liar.Addr || kept[0].Reason != bans[0].Reason ||
				slices.ContainsFunc(again.PeersUsed(), func(p PeerInfo) bool { return p.Addr == liar.Addr }) {
				t.Errorf("restart: %s, bans %+v, peers %+v; want nothing new, the ban kept, the liar not dialed", describe(evs), kept, again.PeersUsed())
			}
		})
	}
}
