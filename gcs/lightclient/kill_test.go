package lightclient

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// The child process of TestKillRestart reads its store directory, peers
// and wallet addresses from these.
const (
	childStore = "CHAINSIEVE_CLIENT_STORE"
	childPeers = "CHAINSIEVE_CLIENT_PEERS"
	childAddrs = "CHAINSIEVE_CLIENT_ADDRS"
)

// TestKillRestart kills, with SIGKILL at random instants, a child process
// whose client scans the scenario plus 3,000 blocks from two linked btcd
// nodes into a store. After each kill the store opens and checks record
// by record and holds a prefix of an uninterrupted run's; a client
// started again on it reports exactly the wallet's transactions and
// leaves files identical, byte for byte, to the uninterrupted run's. A
// run on the finished store then receives one empty headers message per
// peer and no filter headers.
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
	tip, err := sc.Node.BlockCount(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	ref := filepath.Join(t.TempDir(), "reference")
	restart(t, sc, ref, peers, tip)
	began := time.Now()
	if out, err := killCmd(filepath.Join(t.TempDir(), "timed"), peers, addrs(sc)).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run in a child process: %v\n%s", err, out)
	}
	full := time.Since(began)
	t.Logf("uninterrupted run of %d blocks in a child process: %v", tip+1, full)

	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 2))
	t.Logf("seed %d", seed)
	killed := 0
	for i := 0; killed < 10 && i < 40; i++ {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		cmd := killCmd(dir, peers, addrs(sc))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		after := time.Duration(r.Int64N(int64(full)))
		time.Sleep(after)
		cmd.Process.Kill()
		if cmd.Wait() == nil {
			continue // it ended before the signal: not a trial
		}
		killed++
		st := spvtest.CheckStore(t, dir, ref)
		t.Logf("kill %d after %v: store holds headers to %d, filter headers to %d", killed, after.Round(time.Millisecond), st.Tip, st.FilterTip)
		restart(t, sc, dir, peers, tip)
		spvtest.SameFiles(t, dir, ref)
	}
	if killed < 10 {
		t.Errorf("only %d kills landed during the run", killed)
	}
	st := restart(t, sc, ref, peers, tip)
	if h := st.Traffic.Received["headers"]; h.Messages != 2 || h.Bytes != 2*25 || st.Traffic.Received["cfheaders"].Messages != 0 {
		t.Errorf("run on a finished store: %+v of headers, %d cfheaders; want one empty message (25 bytes) a peer, none",
			h, st.Traffic.Received["cfheaders"].Messages)
	}
	t.Logf("run on the finished store: %d B of headers, %d B received in all (the filters of %d blocks)", st.Traffic.Received["headers"].Bytes, st.Traffic.BytesReceived, tip+1)
}

// restart runs a client on the store in dir to the end and checks that it
// reports exactly the wallet's transactions.
func restart(t *testing.T, sc *spvtest.Scenario, dir string, peers []string, tip int32) Stats {
	t.Helper()
	c := start(t, Config{Network: sc.Network, Peers: peers, Addresses: addrs(sc), Store: dir, Timeout: nodeTimeout})
	evs := collect(t, c, -1)
	if err := c.Stop(); err != nil {
		t.Fatalf("client on %s: %v", dir, err)
	}
	sc.Check(t, found(t, evs), 0, tip)
	return c.Stats()
}

// killCmd returns the command that runs killChild in this test binary.
func killCmd(dir string, peers []string, as []address.Address) *exec.Cmd {
	var enc []string
	for _, a := range as {
		enc = append(enc, a.EncodeAddress())
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillRestart$", "-test.count=1")
	cmd.Env = append(os.Environ(), childStore+"="+dir, childPeers+"="+strings.Join(peers, ","), childAddrs+"="+strings.Join(enc, ","))
	return cmd
}

// killChild is the child process: a client scanning into dir.
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
	c, err := New(Config{Network: spv.Regtest, Peers: strings.Split(os.Getenv(childPeers), ","), Addresses: as, Store: dir, Timeout: nodeTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range c.Events() {
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
}
