package lightclient

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// The child process of TestKillRestart reads its store directory, peers,
// wallet addresses and mode from these.
const (
	childStore  = "CHAINSIEVE_CLIENT_STORE"
	childPeers  = "CHAINSIEVE_CLIENT_PEERS"
	childAddrs  = "CHAINSIEVE_CLIENT_ADDRS"
	childFollow = "CHAINSIEVE_CLIENT_FOLLOW"
)

// rec is an event as the child prints it and the test compares it.
type rec struct {
	kind   EventKind
	height int32
	hash   chainhash.Hash
	txs    string // txids, comma-separated
}

func (r rec) String() string { return fmt.Sprintf("%v %d %s %s", r.kind, r.height, r.hash, r.txs) }

func recOf(ev Event) rec {
	var ids []string
	for _, tx := range ev.Txs {
		ids = append(ids, tx.ID.String())
	}
	return rec{ev.Kind, ev.Height, ev.Hash, strings.Join(ids, ",")}
}

// data returns the Connected and Disconnected events of evs.
func data(evs []Event) []rec {
	var out []rec
	for _, ev := range evs {
		if ev.Kind != Synced {
			out = append(out, recOf(ev))
		}
	}
	return out
}

// TestKillRestart kills with SIGKILL, at random instants, a child process
// (this test binary again) whose client scans the scenario and 3,000
// blocks more from two linked btcd nodes into a store, printing each
// event it takes on stdout as it handles it; then, from a store already
// synced, children that follow the tip while the test mines blocks. After
// each of the 10 + 10 kills: the store opens and checks record by record,
// its headers a prefix of an uninterrupted run's; the wallet's kept state
// covers only events the child printed; a client started again on it
// reports exactly the events after that state, so that the child's events
// and the restart's are the uninterrupted run's, each once but the crash
// window (the events after the last state kept, reported again in the
// same order); its coins are those the node's chain leaves the wallet
// (gettxout on each); and its header and filter-header files end up
// identical, byte for byte, to an uninterrupted run's. A run on a
// finished store then receives one empty headers message a peer, and no
// filter header, filter or block.
func TestKillRestart(t *testing.T) {
	if dir := os.Getenv(childStore); dir != "" {
		killChild(t, dir)
		return
	}
	sc := spvtest.NewScenario(t, livenode.StartBtcd, spvtest.Options{Filler: 6, FillerOutputs: 3})
	for range 2 {
		if _, err := sc.Node.Generate(t.Context(), 1500); err != nil {
			t.Fatal(err)
		}
	}
	other := addNode(t, sc, livenode.StartBtcd)
	peers := []string{sc.Node.P2PAddr, other.P2PAddr}
	k := &killTrials{t: t, sc: sc, peers: peers, other: other}
	k.tip = k.nodeTip()

	ref := filepath.Join(t.TempDir(), "reference")
	refClient, refEvs := k.restart(ref)
	k.ref, k.refCoins = data(refEvs), refClient.Unspent()
	checkUTXOs(t, refClient, sc.Node)
	began := time.Now()
	if out, err := k.cmd(filepath.Join(t.TempDir(), "timed"), false).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run in a child process: %v\n%s", err, out)
	}
	full := time.Since(began)
	t.Logf("uninterrupted run of %d blocks in a child process: %v", k.tip+1, full)

	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 2))
	t.Logf("seed %d", seed)
	for i := 0; k.kills < 10 && i < 40; i++ {
		dir := filepath.Join(t.TempDir(), "scan"+strconv.Itoa(i))
		if k.trial(dir, false, time.Duration(r.Int64N(int64(full))), nil) {
			spvtest.SameFiles(t, dir, ref)
		}
	}
	if k.kills < 10 {
		t.Errorf("only %d kills landed during the scan", k.kills)
	}

	// Following: a reference client follows the tip throughout, and each
	// child starts from a copy of a store synced to the tip.
	follower := start(t, Config{Network: sc.Network, Peers: peers, Addresses: addrs(sc), Follow: true, Timeout: nodeTimeout})
	k.follower = follower
	k.ref = data(collect(t, follower, k.tip))
	synced := ref
	scans := k.kills
	for i := 0; k.kills < scans+10 && i < 40; i++ {
		dir := filepath.Join(t.TempDir(), "follow"+strconv.Itoa(i))
		copyStore(t, synced, dir)
		if k.trial(dir, true, time.Duration(r.Int64N(int64(1500*time.Millisecond))), func() { k.mine(r, 12) }) {
			synced = dir
		}
	}
	if k.kills < scans+10 {
		t.Errorf("only %d kills landed while following", k.kills-scans)
	}
	_, evs := k.restart(ref)
	if got, want := data(evs), k.ref[len(k.ref)-len(data(evs)):]; !slices.Equal(got, want) {
		t.Errorf("the reference store brought to the tip reports %d events, not the follower's last %d", len(got), len(want))
	}
	for _, dir := range k.followDirs {
		k.restart(dir)
		spvtest.SameFiles(t, dir, ref)
	}
	c, _ := k.restart(ref)
	checkUTXOs(t, c, sc.Node) // gettxout on each
	st := c.Stats()
	recv := st.Traffic.Received
	if h := recv["headers"]; h.Messages != 2 || h.Bytes != 2*25 || recv["cfheaders"].Messages+recv["cfilter"].Messages+recv["block"].Messages != 0 {
		t.Errorf("run on a finished store: %+v of headers, %d cfheaders, %d filters, %d blocks; want one empty message (25 bytes) a peer, none",
			h, recv["cfheaders"].Messages, recv["cfilter"].Messages, recv["block"].Messages)
	}
	t.Logf("%d kills (%d while following), %d events reported again in all; run on the finished store: %d B of headers, %d B received in all",
		k.kills, k.kills-scans, k.again, recv["headers"].Bytes, st.Traffic.BytesReceived)
}

