package cfscan

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// TestFilterAllocs pins the per-filter path, checking a filter against the
// filter-header chain and matching it, at zero allocations.
func TestFilterAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	chain, err := spv.NewChain(spv.Regtest)
	if err != nil {
		t.Fatal(err)
	}
	genesis, err := chain.Header(0)
	if err != nil {
		t.Fatal(err)
	}
	next := wire.BlockHeader{Version: 4, PrevBlock: chain.Tip(), Timestamp: genesis.Timestamp.Add(time.Minute), Bits: genesis.Bits}
	for ; ; next.Nonce++ {
		if _, err := chain.Connect([]*wire.BlockHeader{&next}); err == nil {
			break
		}
	}
	hash := chain.Tip()
	var items, wallet [][]byte
	for i := range 40 {
		items = append(items, []byte{0x00, 0x14, byte(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
	}
	for i := range 100 {
		wallet = append(wallet, []byte{0x51, 0x20, byte(i), byte(i >> 8), 9, 9, 9})
	}
	f, err := gcs.Build(gcs.Params{P: gcs.BasicP, M: gcs.BasicM}, gcs.BasicKey(hash), items)
	if err != nil {
		t.Fatal(err)
	}
	prev := chainhash.Hash{7}
	r := &scanner{Config: Config{Chain: chain, From: 1, To: 1}, query: gcs.NewQuery(wallet), lo: 1,
		hashes: []chainhash.Hash{hash}, fheaders: []chainhash.Hash{prev, f.Header(prev)}}
	msg := wire.NewMsgCFilter(wire.GCSFilterRegular, &hash, f.Bytes())
	check := func() {
		g, err := r.verify(1, msg)
		if err != nil || r.matches(&g, msg.Data) {
			t.Fatalf("verify, match = %v, want a verified filter that does not match", err)
		}
	}
	check()
	if n := testing.AllocsPerRun(100, check); n != 0 {
		t.Errorf("verifying and matching a filter allocates %v times, want 0", n)
	}
}
