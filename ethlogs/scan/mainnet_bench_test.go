package scan_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/testvectors/ethchain"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// mainnetBlocks is how much of the mainnet-shaped chain BenchmarkMainnetScan
// serves: blocks 0 to 2,000 of the 20,000 testvectors/ethchain generates.
// A block there carries about 350 logs (381 KB of receipts in JSON), so a
// query that passes every header's bloom fetches every block's receipts:
// at 20,000 blocks one batched scan of it would move 7.6 GB of JSON.
const mainnetBlocks = 2000

// mainnetChain is the first mainnetBlocks blocks of the cached
// mainnet-shaped chain, and a server of them whose eth_getLogs has no log
// index (as --history.logs.disable).
var mainnetChain = sync.OnceValues(func() (*mainnet, error) {
	c, err := ethchain.Cached(20000) // the chain BenchmarkMainnetShaped uses
	if err != nil {
		return nil, err
	}
	short := *c
	short.Head = mainnetBlocks
	off, err := short.FilterMaps(rawdb.NewMemoryDatabase(), true)
	if err != nil {
		return nil, err
	}
	s, err := c.Serve(mainnetBlocks, off)
	if err != nil {
		return nil, err
	}
	return &mainnet{&short, s}, nil
})

type mainnet struct {
	chain *ethchain.Chain // to mainnetBlocks
	*ethchain.Server
}

// indexed serves the chain with go-ethereum's log index built over it,
// until stop. The index is built for each use and stopped after it: an
// indexer left running takes a core of CPU some seconds after it is done
// (see demo.Options.LogIndex).
func (m *mainnet) indexed() (s *ethchain.Server, stop func(), err error) {
	fm, err := m.chain.FilterMaps(rawdb.NewMemoryDatabase(), false)
	if err != nil {
		return nil, nil, err
	}
	if s, err = m.chain.Serve(m.chain.Head, fm); err != nil {
		fm.Stop()
		return nil, nil, err
	}
	return s, func() { s.Close(); fm.Stop() }, nil
}

// BenchmarkMainnetScan runs the three queries of testvectors/ethchain
// (a popular token's Transfers, in every block; one rare contract's
// event; a 100-address wallet's incoming Transfers) over blocks 0 to
// mainnetBlocks of the mainnet-shaped chain, served over HTTP on loopback
// by an in-process server that answers as go-ethereum does (ethchain.Serve):
//
//   - chainsieve: the whole scan, cold, as in BenchmarkScan;
//   - batched: BenchmarkScan's batched client;
//   - geth-index: the server's own eth_getLogs over go-ethereum's log
//     index (filtermaps), an unverified server-side answer.
//
// B/block and B/match are the bytes of the server's answers per block of
// the range and per matching log.
func BenchmarkMainnetScan(b *testing.B) {
	m, err := mainnetChain()
	if err != nil {
		b.Fatal(err)
	}
	for _, eq := range ethchain.Queries() {
		q := ethlogs.Query{Addresses: eq.Addresses, Topics: eq.Topics}
		b.Run(eq.Name, func(b *testing.B) { benchMainnet(b, m, q) })
	}
}

func benchMainnet(b *testing.B, m *mainnet, q ethlogs.Query) {
	blocks := float64(m.Head + 1)
	var want int
	s := m.Server
	run := func(name string, scanOnce func(b *testing.B) int) {
		b.Run(name, func(b *testing.B) {
			if name == "geth-index" {
				indexed, stop, err := m.indexed()
				if err != nil {
					b.Fatal(err)
				}
				defer stop()
				s = indexed
			}
			b.ReportAllocs()
			cpu0, sent0, logs := cpuTime(), s.Sent(), 0
			start := time.Now()
			for b.Loop() {
				logs = scanOnce(b)
			}
			if want == 0 {
				want = logs
			}
			if logs != want || logs == 0 {
				b.Fatalf("%d logs, the first sub-benchmark found %d", logs, want)
			}
			n := float64(b.N)
			sent := float64(s.Sent()-sent0) / n
			b.ReportMetric(blocks*n/time.Since(start).Seconds(), "headers/s")
			b.ReportMetric(float64(cpuTime()-cpu0)/1e6/n, "cpu-ms/op")
			b.ReportMetric(sent/blocks, "B/block")
			b.ReportMetric(sent/float64(logs), "B/match")
			b.ReportMetric(float64(logs), "matches")
		})
	}
	run("chainsieve", func(b *testing.B) int {
		n := 0
		cfg := scan.Config{Client: scan.NewClient(s.URL), Query: q, IndexDir: b.TempDir(),
			Emit: func(l []*types.Log) error { n += len(l); return nil }}
		if _, err := scan.Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		return n
	})
	run("batched", func(b *testing.B) int {
		logs, _ := batchedScan(b, s.URL, &q, s.Head)
		return logs
	})
	run("geth-index", func(b *testing.B) int { // s: the indexed server
		// go-ethereum's client: the token's answer (59 MB) is above the
		// scan client's 16 MiB limit on one answer.
		client, err := rpc.DialHTTP(s.URL)
		if err != nil {
			b.Fatal(err)
		}
		defer client.Close()
		var raw []json.RawMessage
		if err := client.CallContext(context.Background(), &raw, "eth_getLogs", withRange(q, 0, s.Head)); err != nil {
			b.Fatal(err)
		}
		return len(raw)
	})
}
