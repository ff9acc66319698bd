package bip37

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// referenceRoot computes a merkle root level by level, duplicating the last
// hash of an odd level: the textbook algorithm, independent of the
// depth-first walk under test.
func referenceRoot(txids []chainhash.Hash) chainhash.Hash {
	level := slices.Clone(txids)
	for len(level) > 1 {
		if len(level)%2 == 1 {
			level = append(level, level[len(level)-1])
		}
		next := level[:0:0]
		for i := 0; i < len(level); i += 2 {
			next = append(next, chainhash.DoubleHashH(append(level[i][:], level[i+1][:]...)))
		}
		level = next
	}
	return level[0]
}

func randomTxids(r *rand.Rand, n int) []chainhash.Hash {
	txids := make([]chainhash.Hash, n)
	for i := range txids {
		txids[i] = chainhash.Hash(randomBytes(r, 32))
	}
	return txids
}

// TestPartialTreeRoundTrip builds trees over 1 to 130 transactions with
// random matches, serialises and decodes them, and extracts the root and
// the matches back.
func TestPartialTreeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for n := 1; n <= 130; n++ {
		txids := randomTxids(r, n)
		for _, density := range []int{0, 1, 3, 100} {
			matched := make([]bool, n)
			var want []Match
			for i := range matched {
				matched[i] = r.IntN(100) < density
				if matched[i] {
					want = append(want, Match{Index: uint32(i), TxID: txids[i]})
				}
			}
			tree := NewPartialTree(txids, matched)
			enc, _ := tree.MarshalBinary()
			var back PartialTree
			if err := back.UnmarshalBinary(enc); err != nil {
				t.Fatalf("%d txs: UnmarshalBinary(MarshalBinary()) = %v", n, err)
			}
			root, got, err := back.Extract()
			if err != nil || root != referenceRoot(txids) || !slices.Equal(got, want) {
				t.Fatalf("%d txs, %d matched: Extract() = %s, %d matches, %v, want %s, %d matches, nil",
					n, len(want), root, len(got), err, referenceRoot(txids), len(want))
			}
		}
	}
}

// validTree is a tree over 11 transactions proving two of them.
func validTree(t *testing.T) (*PartialTree, []chainhash.Hash) {
	t.Helper()
	txids := randomTxids(rand.New(rand.NewPCG(15, 16)), 11)
	matched := make([]bool, 11)
	matched[3], matched[10] = true, true
	return NewPartialTree(txids, matched), txids
}

func TestExtractRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*PartialTree)
		want   string
	}{
		{"no transactions", func(p *PartialTree) { p.Transactions = 0 }, "0 transactions"},
		{"too many transactions", func(p *PartialTree) { p.Transactions = maxBlockTransactions + 1 }, "exceeds 16666"},
		{"more hashes than transactions", func(p *PartialTree) { p.Transactions = uint32(len(p.Hashes) - 1) }, "hashes for"},
		{"fewer flag bits than hashes", func(p *PartialTree) { p.Flags = p.Flags[:0] }, "flag bits for"},
		{"flag byte left over", func(p *PartialTree) { p.Flags = append(p.Flags, 0) }, "unused"},
		{"hash left over", func(p *PartialTree) { p.Hashes = append(p.Hashes, chainhash.Hash{}) }, "uses 6 of 7 hashes"},
		{"hash missing", func(p *PartialTree) { p.Hashes = p.Hashes[:len(p.Hashes)-1] }, "runs out of hashes"},
		{"flag bits missing", func(p *PartialTree) { p.Flags = p.Flags[:1] }, "runs out of flag bits"},
		{"flag flipped", func(p *PartialTree) { p.Flags[0] ^= 0x02 }, "partial merkle tree"},
	}
	for _, tt := range tests {
		tree, _ := validTree(t)
		if len(tree.Hashes) != 6 {
			t.Fatalf("the valid tree has %d hashes, the cases assume 6", len(tree.Hashes))
		}
		tt.mutate(tree)
		if _, _, err := tree.Extract(); err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bip37: ") {
			t.Errorf("%s: Extract() error = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestExtractRejectsDuplicateMutation is CVE-2012-2459: the transactions
// a, b, c and a, b, c, c have the same merkle root, since the last hash of an
// odd level pairs with itself. A proof over the four-leaf list would let a
// peer claim c twice, so identical siblings are rejected.
func TestExtractRejectsDuplicateMutation(t *testing.T) {
	txids := randomTxids(rand.New(rand.NewPCG(17, 18)), 3)
	mutated := append(slices.Clone(txids), txids[2])
	if referenceRoot(txids) != referenceRoot(mutated) {
		t.Fatal("the mutated list has another root; the test premise is wrong")
	}
	tree := NewPartialTree(mutated, []bool{false, false, true, true})
	if _, _, err := tree.Extract(); err == nil || !strings.Contains(err.Error(), "CVE-2012-2459") {
		t.Errorf("Extract() of the duplicated tree error = %v, want the CVE-2012-2459 mutation", err)
	}
	honest := NewPartialTree(txids, []bool{false, false, true})
	if root, m, err := honest.Extract(); err != nil || root != referenceRoot(txids) || len(m) != 1 {
		t.Errorf("Extract() of the honest tree = %s, %v, %v, want the root and one match", root, m, err)
	}
}

func TestPartialTreeDecodeErrors(t *testing.T) {
	tree, _ := validTree(t)
	enc, _ := tree.MarshalBinary()
	for n := range len(enc) {
		var p PartialTree
		if err := p.UnmarshalBinary(enc[:n]); err == nil {
			t.Errorf("UnmarshalBinary(first %d of %d bytes) = nil, want an error", n, len(enc))
		}
	}
	tests := []struct {
		name, hex, want string
	}{
		{"trailing byte", "01000000" + "00" + "00" + "ff", "unexpected bytes at byte 6"},
		{"hash count beyond the data", "01000000" + "fdffff", "65535 hashes at byte 7"},
		{"non-canonical count", "01000000" + "fd0100", "non-canonical length 1 at byte 4"},
		{"flag count beyond the data", "01000000" + "00" + "05aa", "5 flag bytes at byte 6"},
	}
	for _, tt := range tests {
		var p PartialTree
		if err := p.UnmarshalBinary(unhex(t, tt.hex)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: UnmarshalBinary(%s) = %v, want an error containing %q", tt.name, tt.hex, err, tt.want)
		}
	}
}

func TestNewPartialTreePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "bip37: ") {
			t.Errorf("NewPartialTree(nil, nil) panic = %v, want a bip37 panic", r)
		}
	}()
	NewPartialTree(nil, nil)
}

func TestPartialTreeEncodingLayout(t *testing.T) {
	tree := &PartialTree{Transactions: 1, Hashes: []chainhash.Hash{{0xaa}}, Flags: []byte{1}}
	enc, _ := tree.MarshalBinary()
	want := append(append(unhex(t, "0100000001"), tree.Hashes[0][:]...), 1, 1)
	if !bytes.Equal(enc, want) {
		t.Errorf("MarshalBinary() = %x, want %x", enc, want)
	}
}
