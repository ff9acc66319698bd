package scan_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/testvectors/ethchain"
	"github.com/ethereum/go-ethereum/core/filtermaps"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/ethdb"
)

// chainBlocks is the length of the mainnet-shaped chain. Generating it
// takes minutes; ethchain.Cached keeps it in the user cache directory
// (about 650 MB).
const chainBlocks = 20_000

// BenchmarkMainnetShaped is the index's benchmark against go-ethereum's
// log index. It lives beside BenchmarkMainnetScan, which reads the same
// cached chain, because it links go-ethereum's chain code: in package
// index it made every test run of that package link it too (4 s).
//
// It builds chainsieve's header-bloom index and
// go-ethereum's log index (core/filtermaps, geth's default since v1.15.6)
// over the same 20,000-block mainnet-shaped chain (testvectors/ethchain),
// then runs three queries on each, side by side:
//
//   - build/chainsieve: index.Create, then Append of every header read from
//     the chain's database (a light client's index: headers only);
//     build/geth: filtermaps.NewFilterMaps over the chain, every block's
//     receipts read from the database, into an in-memory database.
//     "bytes" is the index's size: the blocks its files take on disk (the
//     epoch file is sparse), or the keys and values geth wrote (before any
//     compression by the database);
//   - <query>/chainsieve: the index's candidate blocks (Candidates);
//     <query>/geth: filtermaps' potential matches (GetPotentialMatches),
//     each a log position whose block must be read;
//   - <query>/geth-index and geth-noindex: geth's eth_getLogs (eth/filters)
//     over the chain's database with the log index on, and off
//     (--history.logs.disable): a node's unverified server-side answer.
//
// Metrics: candidates (blocks a client must fetch receipts of), fp-blocks
// (candidates without a matching log), and bytes fetched per block of the
// range and per matching log: chainsieve fetches the candidates' headers
// and receipts (its index built beforehand from the headers); batched (on
// the chainsieve rows) fetches every header and the bloom candidates'
// receipts, as a client without an index does; geth-index receives the
// answer's logs. Sizes are go-ethereum's JSON of headers, receipts and
// logs (ethchain.Sizes).
func BenchmarkMainnetShaped(b *testing.B) {
	if testing.Short() {
		b.Skip("generates or reads a 20,000-block chain")
	}
	c, err := ethchain.Cached(chainBlocks)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	dir, err := os.MkdirTemp("", "mainnet-shaped")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)

	var x *index.Index
	b.Run("build/chainsieve", func(b *testing.B) {
		for b.Loop() {
			if x != nil {
				x.Close()
			}
			x = buildIndex(b, c, dir)
		}
		b.ReportMetric(float64(dirBytes(b, dir)), "bytes")
	})
	if x == nil {
		b.Fatal("no index built")
	}
	defer x.Close()
	var fm *filtermaps.FilterMaps
	var fmdb ethdb.Database
	b.Run("build/geth", func(b *testing.B) {
		for b.Loop() {
			if fm != nil {
				fm.Stop()
			}
			fmdb = rawdb.NewMemoryDatabase()
			if fm, err = c.FilterMaps(fmdb, false); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(kvBytes(fmdb)), "bytes")
	})
	if fm == nil {
		b.Fatal("no filtermaps built")
	}
	defer fm.Stop()
	off, err := c.FilterMaps(rawdb.NewMemoryDatabase(), true)
	if err != nil {
		b.Fatal(err)
	}
	defer off.Stop()
	indexed := filters.NewFilterSystem(c.Backend(fm), filters.Config{})
	unindexed := filters.NewFilterSystem(c.Backend(off), filters.Config{})
	for _, q := range ethchain.Queries() {
		b.Run(q.Name, func(b *testing.B) {
			benchQuery(b, c, x, fm, indexed, unindexed, q)
		})
	}
}

