package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// otherNode starts a second btcd of the scenario, linked to its node.
func otherNode(t *testing.T, sc *spvtest.Scenario, args ...string) *livenode.Node {
	t.Helper()
	n := livenode.StartBtcd(t, livenode.NewWallet("btc scan other node", &chaincfg.RegressionNetParams).NewAddress(livenode.P2PKH).Address, args...)
	spvtest.Link(t, sc.Node, n)
	return n
}

// scenarioArgs is btc scan of the scenario's wallet on regtest.
func scenarioArgs(sc *spvtest.Scenario, peers ...string) []string {
	args := []string{"btc", "scan", "--network", "regtest", "--json"}
	for _, p := range peers {
		args = append(args, "--peer", p)
	}
	for _, a := range sc.Addresses() {
		args = append(args, "--address", a.String())
	}
	return args
}

// TestBTCScanTwoPeers scans the scenario from two linked btcd nodes in
// both modes: the output is exactly the wallet's transactions, then its
// coins as the node's gettxout has them; --stats names both peers, bans
// none, and in bip157 mode counts cfheaders from each (the quorum of
// two). A second run on the same --store takes the kept wallet up at the
// tip: it prints no transaction, the same coins and balance, and receives
// one empty headers message a peer and no filter header, filter, block or
// merkle block. Once a block is mined, a third run scans that block
// alone, and in bip37 mode loads its filter with the tweak and capacity
// the first run kept.
func TestBTCScanTwoPeers(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	other := otherNode(t, sc)
	args := scenarioArgs(sc, sc.Node.P2PAddr, other.P2PAddr)
	for _, mode := range []string{"bip157", "bip37"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			scan := func(run int) (btcJSONOutput, btcStatsJSON, string) {
				t.Helper()
				stats := filepath.Join(t.TempDir(), "stats.json")
				code, stdout, stderr := runCLI(t, append(args, "--mode", mode, "--store", dir, "--stats", stats)...)
				if code != exitOK {
					t.Fatalf("run %d: exit %d\n%s", run, code, stderr)
				}
				st := readStats(t, stats)
				var peers []string
				for _, p := range st.Peers {
					peers = append(peers, p.Address)
				}
				slices.Sort(peers)
				want := []string{sc.Node.P2PAddr, other.P2PAddr}
				slices.Sort(want)
				if !slices.Equal(peers, want) || len(st.Bans) != 0 || st.Error != "" {
					t.Errorf("run %d: peers %v, bans %v; want both peers, no ban", run, peers, st.Bans)
				}
				recv := st.Received
				t.Logf("run %d: %d B received, headers %d messages %d B, cfheaders %d B, cfilter %d B, block %d B, merkleblock %d B",
					run, st.BytesReceived, recv["headers"].Messages, recv["headers"].Bytes, recv["cfheaders"].Bytes, recv["cfilter"].Bytes,
					recv["block"].Bytes, recv["merkleblock"].Bytes)
				t.Logf("run %d's stderr:\n%s", run, stderr)
				return parseBTCJSON(t, stdout), st, stderr
			}
			tip, err := sc.Node.BlockCount(t.Context()) // each mode's subtest mines a block
			if err != nil {
				t.Fatal(err)
			}
			first, firstStats, _ := scan(1)
			checkJSONTxs(t, sc, first.txs, 0)
			checkWallet(t, first, sc.Node, scenarioScripts(sc), tip, true)
			if cf := firstStats.Received["cfheaders"]; mode == "bip157" && cf.Messages < 2 {
				t.Errorf("%d cfheaders messages, want one from each peer at least", cf.Messages)
			}

			second, st, stderr := scan(2)
			if len(second.txs) != 0 || fmt.Sprint(second.utxos, *second.balance) != fmt.Sprint(first.utxos, *first.balance) {
				t.Errorf("second run printed %d transactions, coins %v %+v; want none, the first's", len(second.txs), second.utxos, *second.balance)
			}
			recv := st.Received
			if h := recv["headers"]; h.Messages != 2 || h.Bytes != 2*25 ||
				recv["cfheaders"].Messages+recv["cfilter"].Messages+recv["block"].Messages+recv["merkleblock"].Messages+recv["tx"].Messages != 0 {
				t.Errorf("second run on the store: received %v; want one empty headers message (25 B) a peer, nothing else of the chain", recv)
			}
			if want := fmt.Sprintf("resumes after block %d", tip); !strings.Contains(stderr, want) || st.Resumed == nil || *st.Resumed != tip {
				t.Errorf("second run: stderr %q, --stats resumed %v; want %q", stderr, st.Resumed, want)
			}

			if _, err := sc.Node.Generate(t.Context(), 1); err != nil {
				t.Fatal(err)
			}
			if tip, err = sc.Node.BlockCount(t.Context()); err != nil {
				t.Fatal(err)
			}
			for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if h, err := other.BlockCount(t.Context()); err == nil && h == tip || time.Now().After(end) {
					break
				}
			}
			third, st, _ := scan(3)
			checkWallet(t, third, sc.Node, scenarioScripts(sc), tip, true)
			if len(third.txs) != 0 || st.BlocksScanned != 1 || st.From != tip || st.To != tip {
				t.Errorf("third run: %d transactions, %d blocks scanned, blocks %d to %d; want none, block %d alone", len(third.txs), st.BlocksScanned, st.From, st.To, tip)
			}
			if b, a := st.BIP37, firstStats.BIP37; mode == "bip37" && (b.FilterLoads != 1 || b.FilterTweak != a.FilterTweak || b.FilterCapacity != a.FilterCapacity) {
				t.Errorf("third run's filter: %d loads, tweak %d capacity %d, want one, the first's %d %d", b.FilterLoads, b.FilterTweak, b.FilterCapacity, a.FilterTweak, a.FilterCapacity)
			}
		})
	}
}

