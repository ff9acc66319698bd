package bip37

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// randomBlock returns a block of n random transactions with a correct merkle
// root.
func randomBlock(r *rand.Rand, n int, keys [][]byte) *wire.MsgBlock {
	block := &wire.MsgBlock{Header: wire.BlockHeader{Version: 4, Timestamp: time.Unix(1700000000, 0), Bits: 0x207fffff, Nonce: r.Uint32()}}
	block.Transactions = randomTxs(r, n, keys)
	txids := make([]chainhash.Hash, n)
	for i, tx := range block.Transactions {
		txids[i] = tx.TxHash()
	}
	block.Header.MerkleRoot = referenceRoot(txids)
	return block
}

// TestNewMerkleBlockMatchesBTCD builds merkle blocks for random blocks with
// both libraries from the same filter bytes (loaded into btcd, so that both
// hash with the same parameters): the messages, byte for byte, the matched
// transactions and the updated filters must agree, unless a transaction
// hits a documented divergence.
func TestNewMerkleBlockMatchesBTCD(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	compared := 0
	for round := range 300 {
		keys := randomKeys(r, 8)
		block := randomBlock(r, 1+r.IntN(30), keys)
		ours, _ := New(10, 0.001, r.Uint32(), Flags(round%3))
		for _, k := range keys[:1] {
			ours.Add(k[:20])
		}
		if divergent(ours.Clone(), block) {
			continue
		}
		theirs := bloom.LoadFilter(ours.MsgFilterLoad())
		msg, matches := NewMerkleBlock(block, ours)
		want, indices := bloom.NewMerkleBlock(btcutil.NewBlock(block), theirs)
		if got, w := AppendMerkleBlock(nil, msg), wireMerkleBlock(t, want); !bytes.Equal(got, w) {
			t.Fatalf("round %d: merkleblock %x, btcd %x", round, got, w)
		}
		if !slices.Equal(matchIndices(matches), indices) {
			t.Fatalf("round %d: matched %v, btcd %v", round, matchIndices(matches), indices)
		}
		if ob, tb := mustMarshal(t, ours), wireFilterLoad(t, theirs.MsgFilterLoad()); !bytes.Equal(ob, tb) {
			t.Fatalf("round %d: filter after the block %x, btcd %x", round, ob, tb)
		}
		verified, err := VerifyMerkleBlock(msg)
		if err != nil || !slices.Equal(verified, matches) {
			t.Fatalf("round %d: VerifyMerkleBlock = %v, %v, want the %d matches", round, verified, err, len(matches))
		}
		compared++
	}
	if compared < 100 {
		t.Errorf("compared %d blocks, want at least 100", compared)
	}
}

// divergent reports whether matching the block in order with f hits a
// documented divergence; it updates f as it goes.
func divergent(f *Filter, block *wire.MsgBlock) bool {
	for _, tx := range block.Transactions {
		if divergence(f, tx) != "" {
			return true
		}
		f.MatchTx(tx, tx.TxHash())
	}
	return false
}

func TestVerifyMerkleBlockRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	keys := randomKeys(r, 4)
	block := randomBlock(r, 9, keys)
	f, _ := New(10, 1e-6, 0, UpdateNone)
	f.AddHash(block.Transactions[5].TxHash())
	msg, _ := NewMerkleBlock(block, f)

	wrongRoot := *msg
	wrongRoot.Header.MerkleRoot[0] ^= 1
	if _, err := VerifyMerkleBlock(&wrongRoot); err == nil || !strings.Contains(err.Error(), "is not the header's merkle root") {
		t.Errorf("VerifyMerkleBlock(wrong root) error = %v, want a root mismatch", err)
	}
	nilHash := *msg
	nilHash.Hashes = slices.Clone(msg.Hashes)
	nilHash.Hashes[1] = nil
	if _, err := VerifyMerkleBlock(&nilHash); err == nil {
		t.Errorf("VerifyMerkleBlock(nil hash) = nil error")
	}
	extra := *msg
	extra.Flags = append(slices.Clone(msg.Flags), 0)
	if _, err := VerifyMerkleBlock(&extra); err == nil || !strings.Contains(err.Error(), block.BlockHash().String()) {
		t.Errorf("VerifyMerkleBlock(extra flag byte) error = %v, want one naming block %s", err, block.BlockHash())
	}
}

// TestDecodeMerkleBlockMatchesBTCD decodes what btcd encodes and encodes
// what it decodes, and rejects every truncation.
func TestDecodeMerkleBlockMatchesBTCD(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	block := randomBlock(r, 25, randomKeys(r, 4))
	f, _ := New(10, 1e-6, 0, UpdateNone)
	f.AddHash(block.Transactions[24].TxHash())
	msg, _ := NewMerkleBlock(block, f)
	enc := wireMerkleBlock(t, msg)
	got, err := DecodeMerkleBlock(enc)
	if err != nil {
		t.Fatal(err)
	}
	if again := AppendMerkleBlock(nil, got); !bytes.Equal(again, enc) {
		t.Errorf("AppendMerkleBlock(DecodeMerkleBlock(b)) = %x, want %x", again, enc)
	}
	if got.Header.BlockHash() != block.BlockHash() {
		t.Errorf("decoded header hash %s, want %s", got.Header.BlockHash(), block.BlockHash())
	}
	for n := range len(enc) {
		if _, err := DecodeMerkleBlock(enc[:n]); err == nil {
			t.Errorf("DecodeMerkleBlock(first %d of %d bytes) = nil error", n, len(enc))
		}
	}
	if _, err := DecodeMerkleBlock(append(enc, 0)); err == nil || !strings.Contains(err.Error(), "unexpected bytes") {
		t.Errorf("DecodeMerkleBlock(trailing byte) error = %v", err)
	}
}

func matchIndices(ms []Match) []uint32 {
	var out []uint32
	for _, m := range ms {
		out = append(out, m.Index)
	}
	return out
}

func mustMarshal(t testing.TB, f *Filter) []byte {
	t.Helper()
	b, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireMerkleBlock encodes a merkleblock message with btcd.
func wireMerkleBlock(t testing.TB, msg *wire.MsgMerkleBlock) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := msg.BtcEncode(&buf, wire.ProtocolVersion, wire.BaseEncoding); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