func benchQuery(b *testing.B, c *ethchain.Chain, x *index.Index, fm *filtermaps.FilterMaps, indexed, unindexed *filters.FilterSystem, q ethchain.Query) {
	ctx := context.Background()
	logsOf := func(b *testing.B, sys *filters.FilterSystem) []*types.Log {
		logs, err := sys.NewRangeFilter(0, int64(c.Head), q.Addresses, q.Topics, 0).Logs(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return logs
	}
	// The truth: geth's answer with its index, checked against the answer
	// without it in geth-noindex.
	truth := logsOf(b, indexed)
	matched := map[uint64]bool{}
	for _, l := range truth {
		matched[l.BlockNumber] = true
	}
	blocks, matches := float64(c.Head+1), float64(max(len(truth), 1))
	report := func(b *testing.B, candidates []uint64, bytes int) {
		fp := 0
		for _, n := range candidates {
			if !matched[n] {
				fp++
			}
		}
		b.ReportMetric(float64(len(candidates)), "candidates")
		b.ReportMetric(float64(fp), "fp-blocks")
		if bytes > 0 {
			b.ReportMetric(float64(bytes)/blocks, "bytes/block")
			b.ReportMetric(float64(bytes)/matches, "bytes/match")
		}
	}
	m := (&ethlogs.Query{Addresses: q.Addresses, Topics: q.Topics}).Compile()
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		var found []uint64
		var err error
		for b.Loop() {
			if found, err = x.Candidates(found[:0], m, 0, c.Head); err != nil {
				b.Fatal(err)
			}
		}
		fetched, batched := 0, 0
		for _, n := range found {
			fetched += int(c.Sizes[n].Header + c.Sizes[n].Receipts)
			batched += int(c.Sizes[n].Receipts)
		}
		for _, s := range c.Sizes {
			batched += int(s.Header)
		}
		report(b, found, fetched)
		b.ReportMetric(float64(batched)/blocks, "batched-bytes/block")
		b.ReportMetric(float64(batched)/matches, "batched-bytes/match")
		b.ReportMetric(float64(len(truth)), "matches")
	})
	b.Run("geth", func(b *testing.B) {
		b.ReportAllocs()
		var potential []*types.Log
		for b.Loop() {
			mb := fm.NewMatcherBackend()
			var err error
			potential, err = filtermaps.GetPotentialMatches(ctx, mb, 0, c.Head, q.Addresses, q.Topics)
			mb.Close()
			if err != nil {
				b.Fatal(err)
			}
		}
		var found []uint64
		for _, l := range potential {
			if len(found) == 0 || found[len(found)-1] != l.BlockNumber {
				found = append(found, l.BlockNumber)
			}
		}
		report(b, found, 0)
		b.ReportMetric(float64(len(potential)), "potential-logs")
	})
	b.Run("geth-index", func(b *testing.B) {
		b.ReportAllocs()
		var logs []*types.Log
		for b.Loop() {
			logs = logsOf(b, indexed)
		}
		answer, err := json.Marshal(logs)
		if err != nil {
			b.Fatal(err)
		}
		report(b, nil, len(answer))
	})
	b.Run("geth-noindex", func(b *testing.B) {
		b.ReportAllocs()
		var logs []*types.Log
		for b.Loop() {
			logs = logsOf(b, unindexed)
		}
		if !slices.EqualFunc(logs, truth, func(a, b *types.Log) bool {
			return a.BlockNumber == b.BlockNumber && a.Index == b.Index && a.TxHash == b.TxHash
		}) {
			b.Fatalf("eth_getLogs found %d logs without its index, %d with it", len(logs), len(truth))
		}
	})
}

// buildIndex indexes every header of c, read from its database, in a fresh
// index under dir.
func buildIndex(b *testing.B, c *ethchain.Chain, dir string) *index.Index {
	if err := os.RemoveAll(filepath.Join(dir, "index")); err != nil {
		b.Fatal(err)
	}
	x, err := index.Create(filepath.Join(dir, "index"), 0)
	if err != nil {
		b.Fatal(err)
	}
	for n := uint64(0); n <= c.Head; n++ {
		if err := x.Append(c.Header(n)); err != nil {
			b.Fatal(err)
		}
	}
	if err := x.Sync(); err != nil {
		b.Fatal(err)
	}
	return x
}

func dirBytes(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += allocated(info)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func kvBytes(db ethdb.Iteratee) int64 {
	var n int64
	it := db.NewIterator(nil, nil)
	defer it.Release()
	for it.Next() {
		n += int64(len(it.Key()) + len(it.Value()))
	}
	return n
}
