//go:build storebench

package index

// The store-choice measurement behind docs/ethlogs.md: the same sections in
// this package's files and in pebble through go-ethereum's ethdb/pebble
// (the store geth itself uses, with its settings), keyed bit-major as
// geth's former bloombits were, so that a bit's vectors over consecutive
// sections are adjacent. Not built by default (pebble is a large build):
//
//	go test -tags storebench -run XXX -bench Store -benchtime 3x ./ethlogs/index/

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/testvectors/benchdata"
	"github.com/ethereum/go-ethereum/common"
	gethpebble "github.com/ethereum/go-ethereum/ethdb/pebble"
)

const storeHeaders = 256 * SectionSize // 1,048,576 headers, one epoch

func storeQuery() *ethlogs.Matcher {
	q := ethlogs.Query{
		Addresses: []common.Address{common.HexToAddress("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")},
		Topics:    [][]common.Hash{{common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")}},
	}
	return q.Compile()
}

func vectorKey(bit int, section uint64) []byte {
	k := binary.BigEndian.AppendUint16([]byte{'B'}, uint16(bit))
	return binary.BigEndian.AppendUint64(k, section)
}

// buildPebble stores every section's vectors, one key per (bit, section),
// a batch per section.
func buildPebble(b *testing.B, dir string, blooms []ethlogs.Bloom) *gethpebble.Database {
	db, err := gethpebble.New(dir, 512, 256, "", false)
	if err != nil {
		b.Fatal(err)
	}
	x := &Index{vectors: new([bloomBits][SectionSize / 64]uint64)}
	vec := make([]byte, vectorBytes)
	for s := range uint64(len(blooms) / SectionSize) {
		x.tail = x.tail[:0]
		for i := range SectionSize {
			x.tail = append(x.tail, tailBlock{bloom: blooms[s*SectionSize+uint64(i)]})
		}
		x.transposeTail()
		batch := db.NewBatch()
		for bit := range bloomBits {
			putVector(vec, &x.vectors[bit])
			batch.Put(vectorKey(bit, s), vec)
		}
		if err := batch.Write(); err != nil {
			b.Fatal(err)
		}
	}
	return db
}

// pebbleCandidates evaluates the clauses the way Index.epochCandidates
// does, reading each bit's vectors with one iterator over its key range.
func pebbleCandidates(db *gethpebble.Database, m *ethlogs.Matcher, sections uint64) int {
	words := int(sections) * SectionSize / 64
	result, clause, value := make([]uint64, words), make([]uint64, words), make([]uint64, words)
	fill := func(v []uint64, w uint64) {
		for i := range v {
			v[i] = w
		}
	}
	fill(result, ^uint64(0))
	for _, c := range m.Clauses() {
		fill(clause, 0)
		for _, v := range c {
			fill(value, ^uint64(0))
			for _, bit := range v.Bits() {
				it := db.NewIterator(vectorKey(int(bit), 0)[:3], nil)
				for s := 0; it.Next() && s < int(sections); s++ {
					val := it.Value()
					for i := range SectionSize / 64 {
						value[s*SectionSize/64+i] &= binary.LittleEndian.Uint64(val[8*i:])
					}
				}
				it.Release()
			}
			for i := range clause {
				clause[i] |= value[i]
			}
		}
		andInto(result, clause)
	}
	n := 0
	for _, w := range result {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

func buildFiles(b *testing.B, dir string, blooms []ethlogs.Bloom) *Index {
	x, err := Create(dir, 0)
	if err != nil {
		b.Fatal(err)
	}
	for i := range uint64(len(blooms)) {
		if err := x.AppendBloom(i, benchdata.Hash(i+1), benchdata.Hash(i), &blooms[i]); err != nil {
			b.Fatal(err)
		}
	}
	return x
}

func diskUsage(b *testing.B, dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

func BenchmarkStore(b *testing.B) {
	blooms, err := benchdata.Blooms(storeHeaders, 1)
	if err != nil {
		b.Fatal(err)
	}
	m := storeQuery()
	want := len(m.Scan(nil, 0, blooms))
	b.Run("files/build", func(b *testing.B) {
		for b.Loop() {
			dir := b.TempDir()
			buildFiles(b, dir, blooms).Close()
			b.ReportMetric(float64(diskUsage(b, dir))/(1<<20), "MiB")
		}
		b.ReportMetric(float64(storeHeaders)*float64(b.N)/b.Elapsed().Seconds(), "headers/s")
	})
	b.Run("pebble/build", func(b *testing.B) {
		for b.Loop() {
			dir := b.TempDir()
			db := buildPebble(b, dir, blooms)
			db.Compact(nil, nil)
			db.Close()
			b.ReportMetric(float64(diskUsage(b, dir))/(1<<20), "MiB")
		}
		b.ReportMetric(float64(storeHeaders)*float64(b.N)/b.Elapsed().Seconds(), "headers/s")
	})
	b.Run("files/query", func(b *testing.B) {
		x := buildFiles(b, b.TempDir(), blooms)
		defer x.Close()
		b.ResetTimer()
		for b.Loop() {
			got, _ := x.Candidates(nil, m, 0, storeHeaders)
			if len(got) != want {
				b.Fatalf("files: %d candidates, want %d", len(got), want)
			}
		}
	})
	b.Run("pebble/query", func(b *testing.B) {
		db := buildPebble(b, b.TempDir(), blooms)
		defer db.Close()
		b.ResetTimer()
		for b.Loop() {
			if got := pebbleCandidates(db, m, storeHeaders/SectionSize); got != want {
				b.Fatalf("pebble: %d candidates, want %d", got, want)
			}
		}
	})
}
