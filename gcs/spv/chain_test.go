package spv

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

func TestChainConnect(t *testing.T) {
	c := regtestChain(t, 0)
	hs := extend(headerAt(t, c, 0), 20)
	if n, err := c.Connect(ptrs(hs[:7])); n != 7 || err != nil {
		t.Fatalf("Connect(7 headers) = %d, %v, want 7, nil", n, err)
	}
	if n, err := c.Connect(ptrs(hs[7:])); n != 13 || err != nil {
		t.Fatalf("Connect(13 more) = %d, %v, want 13, nil", n, err)
	}
	if c.Height() != 20 || c.Tip() != hs[19].BlockHash() {
		t.Errorf("Height(), Tip() = %d, %s, want 20, %s", c.Height(), c.Tip(), hs[19].BlockHash())
	}
	for i, h := range hs {
		if got := hashAt(t, c, int32(i+1)); got != h.BlockHash() {
			t.Errorf("Hash(%d) = %s, want %s", i+1, got, h.BlockHash())
		}
	}
	if n, err := c.Connect(nil); n != 0 || err != nil {
		t.Errorf("Connect(nil) = %d, %v, want 0, nil", n, err)
	}
}

// TestChainRejects checks each consensus rule a header can break, on a
// chain of 12 regtest headers (enough for the median-time rule to bite).
func TestChainRejects(t *testing.T) {
	const height = 12
	now := time.Now().Truncate(time.Second)
	tests := []struct {
		name string
		make func(prev *wire.BlockHeader) wire.BlockHeader
		want string
	}{
		{"unknown previous block", func(prev *wire.BlockHeader) wire.BlockHeader {
			other := *prev
			other.Nonce++
			return newHeader(&other, prev.Timestamp.Add(time.Minute), regtestBits, false)
		}, "neither among the chain"},
		{"hash above the target", func(prev *wire.BlockHeader) wire.BlockHeader {
			return newHeader(prev, prev.Timestamp.Add(time.Minute), regtestBits, true)
		}, "exceeds the target"},
		{"target above the limit", func(prev *wire.BlockHeader) wire.BlockHeader {
			return newHeader(prev, prev.Timestamp.Add(time.Minute), 0x2100ffff, false)
		}, "is outside"},
		{"negative target", func(prev *wire.BlockHeader) wire.BlockHeader {
			h := newHeader(prev, prev.Timestamp.Add(time.Minute), regtestBits, false)
			h.Bits = 0x20800001
			return h
		}, "is outside"},
		{"zero target", func(prev *wire.BlockHeader) wire.BlockHeader {
			h := newHeader(prev, prev.Timestamp.Add(time.Minute), regtestBits, false)
			h.Bits = 0
			return h
		}, "is outside"},
		{"bits the rules do not give", func(prev *wire.BlockHeader) wire.BlockHeader {
			return newHeader(prev, prev.Timestamp.Add(time.Minute), 0x207ffffe, false)
		}, "not the expected value"},
		{"timestamp not after the median of the last 11", func(prev *wire.BlockHeader) wire.BlockHeader {
			return newHeader(prev, prev.Timestamp.Add(-5*10*time.Minute), regtestBits, false)
		}, "is not after expected"},
		{"timestamp over two hours ahead", func(prev *wire.BlockHeader) wire.BlockHeader {
			return newHeader(prev, now.Add(3*time.Hour), regtestBits, false)
		}, "too far in the future"},
	}
	for _, tt := range tests {
		c := regtestChain(t, height)
		prev := headerAt(t, c, height)
		bad := tt.make(&prev)
		n, err := c.Connect([]*wire.BlockHeader{&bad})
		if n != 0 || !errors.Is(err, ErrMisbehaving) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Connect() = %d, %v, want 0 and an error wrapping ErrMisbehaving containing %q", tt.name, n, err, tt.want)
		}
		if c.Height() != height {
			t.Errorf("%s: Height() = %d after a failed Connect, want %d", tt.name, c.Height(), height)
		}
	}
}

func TestChainRejectsWholeBatch(t *testing.T) {
	c := regtestChain(t, 3)
	hs := extend(headerAt(t, c, 3), 5)
	hs[3].Nonce++ // breaks the link from hs[4], and most likely hs[3]'s proof of work
	n, err := c.Connect(ptrs(hs))
	if n != 0 || err == nil || !strings.Contains(err.Error(), "header ") {
		t.Errorf("Connect(5 headers, the fourth altered) = %d, %v, want 0 and an error naming the header", n, err)
	}
	if c.Height() != 3 {
		t.Errorf("Height() = %d after a failed batch, want 3", c.Height())
	}
}

func TestChainFork(t *testing.T) {
	c := regtestChain(t, 0)
	main := extend(headerAt(t, c, 0), 6)
	c.Connect(ptrs(main))
	// A branch from height 2 that is one block longer, so carries more work
	// (its timestamps differ, so its headers do).
	branch := extendEvery(headerAt(t, c, 2), 5, 11*time.Minute)
	if n, err := c.Connect(ptrs(branch[:3])); n != 0 || err != nil {
		t.Errorf("Connect(shorter branch) = %d, %v, want 0, nil (less work: ignored)", n, err)
	}
	if n, err := c.Connect(ptrs(branch[:4])); n != 0 || err != nil {
		t.Errorf("Connect(branch of equal work) = %d, %v, want 0, nil", n, err)
	}
	if n, err := c.Connect(ptrs(branch)); n != 5 || err != nil {
		t.Fatalf("Connect(longer branch) = %d, %v, want 5, nil", n, err)
	}
	if c.Height() != 7 || hashAt(t, c, 3) != branch[0].BlockHash() || hashAt(t, c, 2) != main[1].BlockHash() {
		t.Errorf("after the reorganisation: height %d, block 3 %s, block 2 %s; want 7, %s, %s",
			c.Height(), hashAt(t, c, 3), hashAt(t, c, 2), branch[0].BlockHash(), main[1].BlockHash())
	}
}

