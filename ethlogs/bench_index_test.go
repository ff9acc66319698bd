package ethlogs_test

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/testvectors/benchdata"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// fixture is a benchmark chain of realistic header blooms and its index,
// built once per test process (every -count round shares it) and removed
// by TestMain.
type fixture struct {
	blooms []ethlogs.Bloom
	dir    string
}

var fixtures struct {
	sync.Mutex
	root string
	m    map[int]*fixture
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtures.root != "" {
		os.RemoveAll(fixtures.root)
	}
	os.Exit(code)
}

func getFixture(b *testing.B, n int) *fixture {
	fixtures.Lock()
	defer fixtures.Unlock()
	if f := fixtures.m[n]; f != nil {
		return f
	}
	if fixtures.root == "" {
		root, err := os.MkdirTemp("", "ethlogs-bench")
		if err != nil {
			b.Fatal(err)
		}
		fixtures.root, fixtures.m = root, map[int]*fixture{}
	}
	f := &fixture{blooms: realisticBlooms(b, n), dir: filepath.Join(fixtures.root, fmt.Sprint(n))}
	if err := buildIndex(b, f.dir, f.blooms).Close(); err != nil {
		b.Fatal(err)
	}
	fixtures.m[n] = f
	return f
}

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

// diskUsage is the space dir's files take on disk (epoch files are sparse).
func diskUsage(b *testing.B, dir string) int64 {
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
		n += allocated(fi)
	}
	return n
}

// usdcTransfer is the benchmark query: USDC (one address) AND Transfer
// (topic 0).
var usdcTransfer = ethlogs.Query{
	Addresses: []common.Address{common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")},
	Topics:    [][]common.Hash{{common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")}},
}

// BenchmarkQuery1M and BenchmarkQuery10M run the USDC-Transfer query over
// 1,000,000 and 10,000,000 headers of realistic saturation:
//
//   - index/chainsieve: the index (page-cached, memory-mapped files);
//   - linear/chainsieve: the compiled matcher over the blooms in memory;
//   - bound: the in-memory AND of the same bit-vectors the index reads,
//     built from the blooms, with the same candidate list out: what
//     evaluating the index costs with no file, mapping or check at all;
//   - geth-hashed: go-ethereum's types.Bloom with each value hashed once,
//     over the blooms in memory;
//   - geth: go-ethereum's eth_getLogs prefilter (types.BloomLookup, a
//     Keccak per value and header), over the first 10,000 headers only (it
//     takes about 0.6 µs a header).
//
// Compare ns/op, or ns/header where the work differs.
func BenchmarkQuery1M(b *testing.B)  { benchQuery(b, 1_000_000) }
func BenchmarkQuery10M(b *testing.B) { benchQuery(b, 10_000_000) }

func benchQuery(b *testing.B, n int) {
	const gethN = 10_000
	f := getFixture(b, n)
	q := usdcTransfer
	m := q.Compile()
	want := m.Scan(nil, 0, f.blooms)
	perHeader := func(b *testing.B, headers int, got []uint64) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(headers), "ns/header")
		if headers == n && !slices.Equal(got, want) {
			b.Fatalf("%d candidates, the linear scan gives %d", len(got), len(want))
		}
	}
	b.Run("index/chainsieve", func(b *testing.B) {
		x, err := index.OpenSnapshot(f.dir)
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			if dst, err = x.Candidates(dst[:0], m, 0, uint64(n)-1); err != nil {
				b.Fatal(err)
			}
		}
		perHeader(b, n, dst)
		b.ReportMetric(float64(len(dst)), "candidates")
		b.ReportMetric(float64(diskUsage(b, f.dir))/(1<<20)/(float64(n)/1e6), "MiB/Mheaders")
	})
	b.Run("bound", func(b *testing.B) {
		rows := bitVectors(m, f.blooms)
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			dst = andVectors(dst[:0], rows)
		}
		perHeader(b, n, dst)
	})
	b.Run("linear/chainsieve", func(b *testing.B) {
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			dst = m.Scan(dst[:0], 0, f.blooms)
		}
		perHeader(b, n, dst)
	})
	b.Run("geth-hashed", func(b *testing.B) {
		scan := ethlogs.GethHashedScan(q.Addresses, q.Topics)
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			dst = scan(dst[:0], 0, f.blooms)
		}
		perHeader(b, n, dst)
	})
	b.Run("geth", func(b *testing.B) {
		var dst []uint64
		b.ReportAllocs()
		for b.Loop() {
			dst = dst[:0]
			for i := range f.blooms[:gethN] {
				if ethlogs.GethBloomFilter(types.Bloom(f.blooms[i]), q.Addresses, q.Topics) {
					dst = append(dst, uint64(i))
				}
			}
		}
		perHeader(b, gethN, dst)
	})
}