// TestBTCScanLyingProxy puts a proxy in front of one of two linked btcd
// nodes that lies consistently about the filter of the block where the
// wallet spends its P2PKH coin (the filter and its hash in every
// cfheaders hold only the wallet's scripts). The scan from the honest
// node, the liar and the liar's node bans the liar, names it and the
// reason on stderr and in --stats, and still prints exactly the wallet's
// transactions and coins.
func TestBTCScanLyingProxy(t *testing.T) {
	nobanning := "--nobanning" // btcd bans 127.0.0.1 for a peer the proxy made misbehave
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3, Args: []string{nobanning}})
	b := otherNode(t, sc, nobanning)
	spend := sc.Want(sc.Received+1, sc.Tip)[0].Height
	hash := sc.BlockHash(t, spend)
	var scripts [][]byte
	for _, a := range sc.Addresses() {
		scripts = append(scripts, a.Script)
	}
	f, err := gcs.Build(gcs.Params{P: gcs.BasicP, M: gcs.BasicM}, gcs.BasicKey(hash), scripts)
	if err != nil {
		t.Fatal(err)
	}
	liar := spvtest.NewProxy(t, b.P2PAddr, sc.Network, spvtest.FilterLie(b, hash, spend, f.Bytes()))
	stats := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := runCLI(t, append(scenarioArgs(sc, sc.Node.P2PAddr, liar.Addr, b.P2PAddr), "--store", t.TempDir(), "--stats", stats)...)
	t.Logf("%s", stderr)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	out := parseBTCJSON(t, stdout)
	checkJSONTxs(t, sc, out.txs, 0)
	checkWallet(t, out, sc.Node, scenarioScripts(sc), sc.Tip, true)
	const reason = "the peer's filter lacks the output script of"
	if want := fmt.Sprintf("btc scan: banned %s until ", liar.Addr); !strings.Contains(stderr, want) || !strings.Contains(stderr, reason) {
		t.Errorf("stderr lacks %q and %q", want, reason)
	}
	st := readStats(t, stats)
	if len(st.Bans) != 1 || st.Bans[0].Key != liar.Addr || !strings.Contains(st.Bans[0].Reason, reason) {
		t.Errorf("--stats bans %+v, want the liar %s for %q", st.Bans, liar.Addr, reason)
	}
	i := slices.IndexFunc(st.Peers, func(p btcStatsPeer) bool { return p.Address == liar.Addr })
	if i < 0 || !strings.Contains(st.Peers[i].Dropped, reason) {
		t.Errorf("--stats peers %+v: want the liar, dropped for %q", st.Peers, reason)
	}
}
