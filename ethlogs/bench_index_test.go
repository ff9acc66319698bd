package ethlogs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/testvectors/benchdata"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func realisticBlooms(b *testing.B, n int) []ethlogs.Bloom {
	blooms, err := benchdata.Blooms(n, 1)
	if err != nil {
		b.Fatal(err)
	}
	return blooms
}

func buildIndex(b *testing.B, dir string, blooms []ethlogs.Bloom) *index.Index {
	x, err := index.Create(dir, 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := range uint64(len(blooms)) {
		if err := x.AppendBloom(i, benchdata.Hash(i+1), benchdata.Hash(i), &blooms[i]); err != nil {
			b.Fatal(err)
		}
	}
	if err := x.Sync(); err != nil {
		b.Fatal(err)
	}
	return x
}

func dirSize(b *testing.B, dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, e := range entries {
		fi, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		n += fi.Size()
	}
	return n
}

// BenchmarkQuery1M runs a USDC-Transfer-shaped query (one address AND one
// topic-0 value) over 1,000,000 headers of realistic saturation: the linear
// compiled scan over the blooms in memory, the index (page-cached files),
// and go-ethereum's prefilter loop, measured over the first 10,000 headers
// only (it takes about 0.6 µs a header) and reported per header. Compare the
// ns/header metric.
func BenchmarkQuery1M(b *testing.B) {
	const n, gethN = 1_000_000, 10_000
	blooms := realisticBlooms(b, n)
	q := ethlogs.Query{
		Addresses: []common.Address{common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")},
		Topics:    [][]common.Hash{{common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")}},
	}
	m := q.Compile()
	want := m.Scan(nil, 0, blooms)
	b.Run("linear/chainsieve", func(b *testing.B) {
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			dst = m.Scan(dst[:0], 0, blooms)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/header")
		b.ReportMetric(float64(len(dst)), "candidates")
	})
	b.Run("index/chainsieve", func(b *testing.B) {
		dir := b.TempDir()
		x := buildIndex(b, dir, blooms)
		defer x.Close()
		var dst []uint64
		var err error
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if dst, err = x.Candidates(dst[:0], m, 0, n-1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/header")
		b.ReportMetric(float64(len(dst)), "candidates")
		b.ReportMetric(float64(dirSize(b, dir))/(1<<20)/(n/1e6), "MiB/Mheaders")
		if len(dst) != len(want) {
			b.Fatalf("index gives %d candidates, the linear scan %d", len(dst), len(want))
		}
	})
	b.Run("geth", func(b *testing.B) {
		count := 0
		b.ReportAllocs()
		for b.Loop() {
			count = 0
			for i := range blooms[:gethN] {
				if ethlogs.GethBloomFilter(types.Bloom(blooms[i]), q.Addresses, q.Topics) {
					count++
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/gethN, "ns/header")
	})
}

// BenchmarkIndexAppend measures build throughput: appending realistic
// header blooms, sealing a section every 4096.
func BenchmarkIndexAppend(b *testing.B) {
	blooms := realisticBlooms(b, 1<<16)
	b.Run("chainsieve", func(b *testing.B) {
		x, err := index.Create(b.TempDir(), 0)
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		b.ReportAllocs()
		i := uint64(0)
		for b.Loop() {
			if err := x.AppendBloom(i, benchdata.Hash(i+1), benchdata.Hash(i), &blooms[i%uint64(len(blooms))]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "headers/s")
	})
}

// BenchmarkIndexOpen opens a 1,000,000-header index: Open verifies every
// section checksum, reading the whole index (page-cached here).
func BenchmarkIndexOpen(b *testing.B) {
	dir := b.TempDir()
	x := buildIndex(b, dir, realisticBlooms(b, 1_000_000))
	if err := x.Close(); err != nil {
		b.Fatal(err)
	}
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			y, err := index.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			y.Close()
		}
	})
}
