package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// gethChain is what the integration test put on geth --dev.
type gethChain struct {
	g        *livenode.Geth
	emitters [5][]common.Address // emitters[n]: contracts logging LOGn
	topics   []common.Hash
	head     uint64
}

var (
	transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	approvalTopic = crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))
	swapTopic     = crypto.Keccak256Hash([]byte("Swap(address,uint256,uint256,uint256,uint256,address)"))
)

// emitOnGeth deploys two emitters for each of LOG0 to LOG4 and calls them
// with topics from a small pool and random data, one to three
// transactions at a time (some of which run out of gas), until the chain
// is 160 blocks long.
func emitOnGeth(ctx context.Context, t *testing.T, g *livenode.Geth) *gethChain {
	t.Helper()
	c := &gethChain{g: g, topics: []common.Hash{transferTopic, approvalTopic, swapTopic}}
	for i := range 3 {
		c.topics = append(c.topics, common.BytesToHash(demo.Users[i][:]))
	}
	for range 2 {
		for n := range 5 {
			addr, _, err := g.DeployEmitterCode(ctx, demo.EmitterCode(n))
			if err != nil {
				t.Fatal(err)
			}
			c.emitters[n] = append(c.emitters[n], common.Address(addr))
		}
	}
	r := rand.New(rand.NewPCG(8, 17))
	nonce, err := g.Nonce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for {
		n, err := g.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n >= 160 {
			c.head = n
			return c
		}
		var last livenode.EthHash
		for range 1 + r.IntN(3) {
			k := r.IntN(5)
			to := livenode.EthAddress(c.emitters[k][r.IntN(2)])
			var data []byte
			for range k {
				data = append(data, c.topics[r.IntN(len(c.topics))][:]...)
			}
			if k > 0 && r.IntN(12) == 0 {
				data = data[:16] // too short: out of gas, no log
			}
			data = append(data, make([]byte, r.IntN(70))...)
			if last, err = g.SendTransactionGas(ctx, &to, data, 120_000, nonce); err != nil {
				t.Fatal(err)
			}
			nonce++
		}
		if _, err := g.Receipt(ctx, last); err != nil {
			t.Fatal(err)
		}
	}
}

// getLogs is geth's own eth_getLogs over blocks 0 to head, one compact
// JSON object a line.
func (c *gethChain) getLogs(t *testing.T, q ethlogs.Query) []string {
	t.Helper()
	from, to := ethlogs.BlockNumber(0), ethlogs.BlockNumber(c.head)
	q.FromBlock, q.ToBlock = &from, &to
	var raw []json.RawMessage
	if err := c.g.RPC.Call(context.Background(), &raw, "eth_getLogs", q); err != nil {
		t.Fatal(err)
	}
	lines := make([]string, len(raw))
	for i, r := range raw {
		var b bytes.Buffer
		json.Compact(&b, r)
		lines[i] = b.String()
	}
	return lines
}

// gethQuery is a query both as eth scan flags and as eth_getLogs takes it.
type gethQuery struct {
	name  string
	flags []string
	q     ethlogs.Query
}

func (c *gethChain) queries() []gethQuery {
	e := c.emitters
	hex := func(h common.Hash) string { return `"` + h.Hex() + `"` }
	u0, u1, u2 := c.topics[3], c.topics[4], c.topics[5]
	return []gethQuery{
		{"address only", []string{"--address", e[3][0].Hex()}, ethlogs.Query{Addresses: []common.Address{e[3][0]}}},
		{"topic only", []string{"--topics", "[" + hex(transferTopic) + "]"}, ethlogs.Query{Topics: [][]common.Hash{{transferTopic}}}},
		{"address and topic", []string{"--address", e[3][0].Hex(), "--topics", "[" + hex(transferTopic) + "]"},
			ethlogs.Query{Addresses: []common.Address{e[3][0]}, Topics: [][]common.Hash{{transferTopic}}}},
		{"address OR-list", []string{"--address", e[1][0].Hex(), "--address", e[4][1].Hex()}, ethlogs.Query{Addresses: []common.Address{e[1][0], e[4][1]}}},
		{"topic OR-list", []string{"--topics", "[[" + hex(transferTopic) + "," + hex(swapTopic) + "]]"}, ethlogs.Query{Topics: [][]common.Hash{{transferTopic, swapTopic}}}},
		{"wildcard, then a value", []string{"--topics", "[null," + hex(u0) + "]"}, ethlogs.Query{Topics: [][]common.Hash{nil, {u0}}}},
		{"wildcards only", []string{"--topics", "[null,null,null]"}, ethlogs.Query{Topics: [][]common.Hash{nil, nil, nil}}},
		{"four positions", []string{"--topics", "[" + hex(swapTopic) + ",null,[" + hex(u1) + "," + hex(u2) + "],null]"},
			ethlogs.Query{Topics: [][]common.Hash{{swapTopic}, nil, {u1, u2}, nil}}},
		{"longer than some logs' topics", []string{"--address", e[3][0].Hex(), "--address", e[4][0].Hex(), "--topics", "[" + hex(transferTopic) + ",null,null,null]"},
			ethlogs.Query{Addresses: []common.Address{e[3][0], e[4][0]}, Topics: [][]common.Hash{{transferTopic}, nil, nil, nil}}},
		{"anonymous events", []string{"--address", e[0][0].Hex(), "--address", e[0][1].Hex()}, ethlogs.Query{Addresses: []common.Address{e[0][0], e[0][1]}}},
		{"every log", nil, ethlogs.Query{}},
		{"addresses and a topic OR-list at position 2", []string{"--address", e[3][1].Hex(), "--address", e[4][1].Hex(), "--topics", "[null,null,[" + hex(u0) + "," + hex(u2) + "]]"},
			ethlogs.Query{Addresses: []common.Address{e[3][1], e[4][1]}, Topics: [][]common.Hash{nil, nil, {u0, u2}}}},
		{"no match", []string{"--address", "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"}, ethlogs.Query{Addresses: []common.Address{{0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee}}}},
	}
}

