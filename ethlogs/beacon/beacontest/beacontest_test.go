package beacontest

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/light/api"
	"github.com/ethereum/go-ethereum/beacon/merkle"
	"github.com/ethereum/go-ethereum/beacon/params"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	blsu "github.com/protolambda/bls12-381-util"
)

func TestTreeBranches(t *testing.T) {
	leaves := map[uint64]merkle.Value{86: {1}, 87: {2}, 169: {3}, 2945: {4}}
	tr := newTree(7, leaves)
	for g, v := range leaves {
		if err := merkle.VerifyProof(tr.root(), g, tr.branch(g), v); err != nil {
			t.Errorf("branch of leaf %d: %v", g, err)
		}
	}
	if newTree(8, leaves).root() == tr.root() {
		t.Error("trees of other salts have the same root")
	}
	root := tr.root()
	leaves[86] = merkle.Value{9}
	if newTree(7, leaves).root() == root {
		t.Error("changing a leaf leaves the root")
	}
}

// TestCommitteeSign checks the summed-key shortcut against BLS itself:
// the signature of the first n members equals the aggregate of their n
// signatures, and go-ethereum's verification accepts it for exactly them.
func TestCommitteeSign(t *testing.T) {
	k, err := newCommittee("test", 1)
	if err != nil {
		t.Fatal(err)
	}
	msg := common.HexToHash("0x5157")
	const n = 5
	agg, err := k.sign(n, msg)
	if err != nil {
		t.Fatal(err)
	}
	var sigs []*blsu.Signature
	for i := range n {
		sk, err := secretKey(k.secrets[i])
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, blsu.Sign(sk, msg[:]))
	}
	want, err := blsu.Aggregate(sigs)
	if err != nil {
		t.Fatal(err)
	}
	if want.Serialize() != agg.Signature {
		t.Fatal("the summed-key signature differs from the aggregate of the members' signatures")
	}
	keys, err := k.serialized.Deserialize()
	if err != nil {
		t.Fatal(err)
	}
	if !keys.VerifySignature(msg, &agg) {
		t.Fatal("go-ethereum rejects the aggregate signature")
	}
	agg.Signers[0] ^= 1 << 7 // one more member claimed
	if keys.VerifySignature(msg, &agg) {
		t.Fatal("go-ethereum accepts the signature for other signers")
	}
	other, err := newCommittee("test", 2)
	if err != nil {
		t.Fatal(err)
	}
	if other.root == k.root {
		t.Fatal("two periods share a committee")
	}
}

func TestPayloadHeader(t *testing.T) {
	blobGas := uint64(7)
	h := &types.Header{Number: big.NewInt(12), Difficulty: new(big.Int), BaseFee: big.NewInt(1e9), GasLimit: 3, GasUsed: 2,
		Time: 99, Extra: []byte("x"), ReceiptHash: common.Hash{4}, Bloom: types.Bloom{5}, BlobGasUsed: &blobGas}
	p, err := payloadHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if common.Hash(p.BlockHash) != h.Hash() || p.BlockNumber != 12 || common.Hash(p.ReceiptsRoot) != h.ReceiptHash ||
		p.LogsBloom != h.Bloom || p.BaseFeePerGas.Uint64() != 1e9 || p.BlobGasUsed != 7 || p.Timestamp != 99 {
		t.Errorf("payloadHeader = %+v, want the fields of %+v", p, h)
	}
	h.Extra = make([]byte, 33)
	if _, err := payloadHeader(h); err == nil {
		t.Error("payloadHeader(33 bytes of extra data) = nil error")
	}
}

// TestOptimisticUpdate reads the optimistic update with go-ethereum's
// client and checks its proof and signature.
func TestOptimisticUpdate(t *testing.T) {
	c, err := NewChain(Options{Finalized: &types.Header{Number: big.NewInt(1), Difficulty: new(big.Int), BaseFee: big.NewInt(1)}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Serve(Honest, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := api.NewBeaconLightApi(s.URL, nil, c.Config()).GetOptimisticUpdate()
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Validate(c.Config()); err != nil {
		t.Fatal(err)
	}
	keys, err := c.committees[FirstPeriod].serialized.Deserialize()
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := c.config.Forks.SigningRoot(c.signingEpoch(u.SignatureSlot), u.Attested.Hash())
	if u.Attested.Hash() != c.finality.attested.root() || !keys.VerifySignature(msg, &u.Signature) {
		t.Fatalf("optimistic update %+v is not the signed head", u)
	}
	if n, _ := s.Stats(); n != 1 {
		t.Errorf("Stats counted %d requests, want 1", n)
	}
}

func TestOptionsAndLies(t *testing.T) {
	if _, err := NewChain(Options{}); err == nil {
		t.Error("NewChain without Finalized = nil error")
	}
	h := &types.Header{Number: big.NewInt(1), Difficulty: new(big.Int)}
	if _, err := NewChain(Options{Finalized: h, Periods: 8}); err == nil {
		t.Error("NewChain with 8 periods = nil error")
	}
	seen := map[string]bool{}
	for _, l := range append(Lies(), Honest) {
		if seen[l.String()] || l.String() == "lie(?)" {
			t.Errorf("lie %d has name %q, taken or missing", l, l)
		}
		seen[l.String()] = true
	}
	if len(Lies()) != int(lies)-1 || params.SyncCommitteeSupermajority-1 != 341 {
		t.Error("Lies() misses some lies")
	}
}