// killTrials is the state of TestKillRestart.
type killTrials struct {
	t          *testing.T
	sc         *spvtest.Scenario
	other      *livenode.Node
	peers      []string
	tip        int32
	ref        []rec // the uninterrupted run's events, to the tip
	refCoins   []wallet.Coin
	follower   *Client // the reference in follow mode
	kills      int
	again      int      // events reported twice, in all
	followDirs []string // stores of the follow trials
}

func (k *killTrials) nodeTip() int32 {
	tip, err := k.sc.Node.BlockCount(k.t.Context())
	if err != nil {
		k.t.Fatal(err)
	}
	return tip
}

// mine mines n blocks, one at a time, with pauses.
func (k *killTrials) mine(r *rand.Rand, n int) {
	for range n {
		if _, err := k.sc.Node.Generate(k.t.Context(), 1); err != nil {
			k.t.Error(err)
			return
		}
		time.Sleep(time.Duration(50+r.IntN(100)) * time.Millisecond)
	}
}

// trial runs a child on dir and kills it after wait (once it has synced,
// in follow mode, while during runs), then checks the store, the events
// and the restart. It reports whether the kill landed.
func (k *killTrials) trial(dir string, follow bool, wait time.Duration, during func()) bool {
	t := k.t
	before := keptReported(t, dir, k.walletFile(), 0)
	cmd := k.cmd(dir, follow)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan rec, 1<<14)
	synced := make(chan struct{})
	go readRecs(out, lines, synced)
	var mining sync.WaitGroup
	if follow {
		select {
		case <-synced:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("the following child did not sync within 60 s")
		}
		mining.Go(during)
	}
	time.Sleep(wait)
	cmd.Process.Kill()
	landed := cmd.Wait() != nil
	mining.Wait()
	var handled []rec
	for r := range lines {
		if r.kind != Synced {
			handled = append(handled, r)
		}
	}
	if !landed {
		return false // it ended before the signal: not a trial
	}
	k.kills++
	k.tip = k.nodeTip()
	waitTip(t, k.tip, k.sc.Node, k.other)
	if follow {
		k.ref = append(k.ref, data(collect(t, k.follower, k.tip))...)
		k.followDirs = append(k.followDirs, dir)
	}
	st := spvtest.CheckStore(t, dir, "")
	kept := keptReported(t, dir, k.walletFile(), 0)
	if last := before; len(handled) > 0 && kept > max(last, handled[len(handled)-1].height) || len(handled) == 0 && kept > before {
		t.Fatalf("kill %d: the store keeps the wallet's state to block %d, but the child started at %d and handled events to %v only",
			k.kills, kept, before, last1(handled))
	}
	c, evs := k.restart(dir)
	again := data(evs)
	// The child's events, then the restart's from the state kept on: the
	// uninterrupted run's, those after the state kept reported twice.
	first := slices.IndexFunc(handled, func(r rec) bool { return r.height > kept })
	if first < 0 {
		first = len(handled)
	}
	window := handled[first:]
	combined := append(slices.Clone(handled[:first]), again...)
	start := len(k.ref)
	if len(combined) > 0 {
		start = slices.IndexFunc(k.ref, func(r rec) bool { return r.height == combined[0].height && r.kind == Connected })
	}
	if start < 0 || start != int(before)+1 || !slices.Equal(combined, k.ref[start:]) || !slices.Equal(window, again[:min(len(window), len(again))]) {
		t.Fatalf("kill %d: the child handled %d events (%v … %v), the state kept is at %d, the restart reported %d (%v …);\nnot the uninterrupted run's %d",
			k.kills, len(handled), first3(handled), last1(handled), kept, len(again), first3(again), len(k.ref))
	}
	if len(window) > saveEvents+DefaultEvents {
		t.Errorf("kill %d: %d events reported again, more than %d and the queue", k.kills, len(window), saveEvents)
	}
	k.again += len(window)
	if got, want := c.Unspent(), k.coins(); fmt.Sprint(got) != fmt.Sprint(want) || len(want) == 0 {
		t.Errorf("kill %d: the restarted client's coins %v, the uninterrupted run's %v", k.kills, got, want)
	}
	t.Logf("kill %d after %v (%s): store headers to %d, filter headers to %d; child printed %d events, state kept to %d, %d reported again, restart reported %d",
		k.kills, wait.Round(time.Millisecond), map[bool]string{true: "following", false: "scanning"}[follow], st.Tip, st.FilterTip, len(handled), kept, len(window), len(again))
	return true
}

