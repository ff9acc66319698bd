package main

import (
	"bufio"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// hostileText opens what a lying peer writes: a terminal title change,
// a screen clear, colours, a bidi override, a line break, invalid UTF-8.
const hostileText = "\x1b]0;owned\x07\x1b[2J\x1b[31m\u202e\n\xff\xfe"

// hostileEscaped is how hostileText must print: every character that is
// not printable escaped, at the source (core/untrusted.Text).
const hostileEscaped = `\x1b]0;owned\a\x1b[2J\x1b[31m\u202e\n\xff\xfe`

// hostilePeer returns a proxy in front of node whose version message
// carries a user agent of 256 bytes (the most a version message holds)
// of hostile text, and whose rejects give 100 KB of it as their reason.
// A proxy for a scan also rejects every getheaders so.
func hostilePeer(t *testing.T, node string, scan bool) *spvtest.Proxy {
	ua := (hostileText + strings.Repeat("\x1b[5m/evil", 30))[:wire.MaxUserAgentLen]
	const unit = "\x1b[5mA\x07"
	reason := hostileText + strings.Repeat(unit, 100_000/len(unit)) // 100 KB
	return spvtest.NewProxy(t, node, spv.Regtest, func(msg wire.Message) []wire.Message {
		switch m := msg.(type) {
		case *wire.MsgVersion:
			m.UserAgent = ua
		case *wire.MsgReject:
			m.Reason = reason
		case *wire.MsgHeaders:
			if scan {
				return []wire.Message{&wire.MsgReject{Cmd: wire.CmdGetHeaders, Code: wire.RejectInvalid, Reason: reason}}
			}
		}
		return spvtest.Keep(msg)
	})
}

// checkHostileOutput fails if out holds a raw control or bidi character,
// invalid UTF-8, or a line longer than max characters.
func checkHostileOutput(t *testing.T, what, out string, max int) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x07\u202e") || !utf8.ValidString(out) {
		t.Errorf("%s holds raw escapes or invalid UTF-8: %q", what, clipText(out))
	}
	s := bufio.NewScanner(strings.NewReader(out))
	s.Buffer(nil, 1<<24)
	for s.Scan() {
		if n := utf8.RuneCountInString(s.Text()); n > max {
			t.Errorf("%s has a line of %d characters, more than %d: %q", what, n, max, clipText(s.Text()))
		}
	}
}

// TestBTCHostilePeerText puts a lying peer in front of btcd: its version
// message's user agent is 256 bytes of terminal escapes, and it answers
// getheaders (btc scan) and a transaction (btc send) with a reject whose
// reason is 100 KB of them. btc scan bans it, finishes with two honest
// nodes, and prints the ban's reason, on stderr and in --stats, and the
// user agent in --stats, escaped and clipped; btc send prints its reject
// the same way. No raw escape reaches stdout, stderr or the stats file.
func TestBTCHostilePeerText(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 2, FillerOutputs: 2})
	b := otherNode(t, sc)
	liar := hostilePeer(t, b.P2PAddr, true)
	stats := filepath.Join(t.TempDir(), "stats.json")
	code, stdout, stderr := runCLI(t, append(scenarioArgs(sc, sc.Node.P2PAddr, liar.Addr, b.P2PAddr), "--store", t.TempDir(), "--stats", stats)...)
	t.Logf("btc scan: exit %d\n%s", code, stderr)
	if code != exitOK {
		t.Fatalf("btc scan beside a hostile peer: exit %d", code)
	}
	checkJSONTxs(t, sc, parseBTCJSON(t, stdout).txs, 0)
	checkHostileOutput(t, "btc scan's stdout", stdout, 2000)
	checkHostileOutput(t, "btc scan's stderr", stderr, maxPeerText+100)
	if want := "btc scan: banned " + liar.Addr + " until "; !strings.Contains(stderr, want) || !strings.Contains(stderr, hostileEscaped) || !strings.Contains(stderr, "…(+") {
		t.Errorf("stderr lacks the ban %q with the reason escaped (%q) and clipped", want, hostileEscaped)
	}
	st := readStats(t, stats)
	i := slices.IndexFunc(st.Peers, func(p btcStatsPeer) bool { return p.Address == liar.Addr })
	if i < 0 || !strings.HasPrefix(st.Peers[i].UserAgent, hostileEscaped) || utf8.RuneCountInString(st.Peers[i].UserAgent) > 300 {
		t.Errorf("--stats peers %+v: want the liar with its user agent escaped and clipped", st.Peers)
	}
	if len(st.Bans) != 1 || !strings.Contains(st.Bans[0].Reason, hostileEscaped) || utf8.RuneCountInString(st.Bans[0].Reason) > maxPeerText+20 {
		t.Errorf("--stats bans %+v: want the liar's, the reason escaped and clipped", st.Bans)
	}
	for _, p := range st.Peers {
		checkHostileOutput(t, "--stats user agent", p.UserAgent+"\n"+p.Dropped, maxPeerText+20)
	}

	// btc send: double spends of a coin a spend in both mempools spends,
	// which the nodes reject; the liar's reject says 100 KB.
	ctx := t.Context()
	w := sc.Wallet
	if err := w.Sync(ctx, sc.Node); err != nil {
		t.Fatal(err)
	}
	coin := w.Spendable()[:1]
	spend, err := w.Build(coin, w.NewAddress(livenode.P2WPKH).Pay(1e6))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Node.SendRawTransaction(ctx, spend.Msg); err != nil {
		t.Fatal(err)
	}
	waitMempool(t, b, spend.ID)
	sender := hostilePeer(t, b.P2PAddr, false)
	for i, asJSON := range []bool{false, true} {
		double, err := w.Build(coin, w.NewAddress(livenode.P2PKH).Pay(2e6+int64(i)))
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"btc", "send", "--network", "regtest", "--peer", sc.Node.P2PAddr, "--peer", sender.Addr, rawTx(t, double.Msg)}
		want := sender.Addr + " rejected: REJECT_DUPLICATE " + hostileEscaped
		if asJSON {
			args = append(args, "--json")
			want = strings.ReplaceAll(hostileEscaped, `\`, `\\`)
		}
		code, stdout, stderr = runCLI(t, args...)
		t.Logf("btc send: exit %d\n%s%s", code, stdout, stderr)
		if code != exitFailure || !strings.Contains(stdout, want) || !strings.Contains(stdout, "…(+") {
			t.Errorf("btc send: exit %d, stdout %q; want %d and %q, clipped", code, clipText(stdout), exitFailure, want)
		}
		checkHostileOutput(t, "btc send's stdout", stdout, 600)
		checkHostileOutput(t, "btc send's stderr", stderr, maxPeerText+100)
	}
}
