package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// btcJSONOutput is btc scan --json output split into its records.
type btcJSONOutput struct {
	txs     []btcTxJSON // in the order printed
	utxos   []btcUTXOJSON
	balance *btcBalanceJSON
}

// parseBTCJSON reads btc scan --json output strictly: every line one
// object, transactions (no "type"), then "utxo" records, then exactly one
// "balance" record, last.
func parseBTCJSON(t *testing.T, stdout string) btcJSONOutput {
	t.Helper()
	var out btcJSONOutput
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if out.balance != nil {
			t.Fatalf("line %d after the balance record: %s", i, line)
		}
		var kind struct {
			Type *string `json:"type"`
		}
		if err := json.Unmarshal([]byte(line), &kind); err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var err error
		switch {
		case kind.Type == nil && len(out.utxos) == 0:
			var tx btcTxJSON
			err = dec.Decode(&tx)
			out.txs = append(out.txs, tx)
		case kind.Type != nil && *kind.Type == "utxo":
			var u btcUTXOJSON
			err = dec.Decode(&u)
			out.utxos = append(out.utxos, u)
		case kind.Type != nil && *kind.Type == "balance":
			out.balance = new(btcBalanceJSON)
			err = dec.Decode(out.balance)
		default:
			t.Fatalf("line %d is out of place: %s", i, line)
		}
		if err != nil {
			t.Fatalf("line %d %q: %v", i, line, err)
		}
	}
	if out.balance == nil {
		t.Fatalf("no balance record in\n%s", stdout)
	}
	return out
}

// scenarioScripts returns the scenario wallet's output scripts.
func scenarioScripts(sc *spvtest.Scenario) map[string]bool {
	owned := make(map[string]bool)
	for _, a := range sc.Addresses() {
		owned[string(a.Script)] = true
	}
	return owned
}

// checkWallet compares the confirmed utxo records with the coins n's
// chain leaves the owned scripts (gettxout), and the balance record with
// their sum at tip. settled: no record may be unconfirmed or spent by an
// unconfirmed transaction.
func checkWallet(t *testing.T, out btcJSONOutput, n *livenode.Node, owned map[string]bool, tip int32, settled bool) {
	t.Helper()
	want := spvtest.Unspent(t, n, owned)
	got := make(map[wire.OutPoint]int64)
	var sum int64
	for _, u := range out.utxos {
		if u.Address == "" || (settled && (u.Height < 0 || u.SpentBy != "")) {
			t.Errorf("utxo %+v: want one with its address, confirmed, unspent", u)
		}
		if u.Height < 0 {
			continue
		}
		id, err := chainhash.NewHashFromStr(u.TxID)
		if err != nil {
			t.Fatal(err)
		}
		got[wire.OutPoint{Hash: *id, Index: u.Index}] = u.Value
		if u.Confirmations != tip-u.Height+1 {
			t.Errorf("utxo %+v: want %d confirmations at tip %d", u, tip-u.Height+1, tip)
		}
		sum += u.Value
	}
	if !maps.Equal(got, want) {
		t.Errorf("utxo records %v, the node's chain leaves %v", got, want)
	}
	b := out.balance
	if b.Height != tip || b.UTXOs != len(out.utxos) || b.Confirmed+b.Shallow+b.Immature != sum || settled && b.Incoming+b.Outgoing != 0 {
		t.Errorf("balance %+v: want at %d, %d coins, %d sat confirmed", *b, tip, len(out.utxos), sum)
	}
	t.Logf("%d coins as the node has them; balance %+v", len(want), *b)
}

// syncBuffer is a buffer written by a running command and read by the
// test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cliRun is a command running in the background, as a user's terminal
// session would, until it is interrupted (Ctrl-C cancels run's context).
type cliRun struct {
	stdout, stderr syncBuffer
	cancel         context.CancelFunc
	code           chan int
}

func startCLI(t *testing.T, args ...string) *cliRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &cliRun{cancel: cancel, code: make(chan int, 1)}
	go func() { r.code <- run(ctx, args, strings.NewReader(""), &r.stdout, &r.stderr) }()
	t.Cleanup(func() { r.interrupt(t) })
	return r
}

// waitFor waits up to 60 s until stderr holds text, failing the test
// otherwise or if the command ended.
func (r *cliRun) waitFor(t *testing.T, text string) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); !strings.Contains(r.stderr.String(), text); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-r.code:
			r.code <- code
			t.Fatalf("the command ended (exit %d) before stderr held %q:\n%s", code, text, r.stderr.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("stderr does not hold %q after 60 s:\n%s", text, r.stderr.String())
		}
	}
}

// interrupt cancels the command and returns its exit code.
func (r *cliRun) interrupt(t *testing.T) int {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.code:
		r.code <- code
		return code
	case <-time.After(60 * time.Second):
		t.Fatalf("the command did not end within 60 s of the interrupt")
		return -1
	}
}
