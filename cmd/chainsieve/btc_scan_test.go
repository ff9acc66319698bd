package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// TestBTCScanNetworks: the command accepts every network package spv
// knows, by its name and testnet3 also as "testnet", with an address of
// that network.
func TestBTCScanNetworks(t *testing.T) {
	names := map[string]*spv.Network{"testnet": spv.Testnet3}
	for _, n := range spv.Networks() {
		names[n.Name()] = n
	}
	for name, n := range names {
		a, err := address.NewAddressWitnessPubKeyHash(make([]byte, 20), n.Params)
		if err != nil {
			t.Fatal(err)
		}
		e := &env{stdout: io.Discard, stderr: io.Discard}
		f, code, ok := parseBTCScanFlags(e, []string{"--peer", "127.0.0.1:1", "--network", name, "--mode", "bip157", "--address", a.EncodeAddress()})
		if !ok || f.net != n {
			t.Errorf("btc scan --network %s --address %s: exit %d, network %v, want %s", name, a, code, f, n.Name())
		}
	}
}

func TestBTCScanUsage(t *testing.T) {
	const addr = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"
	base := []string{"btc", "scan", "--peer", "127.0.0.1:1", "--network", "regtest"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"btc", "scan", "--network", "regtest", "--mode", "bip157", "--address", addr}, "--peer HOST:PORT is required"},
		{[]string{"btc", "scan", "--peer", "127.0.0.1:1", "--mode", "bip157", "--address", addr}, "--network is required"},
		{append(base, "--mode", "bip158", "--address", addr), `--mode "bip158"`},
		{append(base, "--mode", "bip157"), "--address is required"},
		{append(base[:4], "--network", "litecoin", "--mode", "bip157", "--address", addr), `--network "litecoin"`},
		{append(base, "--mode", "bip157", "--address", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"), "is not for regtest"},
		{append(base, "--mode", "bip157", "--address", "nonsense"), `address "nonsense"`},
		{append(base, "--mode", "bip157", "--address", addr, "--outpoint", "00:1"), `--outpoint "00:1"`},
		{append(base, "--mode", "bip157", "--address", addr, "--outpoint", strings.Repeat("ab", 32)+":x"), `invalid output index`},
		{append(base, "--mode", "bip157", "--address", addr, "--from", "10", "--to", "5"), "--from 10 --to 5"},
		{append(base, "--mode", "bip157", "--address", addr, "--from", "-1"), "--from -1"},
		{append(base, "--mode", "bip157", "--address", addr, "--fp", "0.01"), "--fp applies to --mode bip37 only"},
		{append(base, "--mode", "bip37", "--address", addr, "--checkpoint", "1:"+strings.Repeat("00", 32)), "--checkpoint applies to --mode bip157 only"},
		{append(base, "--mode", "bip37", "--address", addr, "--fp", "2"), "--fp 2"},
		{append(base, "--mode", "bip157", "--address", addr, "--checkpoint", "x:y"), `--checkpoint "x:y"`},
		{append(base, "--mode", "bip157", "--address", addr, "--checkpoint", "5:abc"), "filter header"},
		{append(base, "--mode", "bip157", "--address", addr, "stray"), `unexpected argument "stray"`},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
	// A peer that does not answer is a failure, not a usage error.
	code, _, stderr := runCLI(t, append(base, "--mode", "bip157", "--address", addr)...)
	if code != exitFailure || !strings.Contains(stderr, "chainsieve btc scan: spv:") {
		t.Errorf("run(a closed port) = %d, stderr %q; want %d and the dial error", code, stderr, exitFailure)
	}
}

// TestBTCScanNode runs both modes against btcd and checks the --json
// output and the --stats file against the scenario's wallet.
func TestBTCScanNode(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	args := []string{"btc", "scan", "--peer", sc.Node.P2PAddr, "--network", "regtest"}
	for _, a := range sc.Addresses() {
		args = append(args, "--address", a.String())
	}
	for _, mode := range []string{"bip157", "bip37"} {
		t.Run(mode, func(t *testing.T) {
			stats := filepath.Join(t.TempDir(), "stats.json")
			code, stdout, stderr := runCLI(t, append(args, "--mode", mode, "--json", "--stats", stats)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkJSONTxs(t, sc, stdout, 0)
			st := readStats(t, stats)
			if st.Mode != mode || st.BlocksScanned != int(sc.Tip)+1 || st.WalletTransactions != len(sc.Want(0, sc.Tip)) ||
				st.BytesReceived == 0 || st.BytesSent == 0 || st.RoundTrips < 2 || st.Error != "" {
				t.Errorf("--stats %+v: want mode %s, %d blocks, %d wallet transactions, traffic counted", st, mode, sc.Tip+1, len(sc.Want(0, sc.Tip)))
			}
			if b := st.BIP37; mode == "bip37" && (b == nil || b.FilterLoads != 1 || b.FilterCapacity != bip37.CapacityStep ||
				b.FilterTweak == 0 || b.Transactions < st.BlocksScanned || b.FilterRate > b.FPRate) {
				t.Errorf("--stats bip37 %+v: want one load of capacity %d, a tweak, the blocks' transactions, the rate under the target", b, bip37.CapacityStep)
			}
			if !strings.Contains(stderr, "btc scan: "+mode+" on regtest") || !strings.Contains(stderr, "wallet transactions") {
				t.Errorf("summary on stderr = %q", stderr)
			}
			t.Logf("%s", stderr)

			// From after the wallet was paid, with its coins: the spends.
			from := sc.Received + 1
			ranged := append(args, "--mode", mode, "--from", fmt.Sprint(from), "--json")
			for _, op := range sc.Coins {
				ranged = append(ranged, "--outpoint", op.String())
			}
			if code, stdout, stderr = runCLI(t, ranged...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkJSONTxs(t, sc, stdout, from)

			// Text: one line per transaction.
			_, stdout, _ = runCLI(t, append(args, "--mode", mode)...)
			if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != len(sc.Want(0, sc.Tip)) {
				t.Errorf("text output has %d lines, want %d:\n%s", len(lines), len(sc.Want(0, sc.Tip)), stdout)
			}
		})
	}
	t.Run("checkpoint", func(t *testing.T) {
		hash, err := sc.Node.BlockHash(t.Context(), sc.Received)
		if err != nil {
			t.Fatal(err)
		}
		_, header, err := sc.Node.BasicFilter(t.Context(), hash)
		if err != nil {
			t.Fatal(err)
		}
		cp := fmt.Sprintf("%d:%s", sc.Received, header) // display hex, as getcfilterheader prints it
		code, stdout, stderr := runCLI(t, append(args, "--mode", "bip157", "--checkpoint", cp, "--json")...)
		if code != exitOK {
			t.Fatalf("--checkpoint %s: exit %d: %s", cp, code, stderr)
		}
		checkJSONTxs(t, sc, stdout, 0)
	})
	t.Run("wrong checkpoint", func(t *testing.T) {
		code, _, stderr := runCLI(t, append(args, "--mode", "bip157", "--checkpoint", "3:"+strings.Repeat("11", 32))...)
		if code != exitFailure || !strings.Contains(stderr, "checkpoint has") {
			t.Errorf("exit %d, stderr %q; want %d and the checkpoint mismatch", code, stderr, exitFailure)
		}
	})
}

// checkJSONTxs compares --json output with the wallet's transactions from
// height from on.
func checkJSONTxs(t *testing.T, sc *spvtest.Scenario, stdout string, from int32) {
	t.Helper()
	want := sc.Want(from, sc.Tip)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d JSON lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i, l := range lines {
		var got btcTxJSON
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		w := want[i]
		if got.TxID != w.ID.String() || got.Height != w.Height || got.BlockHash != w.Block.String() {
			t.Errorf("line %d = %s at %d in %s, want %s at %d in %s", i, got.TxID, got.Height, got.BlockHash, w.ID, w.Height, w.Block)
		}
		var outs, wantOuts []int
		for _, o := range got.Outputs {
			outs = append(outs, int(o.Index))
			if a := w.Pays[o.Index]; a == nil || a.String() != o.Address || w.Msg.TxOut[o.Index].Value != o.Value {
				t.Errorf("%s output %d: %+v, want %v", got.TxID, o.Index, o, a)
			}
		}
		for i, a := range w.Pays {
			if a != nil {
				wantOuts = append(wantOuts, i)
			}
		}
		var ins, wantIns []int
		for _, in := range got.Inputs {
			ins = append(ins, int(in.Index))
			if prev := w.Msg.TxIn[in.Index].PreviousOutPoint.String(); in.Spends != prev {
				t.Errorf("%s input %d spends %s, want %s", got.TxID, in.Index, in.Spends, prev)
			}
		}
		for i, a := range w.Spends {
			if a != nil {
				wantIns = append(wantIns, i)
			}
		}
		if !slices.Equal(outs, wantOuts) || !slices.Equal(ins, wantIns) {
			t.Errorf("%s: outputs %v inputs %v, want %v %v", got.TxID, outs, ins, wantOuts, wantIns)
		}
	}
}

func readStats(t *testing.T, path string) btcStatsJSON {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st btcStatsJSON
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return st
}

func TestBTCScanProgress(t *testing.T) {
	got := btcProgress(spv.Progress{Height: 14, From: 10, To: 19})
	if want := "block 14 of 10..19 [###############...............]  50%"; got != want {
		t.Errorf("btcProgress(14 of 10..19) = %q, want %q", got, want)
	}
}
