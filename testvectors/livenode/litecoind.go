package livenode

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/btcsuite/btcd/address/v2"
)

const (
	litecoindName = "litecoind"
	// RequireLitecoindEnv names an environment variable that, when set to
	// a non-empty value, makes a missing litecoind fail the test instead
	// of skipping it (for CI, which installs it).
	RequireLitecoindEnv = "CHAINSIEVE_REQUIRE_LITECOIND"
	// startAttempts bounds retries after losing a race for a free port.
	startAttempts = 3
)

// StartLitecoind starts litecoind (Litecoin Core 0.21, a Bitcoin Core code
// base: BIP37 and BIP157/158 served the Core way, with a wallet) in
// regtest on free ports of 127.0.0.1 with bloom filters, the basic block
// filter index, compact filters over P2P and the transaction index on, and
// no outbound connections, DNS seeds, discovery, UPnP or Tor. args are
// appended to the command line. [Node.Generate] pays mining with a raw()
// descriptor, so any address type works although Litecoin encodes segwit
// addresses differently (P2PKH strings are the same as Bitcoin's regtest).
// Its wallet starts empty: call createwallet before wallet RPCs. Keep its
// chain under about 430 blocks, where Litecoin's MWEB extension blocks
// could activate and change the block format.
//
// litecoind comes from the system packages (.ci/run installs it). If it is
// not on PATH the test is skipped, or fails when [RequireLitecoindEnv] is
// set. It skips the test under -short.
func StartLitecoind(t testing.TB, mining address.Address, args ...string) *Node {
	t.Helper()
	skipShort(t)
	bin, err := exec.LookPath(litecoindName)
	if err != nil {
		msg := "livenode: litecoind is not on PATH; .ci/run installs it with apt-get; " +
			"on other machines: apt-get install -y --no-install-recommends litecoind"
		if os.Getenv(RequireLitecoindEnv) != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	script, err := miningScript(mining)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for try := 1; ; try++ {
		n, err := startLitecoind(t, bin, filepath.Join(dir, strconv.Itoa(try)), args)
		if err == nil {
			n.mining = script
			return n
		}
		if try == startAttempts {
			t.Fatalf("livenode: litecoind failed to start %d times, last: %v", try, err)
		}
		t.Logf("livenode: litecoind attempt %d: %v", try, err)
	}
}

// startLitecoind makes one attempt on fresh ports in dir. On success the
// node is stopped when the test ends; on failure it is stopped at once.
func startLitecoind(t testing.TB, bin, dir string, args []string) (*Node, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	p2p, err1 := freePort()
	rpcPort, err2 := freePort()
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("%v %v", err1, err2)
	}
	p2pAddr := fmt.Sprintf("%s:%d", loopback, p2p)
	rpcAddr := fmt.Sprintf("%s:%d", loopback, rpcPort)
	argv := append([]string{
		"-regtest", "-datadir=" + dir, "-conf=/dev/null", "-printtoconsole=1",
		"-bind=" + p2pAddr, "-rpcbind=" + rpcAddr, "-rpcallowip=" + loopback,
		"-rpcuser=" + rpcUser, "-rpcpassword=" + rpcPass, "-server=1",
		"-listen=1", "-connect=0", "-dnsseed=0", "-discover=0", "-listenonion=0", "-upnp=0",
		"-peerbloomfilters=1", "-blockfilterindex=1", "-peerblockfilters=1",
		"-txindex=1", "-fallbackfee=0.0001",
	}, args...)
	p, err := startProcess(dir, litecoindName, bin, argv...)
	if err != nil {
		return nil, err
	}
	rpc, err := newRPC(rpcAddr, rpcUser, rpcPass, "1.0")
	if err == nil {
		ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
		err = waitRPC(ctx, p, rpc, "getblockcount")
		cancel()
	}
	if err != nil {
		p.stop(stopTimeout)
		return nil, fmt.Errorf("%v\n%s", err, p.tail(20))
	}
	p.rpc = rpc
	p.stopOnCleanup(t)
	return &Node{Name: litecoindName, RPC: rpc, P2PAddr: p2pAddr, Dir: dir, proc: p}, nil
}
