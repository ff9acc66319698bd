package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// rawTx is tx in hex, with its witness data.
func rawTx(t *testing.T, tx *wire.MsgTx) string {
	t.Helper()
	var b bytes.Buffer
	if err := tx.Serialize(&b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b.Bytes())
}

// TestBTCSendUsage: bad arguments exit 2 before any network work.
func TestBTCSendUsage(t *testing.T) {
	coinbase := rawTx(t, chaincfg.RegressionNetParams.GenesisBlock.Transactions[0])
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"--peer", "127.0.0.1:1", coinbase}, "", "--network is required"},
		{[]string{"--network", "regtest", coinbase}, "", "--peer HOST:PORT is required on regtest"},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1"}, "", "want one argument"},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", coinbase, coinbase}, "", "want one argument"},
		{[]string{"--network", "litecoin", "--peer", "127.0.0.1:1", coinbase}, "", `--network "litecoin"`},
		{[]string{"--network", "regtest", "--peer", "nonsense", coinbase}, "", `--peer "nonsense"`},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", "zz"}, "", "raw transaction: not hex"},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", coinbase[:40]}, "", "raw transaction: "},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", coinbase + "00"}, "", "1 bytes after the transaction's end"},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", "-"}, "", "raw transaction: "},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", "-"}, "  " + coinbase + "00\n", "1 bytes after the transaction's end"},
		{[]string{"--network", "regtest", "--peer", "127.0.0.1:1", "-"}, strings.Repeat("0", maxRawTxHex+2), "more than a block holds"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		began := time.Now()
		code := run(context.Background(), append([]string{"btc", "send"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
		if code != exitUsage || stdout.Len() != 0 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("btc send %q = %d, stderr %q; want %d and %q", tt.args, code, clipText(stderr.String()), exitUsage, tt.want)
		}
		if d := time.Since(began); d > time.Second {
			t.Errorf("btc send %q took %v: a usage error must come before any network work", tt.args, d)
		}
	}
	// A peer that cannot be reached is a failure.
	code, _, stderr := runCLI(t, "btc", "send", "--network", "regtest", "--peer", "127.0.0.1:1", coinbase)
	if code != exitFailure || !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("btc send to a closed port = %d, stderr %q; want %d naming the peer", code, stderr, exitFailure)
	}
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestBTCSend relays a valid spend to two linked btcd nodes (both request
// it, exit 0, it reaches both mempools), then a double spend of its coin
// to one of them directly and to the other through a proxy that adds
// terminal escapes and a bidi override to btcd's reject reason: both
// reject it, exit 1, and the reasons are printed with every escape
// escaped. A transaction no peer asks for (one both already hold) is
// silent: exit 1.
func TestBTCSend(t *testing.T) {
	ctx := t.Context()
	regtest := &chaincfg.RegressionNetParams
	funder := livenode.NewWallet("btc send funder", regtest)
	miner := funder.NewAddress(livenode.P2WPKH).Address
	a, b := livenode.StartBtcd(t, miner), livenode.StartBtcd(t, miner, "--nobanning")
	if _, err := a.Generate(ctx, 101); err != nil {
		t.Fatal(err)
	}
	spvtest.Link(t, a, b)
	if err := funder.Sync(ctx, a); err != nil {
		t.Fatal(err)
	}
	coin := funder.Spendable()[:1]
	spend, err := funder.Build(coin, funder.NewAddress(livenode.P2TR).Pay(1e8))
	if err != nil {
		t.Fatal(err)
	}
	double, err := funder.Build(coin, funder.NewAddress(livenode.P2PKH).Pay(2e8))
	if err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := runCLI(t, "btc", "send", "--network", "regtest", "--peer", a.P2PAddr, "--peer", b.P2PAddr, rawTx(t, spend.Msg))
	t.Logf("valid spend: exit %d\n%s%s", code, stdout, stderr)
	want := []string{a.P2PAddr + " requested", b.P2PAddr + " requested"}
	if got := strings.Split(strings.TrimSpace(stdout), "\n"); code != exitOK || !slices.Equal(got, want) {
		t.Errorf("valid spend: exit %d, stdout %q; want 0, %q", code, got, want)
	}
	if !strings.Contains(stderr, spend.ID.String()+" to 2 peers: 2 requested, 0 rejected") {
		t.Errorf("stderr %q lacks the count", stderr)
	}
	for _, n := range []*livenode.Node{a, b} {
		waitMempool(t, n, spend.ID)
	}

	hostile := spvtest.NewProxy(t, b.P2PAddr, spv.Regtest, spvtest.On(func(m *wire.MsgReject) []wire.Message {
		m.Reason += "\x1b]0;owned\x07\x1b[2J\u202e\xff" + strings.Repeat("x", 5000)
		return spvtest.Keep(m)
	}))
	var out, errOut bytes.Buffer
	code = run(context.Background(), []string{"btc", "send", "--network", "regtest", "--peer", a.P2PAddr, "--peer", hostile.Addr, "--json", "-"},
		strings.NewReader(rawTx(t, double.Msg)+"\n"), &out, &errOut)
	t.Logf("double spend: exit %d\n%s%s", code, out.String(), errOut.String())
	if code != exitFailure || !strings.Contains(errOut.String(), "not relayed") {
		t.Errorf("double spend: exit %d, want %d and not relayed", code, exitFailure)
	}
	var relays []btcSendJSON
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r btcSendJSON
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		relays = append(relays, r)
	}
	if len(relays) != 2 {
		t.Fatalf("%d relays, want 2", len(relays))
	}
	for _, r := range relays {
		if r.Outcome != "rejected" || r.Code != "REJECT_DUPLICATE" || !strings.Contains(r.Reason, "already spent") {
			t.Errorf("relay %+v: want rejected, REJECT_DUPLICATE, already spent", r)
		}
	}
	if r := relays[1]; r.Peer != hostile.Addr || !strings.Contains(r.Reason, `\x1b]0;owned\a\x1b[2J`) || !strings.Contains(r.Reason, "…(+") || len(r.Reason) > 400 {
		t.Errorf("hostile relay %+v: want its reason escaped and clipped", r)
	}
	for _, s := range []string{out.String(), errOut.String()} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") || !utf8Valid(s) {
			t.Errorf("output holds raw escapes: %q", clipText(s))
		}
	}

	// Both peers hold the spend already: neither asks for it again.
	code, stdout, _ = runCLI(t, "btc", "send", "--network", "regtest", "--peer", a.P2PAddr, rawTx(t, spend.Msg))
	if code != exitFailure || strings.TrimSpace(stdout) != a.P2PAddr+" silent" {
		t.Errorf("resend: exit %d, stdout %q; want %d and silent", code, stdout, exitFailure)
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// waitMempool waits until n's mempool holds id.
func waitMempool(t *testing.T, n *livenode.Node, id chainhash.Hash) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var ids []string
		if err := n.RPC.Call(t.Context(), &ids, "getrawmempool"); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(ids, id.String()) {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s never reached %s's mempool", id, n.P2PAddr)
		}
	}
}
