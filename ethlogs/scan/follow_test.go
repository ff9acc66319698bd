package scan_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// following is a Follow running in the background.
type following struct {
	mu     sync.Mutex
	lines  []string
	ranged int // lines of the range, before the first head
	heads  chan scan.FollowHead
	done   chan error
	stop   context.CancelFunc
	stats  scan.Stats
}

func startFollow(t *testing.T, cfg scan.Config, opt scan.FollowOptions) *following {
	t.Helper()
	f := &following{heads: make(chan scan.FollowHead, 100), done: make(chan error, 1), ranged: -1}
	ctx, cancel := context.WithCancel(t.Context())
	f.stop = cancel
	cfg.Emit = func(logs []*types.Log) error {
		f.mu.Lock()
		defer f.mu.Unlock()
		return emitTo(&f.lines, nil)(logs)
	}
	opt.Head = func(h scan.FollowHead) {
		f.mu.Lock()
		if f.ranged < 0 {
			f.ranged = len(f.lines) - h.Added - h.Removed
		}
		f.mu.Unlock()
		f.heads <- h
	}
	go func() {
		st, err := scan.Follow(ctx, cfg, opt)
		f.stats = st
		f.done <- err
	}()
	// The client closes before the node (cleanups run last first): a
	// connection dialled and never used holds its shutdown for 5 s.
	t.Cleanup(func() { cancel(); <-f.done; cfg.Client.Close() })
	return f
}

// waitHead waits until the follow has handled head n of the node, or
// fails.
func (f *following) waitHead(t *testing.T, n uint64) scan.FollowHead {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case h := <-f.heads:
			if h.Number == n {
				return h
			}
		case err := <-f.done:
			f.done <- err
			t.Fatalf("the follow stopped waiting for head %d: %v", n, err)
		case <-timeout:
			t.Fatalf("head %d not handled within 10 s", n)
		}
	}
}

// waitErr waits for the follow to fail.
func (f *following) waitErr(t *testing.T) error {
	t.Helper()
	select {
	case err := <-f.done:
		f.done <- err
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the follow did not stop within 10 s")
		return nil
	}
}

func (f *following) output() (rangeLines, followLines []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.lines[:f.ranged]), slices.Clone(f.lines[f.ranged:])
}

// subscribeLogs subscribes to the node's own eth_subscribe("logs") with q:
// the oracle of a follow's stream.
func subscribeLogs(t *testing.T, ws string, q ethlogs.Query) func(want int) []string {
	t.Helper()
	client, err := ethclient.Dial(ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	ch := make(chan types.Log, 10000)
	sub, err := client.SubscribeFilterLogs(t.Context(), ethereum.FilterQuery{Addresses: q.Addresses, Topics: q.Topics}, ch)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Unsubscribe)
	var lines []string
	return func(want int) []string {
		timeout := time.After(5 * time.Second)
		for len(lines) < want {
			select {
			case l := <-ch:
				b, _ := json.Marshal(&l)
				lines = append(lines, string(b))
			case <-timeout:
				return lines
			}
		}
		return lines
	}
}

func startGrowing(t *testing.T, blocks int) *demo.Chain {
	t.Helper()
	c, err := demo.StartWith(demo.Options{Blocks: blocks, WS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestFollowReorg follows a chain that grows, reorganises and grows again,
// over HTTP (polling) and WebSocket (newHeads): the range's logs must be
// eth_getLogs', and what follows, the node's own eth_subscribe("logs")
// stream, removed logs included, byte for byte.
func TestFollowReorg(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{"http", "ws"} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel() // a node of its own each
			c := startGrowing(t, 60)
			q := ethlogs.Query{} // every log: the branches are short
			oracle := subscribeLogs(t, c.WS, q)
			url := map[string]string{"http": c.URL, "ws": c.WS}[transport]
			from := uint64(40)
			f := startFollow(t, scan.Config{Client: scan.NewClient(url), Query: q, From: from, IndexDir: t.TempDir()},
				scan.FollowOptions{Poll: 20 * time.Millisecond})
			f.waitHead(t, c.Head)
			steps := []func() error{
				func() error { return c.Extend(3) },
				func() error { return c.Reorg(2, 4) },
				func() error { return c.Extend(2) },
				func() error { return c.Reorg(5, 3) }, // a shorter branch
				func() error { return c.Extend(1) },
			}
			for i, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
				f.waitHead(t, c.Head)
				t.Logf("step %d: head %d", i, c.Head)
			}
			rangeLines, followLines := f.output()
			if want := getLogs(t, c.URL, withRange(q, from, 60)); !slices.Equal(rangeLines, want) {
				t.Errorf("range: %d logs, eth_getLogs has %d", len(rangeLines), len(want))
			}
			want := oracle(len(followLines))
			removed := 0
			for _, l := range followLines {
				if strings.Contains(l, `"removed":true`) {
					removed++
				}
			}
			if removed == 0 || !slices.Equal(followLines, want) {
				t.Errorf("followed %d logs (%d removed), the node's subscription sent %d:\n%s\nwant\n%s", len(followLines), removed, len(want), strings.Join(followLines, "\n"), strings.Join(want, "\n"))
			}
			t.Logf("%d logs of the range, then %d followed, %d of them removed", len(rangeLines), len(followLines), removed)
		})
	}
}

