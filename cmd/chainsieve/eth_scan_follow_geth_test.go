package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/ethereum/go-ethereum/common"
)

// TestEthScanFollowGeth runs "eth scan --follow --json" against geth --dev
// over WebSocket and HTTP while transactions arrive, stops it with Ctrl-C
// (exit 0), and requires its rows to be geth's eth_getLogs over the same
// blocks. It needs geth and skips under -short.
func TestEthScanFollowGeth(t *testing.T) {
	g := livenode.StartGethStreams(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	emitter, _, err := g.DeployEmitter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ws", "http"} {
		t.Run(name, func(t *testing.T) {
			url := map[string]string{"ws": g.WS, "http": g.RPC.URL()}[name]
			start, err := g.BlockNumber(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "out.json")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ch, _ := startChild(t, f, "", "eth", "scan", "--rpc", url, "--from", utoa(start), "--address", common.Address(emitter).Hex(),
				"--follow", "--poll", "100ms", "--json", "--index", t.TempDir())
			for i := range 5 {
				if _, err := g.Transact(ctx, &emitter, []byte{byte(i)}); err != nil {
					t.Fatal(err)
				}
			}
			end, _ := g.BlockNumber(ctx)
			q := ethlogs.Query{Addresses: []common.Address{common.Address(emitter)}}
			from, to := ethlogs.BlockNumber(start), ethlogs.BlockNumber(end)
			q.FromBlock, q.ToBlock = &from, &to
			var raw []json.RawMessage
			if err := g.RPC.Call(ctx, &raw, "eth_getLogs", q); err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, r := range raw {
				var b bytes.Buffer
				json.Compact(&b, r)
				want = append(want, b.String())
			}
			var got []string
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && len(got) < len(want); time.Sleep(50 * time.Millisecond) {
				b, _ := os.ReadFile(out)
				got = strings.Fields(string(b))
			}
			ch.cmd.Process.Signal(syscall.SIGINT)
			if code := ch.wait(t); code != exitOK {
				t.Fatalf("Ctrl-C: exit %d:\n%s", code, ch.stderr.String())
			}
			b, _ := os.ReadFile(out)
			got = strings.Fields(string(b))
			if len(want) < 5 || !slices.Equal(got, want) {
				t.Errorf("%d rows; eth_getLogs over blocks %d to %d has %d:\n%s\n%s", len(got), start, end, len(want), b, ch.stderr.String())
			}
			t.Logf("%s: %d rows equal to eth_getLogs; %s", name, len(got), finalLine(ch.stderr.String()))
		})
	}
}

func utoa(n uint64) string { return strconv.FormatUint(n, 10) }