func TestChainLocator(t *testing.T) {
	c := regtestChain(t, 100)
	var heights []int32
	loc, err := c.Locator()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range loc {
		for i := int32(0); i <= c.Height(); i++ {
			if hashAt(t, c, i) == *h {
				heights = append(heights, i)
			}
		}
	}
	want := []int32{100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 89, 85, 77, 61, 29, 0}
	if !equal(heights, want) {
		t.Errorf("Locator() heights = %v, want %v", heights, want)
	}
}

func equal(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNewChainChecksGenesis(t *testing.T) {
	p := *Regtest.Params
	p.GenesisHash = &chainhash.Hash{1}
	if _, err := NewChain(&Network{Params: &p}); err == nil || !strings.Contains(err.Error(), "genesis") {
		t.Errorf("NewChain(a genesis header that does not hash to the genesis hash) = %v, want an error", err)
	}
}

// mainnetBlock1 is Bitcoin's block 1 (hash 00000000839a8e68…18eb6048): real
// proof of work at difficulty 1.
var mainnetBlock1 = wire.BlockHeader{
	Version:    1,
	PrevBlock:  *Mainnet.Params.GenesisHash,
	MerkleRoot: mustHash("0e3e2357e806b6cdb1f70b54c3a3a17b6714ee1f0e68bebb44a74b1efd512098"),
	Timestamp:  time.Unix(1231469665, 0),
	Bits:       0x1d00ffff,
	Nonce:      2573394689,
}

func mustHash(display string) chainhash.Hash {
	h, err := chainhash.NewHashFromStr(display)
	if err != nil {
		panic(err)
	}
	return *h
}

func TestChainMainnet(t *testing.T) {
	c, err := NewChain(Mainnet)
	if err != nil {
		t.Fatal(err)
	}
	bad := mainnetBlock1
	bad.Nonce++
	if _, err := c.Connect([]*wire.BlockHeader{&bad}); err == nil || !strings.Contains(err.Error(), "exceeds the target") {
		t.Errorf("Connect(block 1 with its nonce changed) = %v, want a proof-of-work error", err)
	}
	h := mainnetBlock1
	if n, err := c.Connect([]*wire.BlockHeader{&h}); n != 1 || err != nil {
		t.Fatalf("Connect(block 1) = %d, %v, want 1, nil", n, err)
	}
	if want := mustHash("00000000839a8e6886ab5951d76f411475428afc90947ee320161bbf18eb6048"); c.Tip() != want {
		t.Errorf("Tip() = %s, want %s", c.Tip(), want)
	}
}

func TestChainRulesCheckpoints(t *testing.T) {
	r := chainRules{Mainnet.Params}
	cp := Mainnet.Params.Checkpoints[0]
	other := *cp.Hash
	other[0] ^= 1
	if !r.VerifyCheckpoint(cp.Height, cp.Hash) || r.VerifyCheckpoint(cp.Height, &other) || !r.VerifyCheckpoint(cp.Height+1, &other) {
		t.Errorf("VerifyCheckpoint: the checkpoint at %d must pass, another hash there fail, and heights without one pass", cp.Height)
	}
	if got := r.BlocksPerRetarget(); got != 2016 {
		t.Errorf("BlocksPerRetarget() = %d, want 2016", got)
	}
}

// BenchmarkChainConnect measures header verification: linkage, proof of
// work and btcd's contextual checks, per header of 2,000-header batches
// (a headers message).
func BenchmarkChainConnect(b *testing.B) {
	c, err := NewChain(Regtest)
	if err != nil {
		b.Fatal(err)
	}
	hs := ptrs(extend(headerAt(b, c, 0), wire.MaxBlockHeadersPerMsg))
	b.ReportAllocs()
	for b.Loop() {
		c, _ := NewChain(Regtest)
		if n, err := c.Connect(hs); n != len(hs) || err != nil {
			b.Fatal(n, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(hs)), "ns/header")
}

func TestChainRange(t *testing.T) {
	c, err := NewChain(Regtest)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		from, to         int32
		wantFrom, wantTo int32
		wantErr          bool
	}{
		{0, -1, 0, 0, false},
		{0, 0, 0, 0, false},
		{1, -1, 1, 0, true},
		{-1, 0, -1, 0, true},
		{0, 5, 0, 5, true},
	}
	for _, tt := range tests {
		from, to, err := c.Range(tt.from, tt.to)
		if from != tt.wantFrom || to != tt.wantTo || (err != nil) != tt.wantErr {
			t.Errorf("Range(%d, %d) = %d, %d, %v; want %d, %d, error %v", tt.from, tt.to, from, to, err, tt.wantFrom, tt.wantTo, tt.wantErr)
		}
	}
}