// scanArgs is the eth scan command line for blocks 0 to head of url.
func (c *gethChain) scanArgs(url, index string, extra ...string) []string {
	return append([]string{"eth", "scan", "--json", "--rpc", url, "--from", "0", "--to", fmt.Sprint(c.head), "--index", index}, extra...)
}

// TestEthScanGeth is the integration test against a real geth --dev: a
// dozen queries whose --json output must equal geth's own eth_getLogs
// byte for byte; a proxy in front of geth that lies; geth stopped in the
// middle of a scan and restarted.
func TestEthScanGeth(t *testing.T) {
	g := livenode.StartGeth(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	c := emitOnGeth(ctx, t, g)
	t.Logf("geth: %d blocks of events in %v", c.head, time.Since(began).Round(time.Millisecond))
	began = time.Now()
	index := t.TempDir()
	var counts []string
	for _, q := range c.queries() {
		want := c.getLogs(t, q.q)
		code, stdout, stderr := runCLI(t, c.scanArgs(g.RPC.URL(), index, q.flags...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", q.name, code, stderr)
		}
		if got := splitLines(stdout); !slices.Equal(got, want) {
			t.Errorf("%s: eth scan printed %d logs, geth's eth_getLogs %d:\n%s\nwant\n%s", q.name, len(got), len(want), stdout, strings.Join(want, "\n"))
		}
		counts = append(counts, fmt.Sprintf("%s %d", q.name, len(want)))
	}
	t.Logf("%d queries equal to geth's eth_getLogs in %v: %s", len(c.queries()), time.Since(began).Round(time.Millisecond), strings.Join(counts, ", "))
	t.Run("decoded", func(t *testing.T) { testGethDecoded(t, c, index) })
	t.Run("lying", func(t *testing.T) { testGethLying(t, c) })
	t.Run("restart", func(t *testing.T) { testGethRestart(t, c) })
}

// testGethDecoded checks --event on geth: the log objects are eth_getLogs'
// and args decodes them.
func testGethDecoded(t *testing.T, c *gethChain, index string) {
	want := c.getLogs(t, ethlogs.Query{Addresses: c.emitters[3], Topics: [][]common.Hash{{transferTopic}}})
	args := c.scanArgs(c.g.RPC.URL(), index, "--event", "Transfer(address indexed from, address indexed to, uint256 value)")
	for _, a := range c.emitters[3] {
		args = append(args, "--address", a.Hex())
	}
	code, stdout, stderr := runCLI(t, args...)
	lines := splitLines(stdout)
	if code != exitOK || len(lines) != len(want) || len(want) == 0 {
		t.Fatalf("exit %d, %d lines, want %d\n%s", code, len(lines), len(want), stderr)
	}
	for i, line := range lines {
		if i := strings.Index(line, `"argsError"`); i >= 0 {
			continue // data of any length: not always a uint256
		}
		if log, args := stripArgs(t, line); log != want[i] || len(args) != 3 {
			t.Errorf("line %d: %s, args %v; want %s", i, log, args, want[i])
		}
	}
}

// testGethLying puts a lying proxy in front of geth: a dropped log, and a
// forged header bloom with its hash recomputed. Each must fail the scan
// with an error naming the block, after printing only true logs of
// earlier blocks.
func testGethLying(t *testing.T, c *gethChain) {
	q := ethlogs.Query{Topics: [][]common.Hash{{transferTopic}}}
	truth := c.getLogs(t, q)
	var target struct {
		Number hexutil.Uint64 `json:"blockNumber"`
		Hash   common.Hash    `json:"blockHash"`
	}
	json.Unmarshal([]byte(truth[len(truth)/2]), &target)
	n := uint64(target.Number)
	for _, lie := range []struct {
		name, method, want string
		block              uint64
		forge              func(json.RawMessage) json.RawMessage
	}{
		{"drop a log", "eth_getBlockReceipts", "receipts root mismatch", n, func(r json.RawMessage) json.RawMessage {
			return scantest.Edit(r, func(rs *[]map[string]json.RawMessage) {
				for _, rc := range *rs {
					var logs []json.RawMessage
					if json.Unmarshal(rc["logs"], &logs); len(logs) > 0 {
						rc["logs"], _ = json.Marshal(logs[1:])
						return
					}
				}
			})
		}},
		{"forge a header bloom", "header", "does not link to its parent", n + 1, func(r json.RawMessage) json.RawMessage {
			return scantest.Edit(r, func(h *types.Header) { h.Bloom = types.Bloom{} })
		}},
	} {
		p := scantest.NewProxy(c.g.RPC.URL())
		p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
			// "header": eth_getHeaderByNumber or eth_getBlockByNumber.
			if call.Block() == int64(n) && lie.method == "header" || call.Method == lie.method && call.Hash() == target.Hash.Hex() {
				return lie.forge(result)
			}
			return result
		})
		code, stdout, stderr := runCLI(t, c.scanArgs(p.URL, t.TempDir(), "--topics", `["`+transferTopic.Hex()+`"]`)...)
		p.Close()
		got := splitLines(stdout)
		if code != exitFailure || !strings.Contains(stderr, fmt.Sprintf("block %d", lie.block)) || !strings.Contains(stderr, lie.want) {
			t.Errorf("%s in block %d: exit %d\n%s", lie.name, n, code, stderr)
		}
		if len(got) > len(truth) || !slices.Equal(got, truth[:len(got)]) || strings.Contains(stdout, target.Hash.Hex()) {
			t.Errorf("%s: printed logs that are not geth's, or of the forged block:\n%s", lie.name, stdout)
		}
	}
}

