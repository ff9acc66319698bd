package livenode

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
)

const (
	btcdName = "btcd"
	// BtcdVersion is the btcd release [StartBtcd] installs and runs.
	BtcdVersion = "v0.26.2"
	btcdPkg     = "github.com/btcsuite/btcd"

	// startTimeout bounds how long a node may take to answer RPC.
	startTimeout = 60 * time.Second
	// rpcUser and rpcPass guard the RPC servers on loopback.
	rpcUser, rpcPass = "livenode", "livenode"
)

var (
	btcdRPCLine = regexp.MustCompile(`RPC server listening on (\S+)`)
	btcdP2PLine = regexp.MustCompile(`CMGR: Server listening on (\S+)`)
)

// StartBtcd installs btcd (see [GoInstall]) and starts it in regtest with
// its own data directory, P2P and RPC on ports of 127.0.0.1 the kernel
// picks (read back from its log), plain-HTTP RPC, no DNS seeds, the
// transaction index on, and a small UTXO cache (the default pre-allocates
// 250 MiB and takes a second). [Node.Generate] pays mining. args are
// appended to the command line, for example "--nobanning" for tests that
// misbehave on purpose: btcd bans 127.0.0.1 otherwise.
//
// It fails the test if btcd does not answer RPC within a minute, and stops
// btcd when the test ends. It skips the test under -short.
func StartBtcd(t testing.TB, mining address.Address, args ...string) *Node {
	t.Helper()
	skipShort(t)
	script, err := miningScript(mining)
	if err != nil {
		t.Fatal(err)
	}
	bin := install(t, btcdName, BtcdVersion, btcdPkg)
	dir := t.TempDir()
	argv := append([]string{
		"--regtest",
		"--datadir=" + filepath.Join(dir, "data"),
		"--logdir=" + filepath.Join(dir, "logs"),
		"--listen=" + loopback + ":0",
		"--rpclisten=" + loopback + ":0",
		"--rpcuser=" + rpcUser,
		"--rpcpass=" + rpcPass,
		"--notls",
		"--nodnsseed",
		"--txindex",
		"--utxocachemaxsize=16",
		"--miningaddr=" + mining.EncodeAddress(),
	}, args...)
	p, err := startProcess(dir, btcdName, bin, argv...)
	if err != nil {
		t.Fatal(err)
	}
	p.stopOnCleanup(t)
	n, err := waitBtcd(t.Context(), p, dir)
	if err != nil {
		t.Fatal(err)
	}
	n.mining = script
	return n
}

// waitBtcd reads btcd's listening addresses from its log and waits until
// its RPC server answers.
func waitBtcd(ctx context.Context, p *process, dir string) (*Node, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	rpcLine, err := p.waitFor(ctx, btcdRPCLine)
	if err != nil {
		return nil, err
	}
	p2pLine, err := p.waitFor(ctx, btcdP2PLine)
	if err != nil {
		return nil, err
	}
	if err := checkLoopback(p2pLine[1]); err != nil {
		return nil, err
	}
	rpc, err := newRPC(rpcLine[1], rpcUser, rpcPass, "1.0")
	if err != nil {
		return nil, err
	}
	p.rpc = rpc
	if err := waitRPC(ctx, p, rpc, "getblockcount"); err != nil {
		return nil, err
	}
	return &Node{Name: btcdName, RPC: rpc, P2PAddr: p2pLine[1], Dir: dir, proc: p}, nil
}

// install runs [GoInstall] for one package under the install timeout and
// returns its binary, failing the test otherwise.
func install(t testing.TB, name, version, pkg string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), installTimeout)
	defer cancel()
	start := time.Now()
	dir, err := GoInstall(ctx, name, version, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Logf("livenode: installing %s %s took %v (cached in %s)", name, version, d.Round(time.Second), dir)
	}
	return filepath.Join(dir, binaryName(pkg))
}

// installTimeout bounds one install; geth takes about two minutes cold.
const installTimeout = 8 * time.Minute

// waitRPC polls method, a cheap call without parameters, until the node
// answers, exits, or ctx ends. Nodes refuse connections or answer
// "warming up" before that.
func waitRPC(ctx context.Context, p *process, rpc *RPC, method string) error {
	for {
		err := rpc.Call(ctx, nil, method)
		if err == nil {
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("livenode: %s exited during startup: %v", p.name, p.err)
		case <-ctx.Done():
			return fmt.Errorf("livenode: %s did not answer RPC: %v", p.name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
