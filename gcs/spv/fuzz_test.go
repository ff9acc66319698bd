package spv

import (
	"bytes"
	"errors"
	"testing"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// FuzzConnect feeds headers from a hostile peer to a regtest chain of
// height 3: Connect must not panic, must reject with ErrMisbehaving or
// accept, and everything it accepts must link to the chain and meet its
// target.
func FuzzConnect(f *testing.F) {
	genesis := Regtest.Params.GenesisBlock.Header
	var seed bytes.Buffer
	for _, h := range extend(genesis, 6)[3:] {
		h.Serialize(&seed)
	}
	f.Add(seed.Bytes())
	f.Add(seed.Bytes()[:80])
	f.Add(append(seed.Bytes()[:160], 0xff))
	f.Fuzz(func(t *testing.T, data []byte) {
		var hs []*wire.BlockHeader
		for r := bytes.NewReader(data); r.Len() >= 80 && len(hs) < 10; {
			h := new(wire.BlockHeader)
			if err := h.Deserialize(r); err != nil {
				return
			}
			hs = append(hs, h)
		}
		c := regtestChain(t, 3)
		n, err := c.Connect(hs)
		if err != nil && (!errors.Is(err, ErrMisbehaving) || n != 0) {
			t.Fatalf("Connect() = %d, %v: want 0 and an error wrapping ErrMisbehaving", n, err)
		}
		for h := int32(1); h <= c.Height(); h++ {
			hdr, hash := headerAt(t, c, h), hashAt(t, c, h)
			if hdr.PrevBlock != hashAt(t, c, h-1) || hdr.BlockHash() != hash ||
				blockchain.HashToBig(&hash).Cmp(blockchain.CompactToBig(hdr.Bits)) > 0 {
				t.Fatalf("accepted header %d does not link or meet its target", h)
			}
		}
	})
}

// FuzzVerifyBlock checks VerifyBlock against btcd's merkle root on
// hostile blocks: whatever it accepts has the header's root by btcd's
// computation too, and no pair of equal leaves.
func FuzzVerifyBlock(f *testing.F) {
	var seed bytes.Buffer
	randomBlock(newRand(), 5).Serialize(&seed)
	f.Add(seed.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		var b wire.MsgBlock
		if err := b.Deserialize(bytes.NewReader(data)); err != nil {
			return
		}
		txids, err := VerifyBlock(&b, b.BlockHash())
		if err != nil {
			return
		}
		var txs []*btcutil.Tx
		for i, tx := range b.Transactions {
			txs = append(txs, btcutil.NewTx(tx))
			if txids[i] != tx.TxHash() {
				t.Fatalf("txid %d = %s, want %s", i, txids[i], tx.TxHash())
			}
		}
		if root := blockchain.CalcMerkleRoot(txs, false); root != b.Header.MerkleRoot {
			t.Fatalf("VerifyBlock accepted a block whose merkle root by btcd is %s, header %s", root, b.Header.MerkleRoot)
		}
		for i := 0; i+1 < len(txids); i += 2 {
			if txids[i] == txids[i+1] {
				t.Fatalf("VerifyBlock accepted transactions %d and %d, the same %s", i, i+1, txids[i])
			}
		}
	})
}