// testGethRestart stops geth while a scan fetches receipts: restarted
// while the scan retries, the scan finishes; restarted after it gave up, a
// rerun resumes. Both must print exactly geth's eth_getLogs.
func testGethRestart(t *testing.T, c *gethChain) {
	q := ethlogs.Query{Topics: [][]common.Hash{nil, {c.topics[3], c.topics[4]}}}
	want := c.getLogs(t, q)
	flags := []string{"--topics", `[null,["` + c.topics[3].Hex() + `","` + c.topics[4].Hex() + `"]]`, "--concurrency", "1"}
	for _, giveUp := range []bool{false, true} {
		p := scantest.NewProxy(c.g.RPC.URL())
		restarted := make(chan error, 1)
		calls := 0
		p.Intercept(func(rs []scantest.Request) *scantest.Fault {
			if slices.ContainsFunc(rs, func(r scantest.Request) bool { return r.Method == "eth_getBlockReceipts" }) {
				if calls++; calls == 3 {
					if err := c.g.Stop(); err != nil {
						t.Error(err)
					}
					if !giveUp {
						go func() { restarted <- c.restart(t, p) }()
					}
				}
			}
			return nil
		})
		index := t.TempDir()
		retries := []string{"--retries", "30"}
		if giveUp {
			out := filepath.Join(t.TempDir(), "out")
			retries = []string{"--retries", "2", "--out", out}
		}
		code, stdout, stderr := runCLI(t, c.scanArgs(p.URL, index, append(flags, retries...)...)...)
		if giveUp {
			if code != exitFailure || !strings.Contains(stderr, "--resume appends the rest") {
				t.Fatalf("geth down for good: exit %d\n%s", code, stderr)
			}
			if err := c.restart(t, p); err != nil {
				t.Fatal(err)
			}
			code, _, stderr = runCLI(t, c.scanArgs(p.URL, index, append(flags, append(retries, "--resume")...)...)...)
			if !strings.Contains(stderr, "resuming into") {
				t.Errorf("the rerun did not resume:\n%s", stderr)
			}
			b, err := os.ReadFile(retries[len(retries)-1])
			if err != nil {
				t.Fatal(err)
			}
			stdout = string(b)
		} else {
			select {
			case err := <-restarted:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(time.Minute):
				t.Fatal("geth was not stopped and restarted within a minute of the scan's end")
			}
		}
		p.Close()
		if got := splitLines(stdout); code != exitOK || !slices.Equal(got, want) {
			t.Errorf("restart (gave up %t): exit %d, %d logs, want %d\n%s", giveUp, code, len(got), len(want), stderr)
		}
	}
}

// restart starts geth again and points the proxy at its new port.
func (c *gethChain) restart(t *testing.T, p *scantest.Proxy) error {
	if err := c.g.Restart(t); err != nil {
		return err
	}
	p.SetUpstream(c.g.RPC.URL())
	return nil
}
