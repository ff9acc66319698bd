package spv

import (
	"testing"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// regtestBits is the regtest proof-of-work limit, the bits every regtest
// block carries.
const regtestBits = 0x207fffff

// newHeader returns a header after prev, with a merkle root naming it, whose
// nonce makes its hash meet bits' target (about every second nonce does
// for regtest bits) or, if above is true, exceed it.
func newHeader(prev *wire.BlockHeader, ts time.Time, bits uint32, above bool) wire.BlockHeader {
	h := wire.BlockHeader{Version: 4, PrevBlock: prev.BlockHash(), Timestamp: ts, Bits: bits}
	h.MerkleRoot = chainhash.DoubleHashH(h.PrevBlock[:])
	target := blockchain.CompactToBig(bits)
	for ; ; h.Nonce++ {
		hash := h.BlockHash()
		if meets := blockchain.HashToBig(&hash).Cmp(target) <= 0; meets != above {
			return h
		}
	}
}

// extend returns n valid regtest headers after prev, ten minutes apart.
func extend(prev wire.BlockHeader, n int) []wire.BlockHeader {
	return extendEvery(prev, n, 10*time.Minute)
}

// extendEvery returns n valid regtest headers after prev, gap apart: a
// gap other than another chain's makes a fork.
func extendEvery(prev wire.BlockHeader, n int, gap time.Duration) []wire.BlockHeader {
	hs := make([]wire.BlockHeader, n)
	for i := range hs {
		hs[i] = newHeader(&prev, prev.Timestamp.Add(gap), regtestBits, false)
		prev = hs[i]
	}
	return hs
}

func ptrs(hs []wire.BlockHeader) []*wire.BlockHeader {
	ps := make([]*wire.BlockHeader, len(hs))
	for i := range hs {
		ps[i] = &hs[i]
	}
	return ps
}

// regtestChain returns a regtest chain of height n.
func regtestChain(t *testing.T, n int) *Chain {
	t.Helper()
	c, err := NewChain(Regtest)
	if err != nil {
		t.Fatal(err)
	}
	if added, err := c.Connect(ptrs(extend(headerAt(t, c, 0), n))); added != n || err != nil {
		t.Fatalf("Connect(%d headers) = %d, %v, want %d, nil", n, added, err, n)
	}
	return c
}

// headerAt returns c's header at height, failing the test on error.
func headerAt(t testing.TB, c *Chain, height int32) wire.BlockHeader {
	t.Helper()
	h, err := c.Header(height)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// hashAt returns the hash of c's block at height, failing the test on
// error.
func hashAt(t testing.TB, c *Chain, height int32) chainhash.Hash {
	t.Helper()
	h, err := c.Hash(height)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
