package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// gethBlock is a block as geth names it by number or tag.
type gethBlock struct {
	Number hexutil.Uint64 `json:"number"`
	Hash   common.Hash    `json:"hash"`
}

func gethTag(t *testing.T, g *livenode.Geth, tag string) gethBlock {
	t.Helper()
	var b gethBlock
	if err := g.RPC.Call(t.Context(), &b, "eth_getBlockByNumber", tag, false); err != nil {
		t.Fatal(err)
	}
	return b
}

// fillGeth sends transactions until geth's head is at least n: calls of
// an emitter contract (one Ping log each) with emitter set, else plain
// transfers. Every --dev node starts from the same genesis; the blocks
// after it differ from node to node.
func fillGeth(ctx context.Context, t *testing.T, g *livenode.Geth, n uint64, emitter *livenode.EthAddress) {
	t.Helper()
	nonce, err := g.Nonce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	to := livenode.EthAddress{0xbe, 0xef}
	if emitter != nil {
		to = *emitter
	}
	for {
		head, err := g.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head >= n {
			return
		}
		h, err := g.SendTransactionGas(ctx, &to, []byte(fmt.Sprint("call ", nonce)), 100_000, nonce)
		if err != nil {
			t.Fatal(err)
		}
		nonce++
		if _, err := g.Receipt(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEthScanAnchorsGeth runs the new range and anchor forms against a
// real geth --dev, whose finalized block trails its head in steps of 32
// and whose safe block is its head: each gives the blocks geth names and
// exactly geth's eth_getLogs for them. A second geth with another chain,
// given as --confirm-rpc, is caught naming both endpoints and hashes; the
// same node twice agrees; an endpoint that is down is reported and
// --confirm-min decides. A proxy forging one block's transaction hashes
// is caught naming the block.
func TestEthScanAnchorsGeth(t *testing.T) {
	a := livenode.StartGeth(t)
	b := livenode.StartGeth(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	emitter, _, err := a.DeployEmitter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fillGeth(ctx, t, a, 70, &emitter)
	fillGeth(ctx, t, b, 70, nil)
	head, fin, safe := gethTag(t, a, "latest"), gethTag(t, a, "finalized"), gethTag(t, a, "safe")
	t.Logf("geth A: head %d, finalized %d, safe %d; geth B: head %d, finalized %d (%v)", head.Number, fin.Number, safe.Number,
		gethTag(t, b, "latest").Number, gethTag(t, b, "finalized").Number, time.Since(began).Round(time.Millisecond))
	if fin.Number < 32 || fin.Number >= head.Number {
		t.Fatalf("geth's finalized block %d, head %d: want finality behind the head, past genesis", fin.Number, head.Number)
	}
	getLogs := func(from, to uint64) []string {
		f, tt := ethlogs.BlockNumber(from), ethlogs.BlockNumber(to)
		var raw []json.RawMessage
		q := ethlogs.Query{FromBlock: &f, ToBlock: &tt, Addresses: []common.Address{common.Address(emitter)}}
		if err := a.RPC.Call(ctx, &raw, "eth_getLogs", q); err != nil {
			t.Fatal(err)
		}
		lines := make([]string, len(raw))
		for i, r := range raw {
			lines[i] = compact(r)
		}
		return lines
	}
	index := t.TempDir()
	scanA := func(url string, args ...string) (int, string, string) {
		return runCLI(t, append([]string{"eth", "scan", "--json", "--rpc", url, "--index", index, "--retries", "1", "--address", common.Address(emitter).Hex()}, args...)...)
	}
	h, f := uint64(head.Number), uint64(fin.Number)
	for _, tt := range []struct {
		args             []string
		from, to, anchor uint64
		source           string
	}{
		{[]string{"--from", "0", "--to", "finalized"}, 0, f, f, "the node's finalized block"},
		{[]string{"--from", "0"}, 0, h, f, "the node's finalized block"},
		{[]string{"--from", "0", "--anchor", "safe"}, 0, h, uint64(safe.Number), "the node's block for --anchor safe"},
		{[]string{"--from", "latest-10"}, h - 10, h, f, "the node's finalized block"},
		{[]string{"--from", "latest-30", "--to", "latest-10", "--anchor", "latest-10"}, h - 30, h - 10, h - 10, "the node's block for --anchor latest-10"},
		{[]string{"--from", "finalized-5", "--to", "finalized", "--anchor", fmt.Sprintf("%d:%s", f, fin.Hash.Hex())}, f - 5, f, f, "the hash you gave"},
	} {
		code, stdout, stderr := scanA(a.RPC.URL(), tt.args...)
		want := getLogs(tt.from, tt.to)
		if code != exitOK || !slices.Equal(splitLines(stdout), want) {
			t.Errorf("%q: exit %d, %d logs, geth's eth_getLogs over %d to %d: %d\n%s", tt.args, code, len(splitLines(stdout)), tt.from, tt.to, len(want), stderr)
		}
		for _, s := range []string{fmt.Sprintf("anchor: block %d ", tt.anchor), tt.source, fmt.Sprintf("blocks %d to %d, verify full", tt.from, tt.to)} {
			if !strings.Contains(stderr, s) {
				t.Errorf("%q: stderr lacks %q:\n%s", tt.args, s, stderr)
			}
		}
		if after := tt.to > tt.anchor; after != strings.Contains(stderr, fmt.Sprintf("blocks %d to %d are after the anchor", tt.anchor+1, tt.to)) {
			t.Errorf("%q: the blocks after the anchor are not reported as such:\n%s", tt.args, stderr)
		}
	}

	var bAt gethBlock
	if err := b.RPC.Call(ctx, &bAt, "eth_getBlockByNumber", hexutil.Uint64(f), false); err != nil {
		t.Fatal(err)
	}
	down := "http://127.0.0.1:1"
	for _, tt := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--confirm-rpc", a.RPC.URL(), "--confirm-rpc", a.RPC.URL()}, exitOK, []string{"2 of 2 --confirm-rpc endpoints agree"}},
		{[]string{"--confirm-rpc", b.RPC.URL()}, exitFailure, []string{"contradicted", b.RPC.URL(), a.RPC.URL(), fin.Hash.Hex(), bAt.Hash.Hex()}},
		{[]string{"--confirm-rpc", a.RPC.URL(), "--confirm-rpc", b.RPC.URL(), "--confirm-min", "1"}, exitFailure, []string{"contradicted", bAt.Hash.Hex()}},
		{[]string{"--confirm-rpc", a.RPC.URL(), "--confirm-rpc", down}, exitFailure, []string{"confirmed by 1 of 2 endpoints, fewer than the 2 required", down}},
		{[]string{"--confirm-rpc", a.RPC.URL(), "--confirm-rpc", down, "--confirm-min", "1"}, exitOK, []string{"not confirmed by " + down, "1 of 2 --confirm-rpc endpoints agree (1 required)"}},
	} {
		code, stdout, stderr := scanA(a.RPC.URL(), append([]string{"--from", "0"}, tt.args...)...)
		if code != tt.code || (code == exitOK) != (stdout != "") {
			t.Errorf("%q: exit %d, want %d\n%s", tt.args, code, tt.code, stderr)
		}
		for _, s := range tt.want {
			if !strings.Contains(stderr, s) {
				t.Errorf("%q: stderr lacks %q:\n%s", tt.args, s, stderr)
			}
		}
		t.Logf("%q: exit %d: %s", tt.args, code, lastLine(stderr))
	}

	// A proxy rewriting the transaction hashes of one block's receipts.
	truth := getLogs(0, h)
	var target struct {
		Number hexutil.Uint64 `json:"blockNumber"`
		Hash   common.Hash    `json:"blockHash"`
	}
	json.Unmarshal([]byte(truth[len(truth)/2]), &target)
	p := scantest.NewProxy(a.RPC.URL())
	defer p.Close()
	p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
		if call.Method != "eth_getBlockReceipts" || call.Hash() != target.Hash.Hex() {
			return result
		}
		return scantest.Edit(result, func(rs *[]map[string]json.RawMessage) {
			for _, r := range *rs {
				r["transactionHash"] = json.RawMessage(`"0x7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e7a5e"`)
			}
		})
	})
	code, stdout, stderr := runCLI(t, "eth", "scan", "--json", "--rpc", p.URL, "--from", "0", "--index", t.TempDir(), "--address", common.Address(emitter).Hex())
	if got := splitLines(stdout); code != exitFailure || !strings.Contains(stderr, fmt.Sprintf("block %d", target.Number)) || !strings.Contains(stderr, "names transaction 0x7a5e") ||
		len(got) > len(truth) || !slices.Equal(got, truth[:len(got)]) {
		t.Errorf("forged transactionHash in block %d: exit %d, %d logs\n%s", target.Number, code, len(got), stderr)
	}
	t.Logf("forged transactionHash: exit %d: %s", code, lastLine(stderr))
}

func compact(r json.RawMessage) string {
	var b bytes.Buffer
	json.Compact(&b, r)
	return b.String()
}
