package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
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
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
		f, code, ok := parseBTCScanFlags(e, []string{"--peer", "127.0.0.1:1", "--network", name, "--mode", "bip157", "--address", a.EncodeAddress()})
		if !ok || f.net != n {
			t.Errorf("btc scan --network %s --address %s: exit %d, network %v, want %s", name, a, code, f, n.Name())
		}
	}
}

// mainnetDesc is a wallet over the xpub of Bitcoin Core's
// descriptor_tests.cpp (gcs/lightclient's Example).
const mainnetDesc = "wpkh(xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB/<0;1>/*)#34gyh0p0"

// TestBTCScanUsage: every flag error exits 2 with the flag named, before
// any network work (the peer's port is closed, and no store is opened:
// --store names a file, which would fail as a directory).
func TestBTCScanUsage(t *testing.T) {
	const addr = "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	regtestDesc := spvtest.NewAccount(t, &chaincfg.RegressionNetParams).Desc.String()
	base := []string{"btc", "scan", "--store", file, "--peer", "127.0.0.1:1", "--network", "regtest"}
	with := func(args ...string) []string { return append(slices.Clone(base), args...) }
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"btc", "scan", "--network", "regtest", "--address", addr}, "--peer HOST:PORT is required on regtest, which has no DNS seeds"},
		{[]string{"btc", "scan", "--peer", "127.0.0.1:1", "--address", addr}, "--network is required"},
		{with("--mode", "bip158", "--address", addr), `--mode "bip158"`},
		{with(), "a wallet is required: --descriptor DESC or --address ADDR"},
		{append(slices.Clone(base[:6]), "--network", "litecoin", "--address", addr), `--network "litecoin"`},
		{with("--address", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"), "is not for regtest"},
		{with("--address", "nonsense"), `address "nonsense"`},
		{with("--address", addr, "--peer", "nonsense"), `--peer "nonsense": want HOST:PORT`},
		{with("--address", addr, "--peer", "127.0.0.1:0"), `--peer "127.0.0.1:0"`},
		{with("--address", addr, "--outpoint", "00:1"), `--outpoint "00:1"`},
		{with("--address", addr, "--outpoint", strings.Repeat("ab", 32)+":x"), `invalid output index`},
		{with("--address", addr, "--birthday", "10", "--to", "5"), "--birthday 10 --to 5"},
		{with("--address", addr, "--from", "10", "--to", "5"), "--birthday 10 --to 5"},
		{with("--address", addr, "--to", "0"), "--birthday 0 --to 0"},
		{with("--address", addr, "--birthday", "-1"), "--birthday -1"},
		{with("--address", addr, "--from", "3", "--birthday", "4"), "--from 3 and --birthday 4: give one"},
		{with("--address", addr, "--follow", "--to", "5"), "--to ends the scan, --follow never does"},
		{with("--address", addr, "--confirmations", "0"), "--confirmations 0: want 1"},
		{with("--address", addr, "--confirmations", "5000"), "--confirmations 5000"},
		{with("--address", addr, "--gap", "5"), "--gap applies to ranged descriptors"},
		{with("--descriptor", regtestDesc, "--gap", "0"), "--gap 0: want 1 to 100000"},
		{with("--descriptor", "wpkh(nonsense)"), `--descriptor "wpkh(nonsense)"`},
		{with("--descriptor", mainnetDesc), "--descriptor"},
		{with("--descriptor", "wsh(multi(1,"+regtestDesc[5:strings.IndexByte(regtestDesc, ')')]+"))"), "is not one of the single-key forms"},
		{with("--address", addr, "--fp", "0.01"), "--fp applies to --mode bip37 only"},
		{with("--mode", "bip37", "--address", addr, "--checkpoint", "1:"+strings.Repeat("00", 32)), "--checkpoint applies to --mode bip157 only"},
		{with("--mode", "bip37", "--address", addr, "--fp", "2"), "--fp 2"},
		{with("--address", addr, "--checkpoint", "x:y"), `--checkpoint "x:y"`},
		{with("--address", addr, "--checkpoint", "5:abc"), "filter header"},
		{with("--address", addr, "--store", ""), "--store: want a directory"},
		{with("--address", addr, "stray"), `unexpected argument "stray"`},
	}
	for _, tt := range tests {
		began := time.Now()
		code, stdout, stderr := runCLI(t, tt.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
		if d := time.Since(began); d > time.Second {
			t.Errorf("run(%q) took %v: a usage error must come before any network work", tt.args, d)
		}
	}
	// A mainnet descriptor wallet with no --peer is valid (DNS seeds):
	// only the flags are parsed here.
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	f, code, ok := parseBTCScanFlags(e, []string{"--network", "mainnet", "--descriptor", mainnetDesc, "--birthday", "850000", "--store", file})
	if !ok || len(f.peers) != 0 || len(f.descs) != 1 || f.birthday != 850000 || f.confirmations != 1 || f.storeDir != file {
		t.Errorf("mainnet descriptor wallet without --peer: exit %d, %+v", code, f)
	}
	// A peer that does not answer is a failure, not a usage error.
	code, _, stderr := runCLI(t, "btc", "scan", "--store", t.TempDir(), "--peer", "127.0.0.1:1", "--network", "regtest", "--address", addr)
	if code != exitFailure || !strings.Contains(stderr, "chainsieve btc scan: ") || !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("run(a closed port) = %d, stderr %q; want %d and the dial error", code, stderr, exitFailure)
	}
}