func first3(rs []rec) []rec { return rs[:min(3, len(rs))] }
func last1(rs []rec) []rec  { return rs[max(len(rs)-1, 0):] }

// coins returns the coins of the uninterrupted run: the reference run's,
// or while following the follower's.
func (k *killTrials) coins() []wallet.Coin {
	if k.follower != nil {
		return k.follower.Unspent()
	}
	return k.refCoins
}

// walletFile is the name of the wallet's file in the trials' stores.
func (k *killTrials) walletFile() string {
	cfg := Config{Network: k.sc.Network, Peers: k.peers, Addresses: addrs(k.sc)}
	cfg.check()
	return walletName(&cfg)
}

// restart runs a client on the store in dir to the tip and returns it,
// stopped, and its events.
func (k *killTrials) restart(dir string) (*Client, []Event) {
	t := k.t
	t.Helper()
	c := start(t, Config{Network: k.sc.Network, Peers: k.peers, Addresses: addrs(k.sc), Store: dir, Timeout: nodeTimeout})
	evs := collect(t, c, -1)
	if err := c.Stop(); err != nil {
		t.Fatalf("client on %s: %v", dir, err)
	}
	return c, evs
}

// cmd returns the command that runs killChild in this test binary.
func (k *killTrials) cmd(dir string, follow bool) *exec.Cmd {
	var enc []string
	for _, a := range addrs(k.sc) {
		enc = append(enc, a.EncodeAddress())
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillRestart$", "-test.count=1")
	cmd.Env = append(os.Environ(), childStore+"="+dir, childPeers+"="+strings.Join(k.peers, ","), childAddrs+"="+strings.Join(enc, ","),
		childFollow+"="+strconv.FormatBool(follow))
	return cmd
}

// readRecs parses the child's event lines into lines, closing synced at
// the first Synced event, and lines at the end of out.
func readRecs(out io.Reader, lines chan<- rec, synced chan<- struct{}) {
	defer close(lines)
	s := bufio.NewScanner(out)
	s.Buffer(nil, 1<<20)
	closed := false
	for s.Scan() {
		f := strings.Fields(s.Text())
		if len(f) < 4 || f[0] != "ev" {
			continue // the test framework's lines
		}
		kind, _ := strconv.Atoi(f[1])
		h, _ := strconv.Atoi(f[2])
		hash, err := chainhash.NewHashFromStr(f[3])
		if err != nil {
			continue
		}
		r := rec{kind: EventKind(kind), height: int32(h), hash: *hash}
		if len(f) > 4 {
			r.txs = f[4]
		}
		if r.kind == Synced && !closed {
			close(synced)
			closed = true
		}
		lines <- r
	}
}

// killChild is the child process: a client scanning into dir (following
// the tip if asked), printing each event as it handles it.
func killChild(t *testing.T, dir string) {
	var as []address.Address
	for _, s := range strings.Split(os.Getenv(childAddrs), ",") {
		a, err := spv.Regtest.ParseAddress(s)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := New(Config{Network: spv.Regtest, Peers: strings.Split(os.Getenv(childPeers), ","), Addresses: as, Store: dir, Timeout: nodeTimeout,
		Follow: os.Getenv(childFollow) == "true"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for ev := range c.Events() {
		r := recOf(ev)
		// One write a line, as the handling of the event: a pipe keeps
		// what was written when the writer is killed.
		fmt.Fprintf(os.Stdout, "ev %d %d %s %s\n", int(r.kind), r.height, r.hash, r.txs)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}

// copyStore copies the store files of from (not its lock) into a new
// directory to.
func copyStore(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "lock" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
