package spv_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/cfscan"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// killChild names the environment variables of a sync run in a child
// process: the store directory, the peer and the height to scan.
const (
	childDir  = "CHAINSIEVE_SYNC_DIR"
	childPeer = "CHAINSIEVE_SYNC_PEER"
	childTip  = "CHAINSIEVE_SYNC_TIP"
)

// TestKillDuringSync kills, with SIGKILL at random instants, a child
// process that syncs the headers and filter headers of a btcd regtest
// chain into a store, committing after every message. After each kill
// the store must open and check record by record, hold a prefix of the
// node's chain, and a rerun must finish with files identical, byte for
// byte, to an uninterrupted sync's. A sync at the tip then receives one
// empty headers message and no filter headers.
func TestKillDuringSync(t *testing.T) {
	if dir := os.Getenv(childDir); dir != "" {
		syncChild(t, dir)
		return
	}
	const blocks = 8000
	miner := livenode.NewWallet("kill miner", &chaincfg.RegressionNetParams)
	node := livenode.StartBtcd(t, miner.NewAddress(livenode.P2PKH).Address)
	ctx := t.Context()
	for range blocks / 2000 {
		if _, err := node.Generate(ctx, 2000); err != nil {
			t.Fatal(err)
		}
	}
	ref := filepath.Join(t.TempDir(), "reference")
	if out, err := child(ref, node.P2PAddr).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sync: %v\n%s", err, out)
	}
	refState := spvtest.CheckStore(t, ref, "")
	best, err := node.BestBlockHash(ctx)
	if err != nil || refState.Tip != blocks || refState.TipHash != best || refState.FilterTip != blocks {
		t.Fatalf("uninterrupted sync: tips %d %s, filters to %d; node %d %s (%v)", refState.Tip, refState.TipHash, refState.FilterTip, blocks, best, err)
	}
	_, header, err := node.BasicFilter(ctx, best)
	if err != nil || header != refState.TipFilter {
		t.Fatalf("filter header at the tip %s, node has %s (%v)", refState.TipFilter, header, err)
	}
	// The kills fall anywhere in a warm run, process start included.
	began := time.Now()
	if out, err := child(filepath.Join(t.TempDir(), "timed"), node.P2PAddr).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sync: %v\n%s", err, out)
	}
	full := time.Since(began)
	t.Logf("uninterrupted sync in a child process: %v", full)

	seed := uint64(time.Now().UnixNano())
	r := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	killed, finished := 0, 0
	for i := 0; killed < 12 && i < 40; i++ {
		dir := filepath.Join(t.TempDir(), strconv.Itoa(i))
		cmd := child(dir, node.P2PAddr)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		after := time.Duration(r.Int64N(int64(full)))
		time.Sleep(after)
		cmd.Process.Kill() // SIGKILL
		if cmd.Wait() == nil {
			finished++
			continue // it ended before the signal: not a trial
		}
		killed++
		st := spvtest.CheckStore(t, dir, ref)
		t.Logf("kill %d after %v: store holds %s", killed, after.Round(time.Millisecond), describe(st))
		if out, err := child(dir, node.P2PAddr).CombinedOutput(); err != nil {
			t.Fatalf("kill %d: rerun: %v\n%s", killed, err, out)
		}
		spvtest.SameFiles(t, dir, ref)
		if got := spvtest.CheckStore(t, dir, ref); got != refState {
			t.Errorf("kill %d: final state %+v, want %+v", killed, got, refState)
		}
	}
	t.Logf("%d processes killed mid-sync, %d ended before their signal", killed, finished)
	if killed < 10 {
		t.Errorf("only %d kills landed during the sync", killed)
	}
	again(t, ref, node.P2PAddr, blocks)
}

// child returns the command that runs syncChild in this test binary.
func child(dir, peer string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillDuringSync$", "-test.count=1")
	cmd.Env = append(os.Environ(), childDir+"="+dir, childPeer+"="+peer, childTip+"=8000")
	return cmd
}

// syncChild is the child process: it syncs into dir and scans the tip's
// block (so cfscan fetches the filter headers from genesis).
func syncChild(t *testing.T, dir string) {
	tip, _ := strconv.Atoi(os.Getenv(childTip))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := spv.OpenChain(spv.ChainConfig{Network: spv.Regtest, Store: st, CommitEvery: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := spv.Dial(ctx, os.Getenv(childPeer), spv.Config{Network: spv.Regtest, Services: wire.SFNodeCF})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	watch, _ := spv.NewWatch(nil, nil)
	_, err = cfscan.Run(ctx, cfscan.Config{Session: s, Chain: c, Watch: watch, From: int32(tip), To: -1,
		Emit: func(spv.Tx) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
}

// again syncs the reference store at the tip: one empty headers message
// and no filter headers may cross the wire.
func again(t *testing.T, dir, peer string, tip int32) {
	c := openChain(t, spv.ChainConfig{}, dir)
	defer c.Close()
	s, err := spv.Dial(t.Context(), peer, spv.Config{Network: spv.Regtest, Services: wire.SFNodeCF})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	watch, _ := spv.NewWatch(nil, nil)
	st, err := cfscan.Run(t.Context(), cfscan.Config{Session: s, Chain: c, Watch: watch, From: tip, To: -1,
		Emit: func(spv.Tx) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	headers := st.Traffic.Received["headers"]
	if headers.Messages != 1 || headers.Bytes != 25 || st.FilterHeaders != 0 || st.Traffic.Received["cfheaders"].Messages != 0 {
		t.Errorf("sync at the tip: %+v of headers, %d filter headers; want one empty message (25 bytes) and none", headers, st.FilterHeaders)
	}
	t.Logf("second run: %d bytes of headers in %d message, %d B received in all", headers.Bytes, headers.Messages, st.Traffic.BytesReceived)
}

// describe says how far a store's state reaches.
func describe(st store.State) string {
	switch {
	case st.TipHash == [32]byte{}:
		return "nothing (killed before the first commit)"
	case st.FilterTip < st.FilterBase:
		return fmt.Sprintf("headers to %d, no filter headers", st.Tip)
	}
	return fmt.Sprintf("headers to %d, filter headers to %d", st.Tip, st.FilterTip)
}
