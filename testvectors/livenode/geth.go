package livenode

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const (
	gethName = "geth"
	// GethVersion is the geth release [StartGeth] installs and runs:
	// v1.17.9 and later need a module the proxy here refuses.
	GethVersion = "v1.17.8"
	gethPkg     = "github.com/ethereum/go-ethereum/cmd/geth"
)

var (
	gethHTTPLine = regexp.MustCompile(`HTTP server started\s+endpoint=(\S+) auth=false`)
	gethWSLine   = regexp.MustCompile(`WebSocket enabled\s+url=(ws://\S+)`)
)

// Geth is a running geth --dev node: a single-node proof-of-stake chain
// that seals a block as soon as a transaction is pending, with a funded
// and unlocked developer account. Usually each transaction gets its own
// block, but empty blocks appear now and then: do not count blocks.
type Geth struct {
	RPC *RPC       // JSON-RPC 2.0 over HTTP, no auth
	Dev EthAddress // the unlocked developer account, eth_accounts[0]
	Dir string     // data directory, removed after the test
	// WS and IPC are the WebSocket URL and the IPC socket's path of a
	// geth started by [StartGethStreams]; empty otherwise.
	WS, IPC string

	proc *process
	bin  string   // the installed geth
	argv []string // its command line, for Restart
}

// StartGeth installs geth (see [GoInstall]; about two minutes cold) and
// starts it with --dev and its own data directory, the HTTP RPC on a port
// of 127.0.0.1 the kernel picks (read back from its log) serving the eth,
// net and web3 APIs, no IPC, and networking off (no discovery, no peers,
// P2P and engine API bound to 127.0.0.1 port 0). args are appended to the
// command line.
//
// It fails the test if eth_blockNumber is not answered within a minute,
// and stops geth when the test ends. It skips the test under -short.
func StartGeth(t testing.TB, args ...string) *Geth {
	t.Helper()
	return startGeth(t, false, args)
}

// StartGethStreams is [StartGeth] with the same APIs also served over
// WebSocket, on a port of 127.0.0.1 the kernel picks (read back from the
// log: Geth.WS), and over an IPC socket in the data directory (Geth.IPC).
func StartGethStreams(t testing.TB, args ...string) *Geth {
	t.Helper()
	return startGeth(t, true, args)
}

func startGeth(t testing.TB, streams bool, args []string) *Geth {
	t.Helper()
	skipShort(t)
	bin := install(t, gethName, GethVersion, gethPkg)
	dir := t.TempDir()
	ipc := []string{"--ipcdisable"}
	if streams {
		ipc = []string{"--ipcpath", filepath.Join(dir, "geth.ipc"), "--ws", "--ws.addr", loopback, "--ws.port", "0", "--ws.api", "eth,net,web3"}
	}
	argv := append(append([]string{
		"--dev", "--datadir", dir,
		"--http", "--http.addr", loopback, "--http.port", "0", "--http.api", "eth,net,web3",
	}, ipc...), append([]string{
		"--authrpc.addr", loopback, "--authrpc.port", "0",
		"--port", "0", "--nat", "none", "--nodiscover", "--maxpeers", "0",
		"--cache", "256", // the default reserves 2 GiB; tests write a few blocks
	}, args...)...)
	p, err := startProcess(dir, gethName, bin, argv...)
	if err != nil {
		t.Fatal(err)
	}
	p.stopOnCleanup(t)
	g, err := waitGeth(t.Context(), p, dir)
	if err == nil && streams {
		g.IPC = filepath.Join(dir, "geth.ipc")
		g.WS, err = waitWS(t.Context(), p)
	}
	if err != nil {
		t.Fatal(err)
	}
	g.bin, g.argv = bin, argv
	return g
}

// waitWS reads the WebSocket endpoint from geth's log.
func waitWS(ctx context.Context, p *process) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	line, err := p.waitFor(ctx, gethWSLine)
	if err != nil {
		return "", err
	}
	return line[1], nil
}

// Stop shuts geth down as an operator would (SIGINT, then SIGKILL after
// 15 s); its data directory stays for [Geth.Restart].
func (g *Geth) Stop() error {
	g.RPC.closeIdle()
	return g.proc.stop(stopTimeout)
}

// Restart starts a stopped geth again on the same data directory and
// command line and waits for its RPC, at most a minute. The HTTP port is
// the kernel's choice again, so g.RPC changes.
func (g *Geth) Restart(t testing.TB) error {
	p, err := startProcess(g.Dir, gethName, g.bin, g.argv...)
	if err != nil {
		return err
	}
	p.stopOnCleanup(t)
	ng, err := waitGeth(t.Context(), p, g.Dir)
	if err != nil {
		return err
	}
	g.RPC, g.proc = ng.RPC, p
	return nil
}

