package lightclient

import (
	"fmt"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// keptWallet is the state of a descriptor wallet (receiving and change,
// used to index txs/4 each) with txs transactions, one a block, and the
// window of reported blocks full: what a busy wallet's file holds.
func keptWallet(b *testing.B, txs int) *kept {
	acct := spvtest.NewAccount(b, spv.Regtest.Params)
	w, err := wallet.New(wallet.DefaultGap, acct.Desc)
	if err != nil {
		b.Fatal(err)
	}
	used := uint32(txs / 4)
	for chain := range 2 {
		if _, err := w.Scripts.MarkUsed(chain, used); err != nil {
			b.Fatal(err)
		}
	}
	const birthday = 100
	last := int32(birthday + txs + 10)
	k := &kept{birthday: birthday, tweak: 7, rescan: -1}
	byHeight := make(map[int32]*wire.MsgTx)
	for i := range txs {
		d := w.Scripts.Watched()[i%len(w.Scripts.Watched())]
		tx := wire.NewMsgTx(2)
		tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{byte(i), byte(i >> 8), byte(i >> 16)}}, nil, [][]byte{make([]byte, 72), make([]byte, 33)}))
		tx.AddTxOut(wire.NewTxOut(int64(1000+i), d.Script))
		tx.AddTxOut(wire.NewTxOut(5000, []byte{0x00, 0x14, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}))
		byHeight[int32(birthday+i)] = tx
	}
	for h := int32(birthday); h <= last; h++ {
		blk := block{height: h, hash: chainhash.Hash{0xbb, byte(h), byte(h >> 8), byte(h >> 16)}}
		var msgs []*wire.MsgTx
		if tx, ok := byHeight[h]; ok {
			msgs = append(msgs, tx)
			blk.txs = []spv.Tx{{Msg: tx, ID: tx.TxHash(), Block: blk.hash, Height: h, Position: 1, Outputs: []spv.Output{{Index: 0, Value: tx.TxOut[0].Value}}}}
		}
		if _, err := w.Ledger.Connect(wallet.Block{Height: h, Hash: blk.hash}, msgs); err != nil {
			b.Fatal(err)
		}
		if last-h < spv.DefaultWindow {
			k.blocks = append(k.blocks, blk)
		}
	}
	k.reported = len(k.blocks)
	if k.wallet, err = w.Snapshot(); err != nil {
		b.Fatal(err)
	}
	return k
}

// BenchmarkKept measures what a restart pays to take a wallet's state up
// (decode the file, derive its scripts, replay its ledger) and what each
// commit pays to encode it, for wallets of 1,000 and 10,000
// transactions. file-MB is the file's size.
func BenchmarkKept(b *testing.B) {
	for _, txs := range []int{1000, 10000} {
		k := keptWallet(b, txs)
		file := k.encode()
		b.Run(fmt.Sprintf("encode/txs=%d", txs), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				k.encode()
			}
			b.ReportMetric(float64(len(file))/1e6, "file-MB")
		})
		b.Run(fmt.Sprintf("restore/txs=%d", txs), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(file)))
			for b.Loop() {
				got, err := decodeKept(file)
				if err != nil {
					b.Fatal(err)
				}
				w, err := wallet.Restore(got.wallet, spv.Regtest.Params)
				if err != nil {
					b.Fatal(err)
				}
				if err := outputAddresses(got.blocks, w.Scripts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(file))/1e6, "file-MB")
		})
	}
}
