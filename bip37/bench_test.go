package bip37

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors"
	"github.com/twmb/murmur3"
)

// Comparison benchmarks: chainsieve and btcd's btcutil/bloom side by side.
// docs/performance.md records a run of
//
//	go test -run '^$' -bench . -benchmem -count 8 -benchtime 300ms ./bip37 | go run ./cmd/chainsieve bench compare

// benchElements returns n distinct 32-byte elements, the size of the txids
// and witness programs wallets insert.
func benchElements(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		h := sha256.Sum256(b[:])
		out[i] = h[:]
	}
	return out
}

// BenchmarkMurmurHash3 hashes a 32-byte element beside btcd's MurmurHash3
// and twmb/murmur3's SeedSum32 (pure Go, the most used Go implementation).
func BenchmarkMurmurHash3(b *testing.B) {
	data := benchElements(1)[0]
	var sink uint32
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink += MurmurHash3(uint32(i), data)
		}
	})
	b.Run("btcd", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink += bloom.MurmurHash3(uint32(i), data)
		}
	})
	b.Run("twmb", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			sink += murmur3.SeedSum32(uint32(i), data)
		}
	})
	_ = sink
}

// BenchmarkAdd inserts 32-byte elements into a filter sized for 1,000
// elements at 1e-6: 3,594 bytes and 19 hash functions in both libraries.
func BenchmarkAdd(b *testing.B) {
	elems := benchElements(1000)
	b.Run("chainsieve", func(b *testing.B) {
		f, _ := New(1000, 1e-6, 7, UpdateNone)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			f.Add(elems[i%len(elems)])
		}
	})
	b.Run("btcd", func(b *testing.B) {
		f := bloom.NewFilter(1000, 7, 1e-6, wire.BloomUpdateNone)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			f.Add(elems[i%len(elems)])
		}
	})
}

// BenchmarkContains tests 32-byte elements against the same filter holding
// its 1,000 elements (half its bits set): members take all 19 probes,
// non-members stop at the first clear bit, after two probes on average.
func BenchmarkContains(b *testing.B) {
	elems := benchElements(2000)
	ours, _ := New(1000, 1e-6, 7, UpdateNone)
	theirs := bloom.NewFilter(1000, 7, 1e-6, wire.BloomUpdateNone)
	for _, e := range elems[:1000] {
		ours.Add(e)
		theirs.Add(e)
	}
	var sink bool
	for _, c := range []struct {
		name  string
		elems [][]byte
	}{{"member", elems[:1000]}, {"nonmember", elems[1000:]}} {
		b.Run(c.name+"/chainsieve", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != ours.Contains(c.elems[i%len(c.elems)])
			}
		})
		b.Run(c.name+"/btcd", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				sink = sink != theirs.Matches(c.elems[i%len(c.elems)])
			}
		})
	}
}

// benchBlock is block 0000000000013b8a… (9 transactions) from Core's
// merkle_block_1 test, and a filter (Core's 10 elements at 1e-6, UPDATE_ALL)
// holding the txid of its last transaction and an output key hash of its
// seventh: two of nine match, the rest are scanned to the end.
func benchBlock(b *testing.B) (*wire.MsgBlock, *Filter) {
	data, _ := testvectors.Read("bip37/merkle_blocks.json")
	file, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil {
		b.Fatal(err)
	}
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(file.Vectors[0].Block)); err != nil {
		b.Fatal(err)
	}
	f, _ := New(10, 1e-6, 0, UpdateAll)
	f.AddHash(block.Transactions[8].TxHash())
	f.Add(block.Transactions[6].TxOut[0].PkScript[3:23])
	return &block, f
}

// BenchmarkMatchBlock matches every transaction of the block, txids
// computed beforehand (btcd caches them in its btcutil.Tx wrappers), with
// the sparse filter of benchBlock and with one at its design load (1,000
// random elements at 1e-4: 2,396 bytes, 13 functions, half the bits set),
// where a non-member takes two probes on average instead of one.
func BenchmarkMatchBlock(b *testing.B) {
	block, sparse := benchBlock(b)
	loaded, _ := New(1000, 1e-4, 0, UpdateAll)
	for _, e := range benchElements(1000) {
		loaded.Add(e)
	}
	for _, c := range []struct {
		name string
		f    *Filter
	}{{"sparse", sparse}, {"loaded", loaded}} {
		b.Run(c.name+"/chainsieve", func(b *testing.B) {
			benchMatchOurs(b, block, c.f.Clone())
		})
		b.Run(c.name+"/btcd", func(b *testing.B) {
			benchMatchBTCD(b, block, bloom.LoadFilter(c.f.MsgFilterLoad()))
		})
	}
}

func benchMatchOurs(b *testing.B, block *wire.MsgBlock, f *Filter) {
	txids := make([]chainhash.Hash, len(block.Transactions))
	for i, tx := range block.Transactions {
		txids[i] = tx.TxHash()
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, tx := range block.Transactions {
			f.MatchTx(tx, txids[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(txids)), "ns/tx")
}

func benchMatchBTCD(b *testing.B, block *wire.MsgBlock, f *bloom.Filter) {
	txs := btcutil.NewBlock(block).Transactions()
	for _, tx := range txs {
		tx.Hash()
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, tx := range txs {
			f.MatchTxAndUpdate(tx)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(txs)), "ns/tx")
}

// BenchmarkMerkleBlock builds the merkle block from the decoded block, txids
// included, as a node serving a filtered-block request does.
func BenchmarkMerkleBlock(b *testing.B) {
	block, f := benchBlock(b)
	b.Run("chainsieve", func(b *testing.B) {
		ours := f.Clone()
		b.ReportAllocs()
		for b.Loop() {
			NewMerkleBlock(block, ours)
		}
	})
	b.Run("btcd", func(b *testing.B) {
		theirs := bloom.LoadFilter(f.MsgFilterLoad())
		b.ReportAllocs()
		for b.Loop() {
			bloom.NewMerkleBlock(btcutil.NewBlock(block), theirs)
		}
	})
}

// BenchmarkVerifyMerkleBlock verifies the block's merkle block proving two
// transactions. btcd has no client-side verifier, so only ours runs.
func BenchmarkVerifyMerkleBlock(b *testing.B) {
	block, f := benchBlock(b)
	msg, _ := NewMerkleBlock(block, f)
	b.Run("chainsieve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := VerifyMerkleBlock(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
}
