package lightclient

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/gcs/spv/wallet"
)

// keptSample is a wallet state with every part filled in.
func keptSample(t testing.TB) *kept {
	h := newHistory(t)
	pay := h.chain.blocks[4].Transactions[1]
	spend := h.chain.blocks[6].Transactions[1]
	b4 := block{height: 4, hash: h.chain.hash(4), txs: []spv.Tx{{Msg: pay, ID: pay.TxHash(), Block: h.chain.hash(4), Height: 4, Position: 1,
		Outputs: []spv.Output{{Index: 0, Value: pay.TxOut[0].Value}}}}}
	b6 := block{height: 6, hash: h.chain.hash(6), txs: []spv.Tx{{Msg: spend, ID: spend.TxHash(), Block: h.chain.hash(6), Height: 6, Position: 1,
		Inputs: []spv.Input{{Index: 0, Spends: h.pay}}}}}
	return &kept{birthday: 3, tweak: 0xdeadbeef, capacity: 400, rescan: 5, coins: []wire.OutPoint{{Hash: chainhash.Hash{9}, Index: 2}},
		blocks: []block{{height: 3, hash: h.chain.hash(3)}, b4, {height: 5, hash: h.chain.hash(5)}, b6}, reported: 3,
		wallet: wallet.Snapshot{Gap: 20, Chains: []wallet.ChainState{{Source: "addr(" + h.addr.EncodeAddress() + ")", Used: -1}}, Tip: 6,
			Txs: []wallet.TxState{{Msg: pay, Height: 4, Block: h.chain.hash(4)}, {Msg: spend, Height: 6, Block: h.chain.hash(6)},
				{Msg: spend, Height: wallet.Unconfirmed}}}}
}

// TestKeptRoundTrip encodes and decodes a wallet state and a peers file.
func TestKeptRoundTrip(t *testing.T) {
	k := keptSample(t)
	got, err := decodeKept(k.encode())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, k) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, k)
	}
	now := time.Unix(time.Now().Unix(), 0)
	p := &peersKept{bans: []Ban{{Key: "1.2.3.4", Peer: "1.2.3.4:8333", Reason: "lied", Since: now, Until: now.Add(time.Hour)}},
		known: map[string]knownAddr{"5.6.7.8:8333": {score: -2, good: now}, "9.9.9.9:8333": {}}}
	gotP, err := decodePeers(p.encode())
	if err != nil || !reflect.DeepEqual(gotP, p) {
		t.Errorf("peers decoded %+v, %v; want %+v", gotP, err, p)
	}
}

// FuzzKept decodes arbitrary wallet files: no panic, and what decodes
// encodes back to the same bytes (one encoding per state).
func FuzzKept(f *testing.F) {
	f.Add(keptSample(f).encode())
	f.Add((&kept{rescan: -1, wallet: wallet.Snapshot{Gap: 1, Tip: -1}}).encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := decodeKept(b)
		if err != nil {
			return
		}
		if got := k.encode(); !bytes.Equal(got, b) {
			t.Fatalf("decode then encode changed the file:\n%x\n%x", b, got)
		}
	})
}

// FuzzPeers decodes arbitrary peers files: no panic, and what decodes
// decodes the same once encoded again.
func FuzzPeers(f *testing.F) {
	now := time.Unix(1800000000, 0)
	f.Add((&peersKept{bans: []Ban{{Key: "k", Peer: "p", Reason: "r", Since: now, Until: now}},
		known: map[string]knownAddr{"a:1": {score: 3, good: now}}}).encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodePeers(b)
		if err != nil {
			return
		}
		again, err := decodePeers(p.encode())
		if err != nil || !reflect.DeepEqual(again, p) {
			t.Fatalf("re-encoded peers file decodes to %+v, %v; want %+v", again, err, p)
		}
	})
}