// TestFollowConfirmations: three confirmations against a reorganisation
// two blocks deep remove nothing, and the output is eth_getLogs' over the
// final chain up to three blocks below its head.
func TestFollowConfirmations(t *testing.T) {
	if testing.Short() {
		t.Skip("a node of its own per case: seconds")
	}
	c := startGrowing(t, 60)
	q := ethlogs.Query{}
	f := startFollow(t, scan.Config{Client: scan.NewClient(c.WS), Query: q, From: 40, IndexDir: t.TempDir()},
		scan.FollowOptions{Confirmations: 3})
	f.waitHead(t, c.Head)
	for _, step := range []func() error{func() error { return c.Extend(4) }, func() error { return c.Reorg(2, 3) }, func() error { return c.Extend(1) }} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		f.waitHead(t, c.Head)
	}
	rangeLines, followLines := f.output()
	got := append(rangeLines, followLines...)
	want := getLogs(t, c.URL, withRange(q, 40, c.Head-3))
	if !slices.Equal(got, want) || strings.Contains(strings.Join(got, ""), `"removed":true`) {
		t.Errorf("%d logs, eth_getLogs has %d up to block %d (removed ones: %t)", len(got), len(want), c.Head-3, strings.Contains(strings.Join(got, ""), `"removed":true`))
	}
}

// TestFollowDeepReorg: a reorganisation below the window fails, naming
// the window's oldest block.
func TestFollowDeepReorg(t *testing.T) {
	if testing.Short() {
		t.Skip("a node of its own per case: seconds")
	}
	c := startGrowing(t, 60)
	f := startFollow(t, scan.Config{Client: scan.NewClient(c.WS), From: 50, IndexDir: t.TempDir()}, scan.FollowOptions{Window: 4})
	f.waitHead(t, c.Head)
	oldest := c.Head - 3
	if err := c.Reorg(6, 8); err != nil {
		t.Fatal(err)
	}
	err := f.waitErr(t)
	var be *ethlogs.BlockError
	if !errors.Is(err, scan.ErrDeepReorg) || !errors.As(err, &be) || be.Number != oldest || !strings.Contains(err.Error(), fmt.Sprintf("block %d", oldest)) {
		t.Fatalf("Follow = %v; want %v naming block %d", err, scan.ErrDeepReorg, oldest)
	}
	t.Log(err)
}

// TestFollowLyingNode: a node that forges a followed block's header or
// receipts, in each of the ways TestLyingNode tries on a range, is caught,
// the error naming the block, after only true logs.
func TestFollowLyingNode(t *testing.T) {
	if testing.Short() {
		t.Skip("a node of its own per case: seconds")
	}
	for _, lie := range lies {
		t.Run(strings.ReplaceAll(lie.name, " ", "_"), func(t *testing.T) {
			c := startGrowing(t, 60)
			target := uint64(62) // a header lie; a receipts lie picks its block
			var hash string
			var mu sync.Mutex
			p := scantest.NewProxy(c.URL)
			defer p.Close()
			if lie.json {
				p.Disable("debug_getRawHeader")
				p.Disable("debug_getRawReceipts")
			}
			p.Rewrite(func(call scantest.Request, result json.RawMessage) json.RawMessage {
				mu.Lock()
				defer mu.Unlock()
				if lie.method == "header" && call.Block() == int64(target) {
					return lie.forge(result)
				}
				if call.Method != lie.method {
					return result
				}
				if n, ok := twoReceiptsWithLogs(result); hash == "" && ok && n > 60 {
					target, hash = n, call.Hash()
				}
				if call.Hash() == hash {
					return lie.forge(result)
				}
				return result
			})
			f := startFollow(t, scan.Config{Client: scan.NewClient(p.URL), From: 55, IndexDir: t.TempDir()},
				scan.FollowOptions{Poll: 20 * time.Millisecond})
			f.waitHead(t, c.Head)
			var err error
			for range 20 {
				if err = c.Extend(3); err != nil {
					t.Fatal(err)
				}
				select {
				case err = <-f.done:
				case <-time.After(300 * time.Millisecond):
					continue
				}
				break
			}
			f.done <- err
			mu.Lock()
			want := target + lie.blockUp
			mu.Unlock()
			var be *ethlogs.BlockError
			if !errors.Is(err, lie.want) || !errors.As(err, &be) || be.Number != want || !strings.Contains(err.Error(), fmt.Sprintf("block %d", want)) {
				t.Fatalf("Follow = %v; want %v naming block %d", err, lie.want, want)
			}
			truth := getLogs(t, c.URL, withRange(ethlogs.Query{}, 55, c.Head))
			rangeLines, followLines := f.output()
			got := append(rangeLines, followLines...)
			if !slices.Equal(got, truth[:min(len(got), len(truth))]) {
				t.Errorf("emitted logs that are not the node's true ones")
			}
			for _, l := range got {
				if blockOf(t, l) >= target {
					t.Errorf("emitted a log of block %d, at or after the forged block %d", blockOf(t, l), target)
				}
			}
			t.Logf("%v (%d true logs before it)", err, len(got))
		})
	}
}

// twoReceiptsWithLogs reports whether an eth_getBlockReceipts answer has
// at least two receipts with logs, and its block number.
func twoReceiptsWithLogs(result json.RawMessage) (uint64, bool) {
	var rs []struct {
		Block hexutil.Uint64    `json:"blockNumber"`
		Logs  []json.RawMessage `json:"logs"`
	}
	if json.Unmarshal(result, &rs) != nil || len(rs) < 2 || len(rs[0].Logs) == 0 || len(rs[1].Logs) == 0 {
		return 0, false
	}
	return uint64(rs[0].Block), true
}