// TestBTCScanDefaultStore: without --store the store is the user cache
// directory's chainsieve/btc/NETWORK when the environment names one
// (os.UserCacheDir), in memory when it names none.
func TestBTCScanDefaultStore(t *testing.T) {
	args := []string{"--peer", "127.0.0.1:1", "--network", "testnet4", "--address", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"}
	for _, tt := range []struct {
		env  map[string]string
		want func() string
	}{
		{map[string]string{"HOME": "/home/someone"}, func() string { d, _ := store.DefaultDir("testnet4"); return d }},
		{nil, func() string { return "" }},
	} {
		e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string { return tt.env[k] }}
		f, code, ok := parseBTCScanFlags(e, args)
		if !ok {
			t.Fatalf("environment %v: exit %d", tt.env, code)
		}
		if f.storeDir != tt.want() {
			t.Errorf("environment %v: store %q, want %q", tt.env, f.storeDir, tt.want())
		}
	}
}

// TestBTCScanLockedStore: a store another process holds is a failure
// (exit 1) that names the holder, before any network work.
func TestBTCScanLockedStore(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stats := filepath.Join(t.TempDir(), "stats.json")
	code, _, stderr := runCLI(t, "btc", "scan", "--store", dir, "--peer", "127.0.0.1:1", "--network", "regtest",
		"--address", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", "--stats", stats)
	want := fmt.Sprintf("is held by \"pid %d since ", os.Getpid())
	if code != exitFailure || !strings.Contains(stderr, "--store "+dir) || !strings.Contains(stderr, want) {
		t.Errorf("run(a locked store) = %d, stderr %q; want %d and %q", code, stderr, exitFailure, want)
	}
	if st := readStats(t, stats); !strings.Contains(st.Error, want) || st.BytesReceived != 0 {
		t.Errorf("--stats of the failed run: %+v, want the error and no traffic", st)
	}
}

// TestBTCScanNode runs both modes against one btcd and checks the --json
// output (transactions, then the wallet's utxo and balance records) and
// the --stats file against the scenario's wallet.
func TestBTCScanNode(t *testing.T) {
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	args := []string{"btc", "scan", "--peer", sc.Node.P2PAddr, "--network", "regtest"}
	for _, a := range sc.Addresses() {
		args = append(args, "--address", a.String())
	}
	for _, mode := range []string{"bip157", "bip37"} {
		t.Run(mode, func(t *testing.T) {
			stats, dir := filepath.Join(t.TempDir(), "stats.json"), t.TempDir()
			code, stdout, stderr := runCLI(t, append(args, "--store", dir, "--mode", mode, "--json", "--stats", stats)...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := parseBTCJSON(t, stdout)
			checkJSONTxs(t, sc, out.txs, 0)
			checkWallet(t, out, sc.Node, scenarioScripts(sc), sc.Tip, true)
			st := readStats(t, stats)
			if st.Mode != mode || st.BlocksScanned != int(sc.Tip)+1 || st.WalletTransactions != len(sc.Want(0, sc.Tip)) ||
				st.BytesReceived == 0 || st.BytesSent == 0 || st.RoundTrips < 2 || st.Error != "" || len(st.Peers) != 1 ||
				st.Peers[0].Address != sc.Node.P2PAddr || !strings.Contains(st.Peers[0].UserAgent, "btcd") || st.To != sc.Tip {
				t.Errorf("--stats %+v: want mode %s, %d blocks, %d wallet transactions, traffic counted, the btcd peer", st, mode, sc.Tip+1, len(sc.Want(0, sc.Tip)))
			}
			if b := st.BIP37; mode == "bip37" && (b == nil || b.FilterLoads != 1 || b.FilterCapacity != bip37.CapacityStep ||
				b.FilterTweak == 0 || b.Transactions < st.BlocksScanned || b.FilterRate > b.FPRate) {
				t.Errorf("--stats bip37 %+v: want one load of capacity %d, a tweak, the blocks' transactions, the rate under the target", b, bip37.CapacityStep)
			}
			if !strings.Contains(stderr, "btc scan: "+mode+" on regtest via "+sc.Node.P2PAddr) || !strings.Contains(stderr, "wallet at block") {
				t.Errorf("summary on stderr = %q", stderr)
			}
			t.Logf("%s", stderr)

			// From after the wallet was paid, with its coins: the spends.
			from := sc.Received + 1
			ranged := append(args, "--store", t.TempDir(), "--mode", mode, "--birthday", fmt.Sprint(from), "--json")
			for _, op := range sc.Coins {
				ranged = append(ranged, "--outpoint", op.String())
			}
			if code, stdout, stderr = runCLI(t, ranged...); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			checkJSONTxs(t, sc, parseBTCJSON(t, stdout).txs, from)

			// Text: one line per transaction, nothing else on stdout.
			_, stdout, _ = runCLI(t, append(args, "--store", t.TempDir(), "--mode", mode)...)
			if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != len(sc.Want(0, sc.Tip)) {
				t.Errorf("text output has %d lines, want %d:\n%s", len(lines), len(sc.Want(0, sc.Tip)), stdout)
			}
		})
	}
	t.Run("confirmations", func(t *testing.T) {
		// Bitcoin Core's count: 4 confirmations is a block and 3 on top,
		// so blocks to Tip-3 are printed; the ledger holds the rest, whose
		// coins count as shallow.
		last := sc.Want(0, sc.Tip)[len(sc.Want(0, sc.Tip))-1].Height
		conf := sc.Tip - last + 2 // the last wallet transaction is one block short
		code, stdout, stderr := runCLI(t, append(args, "--store", t.TempDir(), "--json", "--confirmations", fmt.Sprint(conf))...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		out := parseBTCJSON(t, stdout)
		if want := len(sc.Want(0, last-1)); len(out.txs) != want {
			t.Errorf("--confirmations %d printed %d transactions, want %d (to block %d)", conf, len(out.txs), want, last-1)
		}
		checkWallet(t, out, sc.Node, scenarioScripts(sc), sc.Tip, true)
		var shallow int64
		for _, u := range out.utxos {
			if u.Confirmations < conf {
				shallow += u.Value
			}
		}
		if b := out.balance; b.MinConf != conf || shallow == 0 || b.Shallow != shallow {
			t.Errorf("balance %+v: want minConf %d, %d sat shallow", *b, conf, shallow)
		}
		if want := fmt.Sprintf("blocks 0 to %d,", sc.Tip-conf+1); !strings.Contains(stderr, want) {
			t.Errorf("summary lacks %q:\n%s", want, stderr)
		}
	})
	t.Run("stdout fails", func(t *testing.T) {
		var stderr bytes.Buffer
		code := run(context.Background(), append(args, "--store", t.TempDir(), "--json"), strings.NewReader(""), failingWriter{}, &stderr)
		if code != exitFailure || !strings.Contains(stderr.String(), "chainsieve btc scan: stdout: ") || strings.Contains(stderr.String(), "wallet at") {
			t.Errorf("exit %d, stderr %q; want %d, the write error, no wallet summary", code, stderr.String(), exitFailure)
		}
	})
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
		code, stdout, stderr := runCLI(t, append(args, "--store", t.TempDir(), "--checkpoint", cp, "--json")...)
		if code != exitOK {
			t.Fatalf("--checkpoint %s: exit %d: %s", cp, code, stderr)
		}
		checkJSONTxs(t, sc, parseBTCJSON(t, stdout).txs, 0)
	})
	t.Run("wrong checkpoint", func(t *testing.T) {
		code, _, stderr := runCLI(t, append(args, "--store", t.TempDir(), "--checkpoint", "3:"+strings.Repeat("11", 32))...)
		if code != exitFailure || !strings.Contains(stderr, "checkpoint") {
			t.Errorf("exit %d, stderr %q; want %d and the checkpoint mismatch", code, stderr, exitFailure)
		}
	})
}

// failingWriter is a stdout that is gone (a closed pipe).
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// checkJSONTxs compares the --json transactions with the wallet's from
// height from on.
func checkJSONTxs(t *testing.T, sc *spvtest.Scenario, txs []btcTxJSON, from int32) {
	t.Helper()
	want := sc.Want(from, sc.Tip)
	if len(txs) != len(want) {
		t.Fatalf("%d JSON transactions, want %d: %+v", len(txs), len(want), txs)
	}
	for i, got := range txs {
		w := want[i]
		if got.TxID != w.ID.String() || got.Height != w.Height || got.BlockHash != w.Block.String() || got.Removed {
			t.Errorf("line %d = %s at %d in %s (removed %v), want %s at %d in %s", i, got.TxID, got.Height, got.BlockHash, got.Removed, w.ID, w.Height, w.Block)
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
	got := btcProgress(10, 14, 19)
	if want := "block 14 of 10..19 [###############...............]  50%"; got != want {
		t.Errorf("btcProgress(14 of 10..19) = %q, want %q", got, want)
	}
}
