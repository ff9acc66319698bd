package scan_test

import (
	"context"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// BenchmarkTxProof measures what proving transactionHash costs, on the
// demo chain (zero to three transactions a block) and on a block-heavy one
// (200 transactions a block, as full as mainnet's), for the DEMO token's
// Transfers, with a warm index (so that each run is the receipts phase):
//
//   - chainsieve: the default: receipts of the bloom candidates, then the
//     transactions of the blocks with matches, proven against
//     transactionsRoot;
//   - bound: the same scan with TrustTxHashes, the lower bound the proof
//     adds to.
//
// tx-B/block is the JSON of the transactions fetched per block with
// matches, rx-B/block that of the receipts per candidate.
func BenchmarkTxProof(b *testing.B) {
	for _, chain := range []struct {
		name        string
		blocks, txs int
	}{{"demo", demo.DefaultBlocks, 0}, {"dense", 40, 200}} {
		b.Run(chain.name, func(b *testing.B) {
			c, err := demo.StartDense(chain.blocks, chain.txs)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}, Topics: [][]common.Hash{{transferTopic}}}
			dir := b.TempDir()
			run := func(b *testing.B, trust bool) scan.Stats {
				st, err := scan.Run(context.Background(), scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: dir,
					TrustTxHashes: trust, Emit: func([]*types.Log) error { return nil }})
				if err != nil {
					b.Fatal(err)
				}
				return st
			}
			run(b, true) // the index
			for _, sub := range []struct {
				name  string
				trust bool
			}{{"chainsieve", false}, {"bound", true}} {
				b.Run(sub.name, func(b *testing.B) {
					b.ReportAllocs()
					var st scan.Stats
					for b.Loop() {
						st = run(b, sub.trust)
					}
					b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(st.Matched), "µs/matched-block")
					b.ReportMetric(float64(st.ReceiptBytes-st.TxBytes)/float64(st.Candidates), "rx-B/block")
					if st.TxProven > 0 {
						b.ReportMetric(float64(st.TxBytes)/float64(st.TxProven), "tx-B/block")
					}
				})
			}
		})
	}
}