// waitGeth reads the HTTP endpoint from geth's log, waits for
// eth_blockNumber, and fetches the developer account.
func waitGeth(ctx context.Context, p *process, dir string) (*Geth, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	line, err := p.waitFor(ctx, gethHTTPLine)
	if err != nil {
		return nil, err
	}
	rpc, err := newRPC(line[1], "", "", "2.0")
	if err != nil {
		return nil, err
	}
	p.rpc = rpc
	if err := waitRPC(ctx, p, rpc, "eth_blockNumber"); err != nil {
		return nil, err
	}
	var accounts []EthAddress
	if err := rpc.Call(ctx, &accounts, "eth_accounts"); err != nil {
		return nil, err
	}
	if len(accounts) == 0 {
		return nil, fmt.Errorf("livenode: geth --dev has no account")
	}
	return &Geth{RPC: rpc, Dev: accounts[0], Dir: dir, proc: p}, nil
}

// BlockNumber returns the number of the latest block.
func (g *Geth) BlockNumber(ctx context.Context) (uint64, error) {
	var n hexUint
	err := g.RPC.Call(ctx, &n, "eth_blockNumber")
	return uint64(n), err
}

// SendTransaction sends a transaction from the developer account to to
// (nil creates a contract from data) and returns its hash. geth fills in
// nonce, gas and fees.
func (g *Geth) SendTransaction(ctx context.Context, to *EthAddress, data []byte) (EthHash, error) {
	tx := map[string]any{"from": g.Dev, "data": hexBytes(data)}
	if to != nil {
		tx["to"] = *to
	}
	var h EthHash
	err := g.RPC.Call(ctx, &h, "eth_sendTransaction", tx)
	return h, err
}

// SendTransactionGas is [Geth.SendTransaction] with the gas limit and
// nonce given: geth does not estimate gas, so a transaction that will fail
// is sent and mined all the same, and transactions sent in quick
// succession cannot race for a nonce (see [Geth.Nonce]).
func (g *Geth) SendTransactionGas(ctx context.Context, to *EthAddress, data []byte, gas, nonce uint64) (EthHash, error) {
	tx := map[string]any{"from": g.Dev, "data": hexBytes(data), "gas": hexUint(gas), "nonce": hexUint(nonce)}
	if to != nil {
		tx["to"] = *to
	}
	var h EthHash
	err := g.RPC.Call(ctx, &h, "eth_sendTransaction", tx)
	return h, err
}

// Nonce returns the developer account's next nonce, pending transactions
// counted.
func (g *Geth) Nonce(ctx context.Context) (uint64, error) {
	var n hexUint
	err := g.RPC.Call(ctx, &n, "eth_getTransactionCount", g.Dev, "pending")
	return uint64(n), err
}

// Receipt polls for the receipt of transaction h until it is mined and
// indexed, or ctx ends.
func (g *Geth) Receipt(ctx context.Context, h EthHash) (*Receipt, error) {
	for {
		var r *Receipt
		err := g.RPC.Call(ctx, &r, "eth_getTransactionReceipt", h)
		var rerr *RPCError
		switch {
		case errors.As(err, &rerr) && strings.Contains(rerr.Message, "indexing is in progress"):
			// A fresh node indexes its first blocks in the background.
		case err != nil:
			return nil, err
		case r != nil:
			return r, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("livenode: no receipt for %v: %w", h, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Transact sends a transaction like [Geth.SendTransaction], waits for its
// receipt, and fails if the transaction reverted.
func (g *Geth) Transact(ctx context.Context, to *EthAddress, data []byte) (*Receipt, error) {
	h, err := g.SendTransaction(ctx, to, data)
	if err != nil {
		return nil, err
	}
	r, err := g.Receipt(ctx, h)
	if err != nil {
		return nil, err
	}
	if r.Status != 1 {
		return r, fmt.Errorf("livenode: transaction %v failed with status %d", h, r.Status)
	}
	return r, nil
}

// DeployEmitter deploys the contract of [EmitterCode] and returns its
// address and the creation receipt (whose single log is Created()).
func (g *Geth) DeployEmitter(ctx context.Context) (EthAddress, *Receipt, error) {
	return g.DeployEmitterCode(ctx, EmitterCode())
}

// DeployEmitterCode deploys a contract from its creation code and returns
// its address and the creation receipt.
func (g *Geth) DeployEmitterCode(ctx context.Context, code []byte) (EthAddress, *Receipt, error) {
	r, err := g.Transact(ctx, nil, code)
	if err != nil {
		return EthAddress{}, nil, err
	}
	if r.ContractAddress == nil {
		return EthAddress{}, r, fmt.Errorf("livenode: deploy %v: no contract address", r.TxHash)
	}
	return *r.ContractAddress, r, nil
}

// Logs returns the logs matching q with eth_getLogs.
func (g *Geth) Logs(ctx context.Context, q LogQuery) ([]Log, error) {
	var logs []Log
	err := g.RPC.Call(ctx, &logs, "eth_getLogs", q)
	return logs, err
}