// bitVectors transposes the blooms for the bits m reads, one vector per
// distinct bit (bit i of word w: block 64w+i has the bloom bit set). It
// reads the blooms, not the index, so that the bound shares no code with
// what it bounds. The query is one value per clause, so the candidates are
// the AND of all these vectors.
func bitVectors(m *ethlogs.Matcher, blooms []ethlogs.Bloom) [][]uint64 {
	var rows [][]uint64
	seen := map[uint]bool{}
	for _, c := range m.Clauses() {
		if len(c) != 1 {
			panic("bitVectors: a clause with several values")
		}
		for _, bit := range c[0].Bits() {
			if seen[bit] {
				continue
			}
			seen[bit] = true
			row := make([]uint64, (len(blooms)+63)/64)
			at, mask := ethlogs.BloomLength-1-bit/8, byte(1)<<(bit%8)
			for i := range blooms {
				if blooms[i][at]&mask != 0 {
					row[i/64] |= 1 << (i % 64)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// andVectors appends the positions of the bits set in all rows: the rows
// ANDed six at a time in one pass over 8 KiB stretches of words (a missing
// row is the first again), the fastest way this machine ANDs vectors in Go,
// then the extraction any candidate list needs.
func andVectors(dst []uint64, rows [][]uint64) []uint64 {
	var res [1024]uint64
	for at := 0; at < len(rows[0]); at += len(res) {
		r := res[:min(len(res), len(rows[0])-at)]
		for k := 0; k < len(rows); k += 6 {
			var g [6][]uint64
			for j := range g {
				g[j] = rows[k][at : at+len(r)]
				if k+j < len(rows) {
					g[j] = rows[k+j][at : at+len(r)]
				}
			}
			a, b, c, d, e, f := g[0], g[1], g[2], g[3], g[4], g[5]
			for i := range r {
				w := a[i] & b[i] & c[i] & d[i] & e[i] & f[i]
				if k > 0 {
					w &= r[i]
				}
				r[i] = w
			}
		}
		for i, w := range r {
			for ; w != 0; w &= w - 1 {
				dst = append(dst, uint64((at+i)*64+bits.TrailingZeros64(w)))
			}
		}
	}
	return dst
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

// BenchmarkIndexOpen opens a cleanly closed index of 1,000,000 and
// 10,000,000 headers and runs one query (what a scan does first): warm,
// from the page cache, and cold, the index's files evicted from it first
// (posix_fadvise; Linux only). Open reads a fixed amount whatever the
// size; the query then checks the vectors it reads.
func BenchmarkIndexOpen(b *testing.B) {
	m := usdcTransfer.Compile()
	for _, n := range []int{1_000_000, 10_000_000} {
		f := getFixture(b, n)
		for _, cold := range []bool{false, true} {
			name := fmt.Sprintf("headers=%dM/warm", n/1_000_000)
			if cold {
				name = fmt.Sprintf("headers=%dM/cold", n/1_000_000)
			}
			b.Run(name+"/open", func(b *testing.B) {
				for b.Loop() {
					if cold {
						b.StopTimer()
						evict(b, f.dir)
						b.StartTimer()
					}
					x, err := index.Open(f.dir)
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					x.Close()
					b.StartTimer()
				}
			})
			b.Run(name+"/open+query", func(b *testing.B) {
				for b.Loop() {
					if cold {
						b.StopTimer()
						evict(b, f.dir)
						b.StartTimer()
					}
					x, err := index.Open(f.dir)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := x.Candidates(nil, m, 0, uint64(n)); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					x.Close()
					b.StartTimer()
				}
			})
		}
	}
}
