package spv

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv/store"
)

// interval is the retarget period of the test networks: short, so that a
// few hundred headers cross many retargets.
const interval = 20

// styled returns a network with base's difficulty rules (testnet's
// minimum-difficulty blocks, testnet4's BIP94, mainnet's plain retargets),
// regtest's proof-of-work limit and genesis block (so headers are mined
// in a few tries), and a retarget every interval blocks.
func styled(base *chaincfg.Params) *Network {
	p := *base
	r := chaincfg.RegressionNetParams
	p.Name = base.Name + "-style"
	p.PowLimit, p.PowLimitBits = r.PowLimit, r.PowLimitBits
	p.GenesisBlock, p.GenesisHash = r.GenesisBlock, r.GenesisHash
	p.TargetTimePerBlock = 10 * time.Minute
	p.TargetTimespan = interval * p.TargetTimePerBlock
	p.PoWNoRetargeting = false
	p.Checkpoints = nil
	return &Network{Params: &p}
}

// oracle is btcd's contextual header check over a complete chain held in
// a slice: what a full node sees.
type oracle struct {
	net     *Network
	headers []wire.BlockHeader
}

type oracleNode struct {
	o *oracle
	h int32
}

func (n oracleNode) Height() int32                { return n.h }
func (n oracleNode) Bits() uint32                 { return n.o.headers[n.h].Bits }
func (n oracleNode) Timestamp() int64             { return n.o.headers[n.h].Timestamp.Unix() }
func (n oracleNode) Parent() blockchain.HeaderCtx { return n.RelativeAncestorCtx(1) }
func (n oracleNode) RelativeAncestorCtx(d int32) blockchain.HeaderCtx {
	if n.h-d < 0 {
		return nil
	}
	return oracleNode{n.o, n.h - d}
}

func (o *oracle) check(h *wire.BlockHeader) error {
	if err := o.net.checkProofOfWork(h); err != nil {
		return err
	}
	tip := oracleNode{o, int32(len(o.headers) - 1)}
	return blockchain.CheckBlockHeaderContext(h, tip, blockchain.BFNone, chainRules{o.net.Params}, true)
}

// expectedBits asks btcd which bits the header after the oracle's tip at
// ts must carry, from its error for bits it cannot have.
func (o *oracle) expectedBits(ts time.Time) uint32 {
	h := wire.BlockHeader{Version: 4, PrevBlock: o.headers[len(o.headers)-1].BlockHash(), Timestamp: ts, Bits: 1}
	tip := oracleNode{o, int32(len(o.headers) - 1)}
	err := blockchain.CheckBlockHeaderContext(&h, tip, blockchain.BFNone, chainRules{o.net.Params}, true)
	var got, want uint32
	if err == nil || !strings.Contains(err.Error(), "not the expected value") {
		panic(fmt.Sprintf("btcd accepted bits 1 or failed otherwise: %v", err))
	}
	fmt.Sscanf(err.Error(), "block difficulty of %d is not the expected value of %d", &got, &want)
	return want
}

// mine sets h's nonce so its hash meets its bits' target (a few tries at
// the targets the generator keeps to).
func mine(h *wire.BlockHeader) {
	target := blockchain.CompactToBig(h.Bits)
	for ; ; h.Nonce++ {
		hash := h.BlockHash()
		if blockchain.HashToBig(&hash).Cmp(target) <= 0 {
			return
		}
	}
}

// TestDifficultyAgainstBTCD builds random chains under mainnet-,
// testnet3- and testnet4-style rules, with fast and slow stretches,
// minimum-difficulty blocks, and headers that break the rules (wrong bits,
// a timestamp not after the median, a BIP94 time warp), and checks that
// every header gets the verdict btcd's contextual check gives it over the
// complete chain, from three chains of ours: from genesis with a window of
// 15 headers (older ancestors come from the store), and from an anchor at
// a retarget boundary and at a period's last block holding only the
// headers an anchor keeps.
func TestDifficultyAgainstBTCD(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 200
	}
	for _, base := range []*chaincfg.Params{&chaincfg.MainNetParams, &chaincfg.TestNet3Params, &chaincfg.TestNet4Params} {
		t.Run(base.Name, func(t *testing.T) {
			net := styled(base)
			counts := differential(t, net, n, rand.New(rand.NewPCG(uint64(len(base.Name)), 7)))
			t.Logf("%s-style: %v", base.Name, counts)
			for _, k := range []string{"accepted", "retarget", "above the minimum", "bad bits", "median time"} {
				if counts[k] == 0 {
					t.Errorf("no %q header was generated: the test proves less than it claims", k)
				}
			}
			if base.ReduceMinDifficulty && counts["min difficulty"] == 0 {
				t.Errorf("no minimum-difficulty block was generated")
			}
			if base.EnforceBIP94 && counts["time warp"] == 0 {
				t.Errorf("no BIP94 time warp was generated")
			}
		})
	}
}

func differential(t *testing.T, net *Network, n int, r *rand.Rand) map[string]int {
	o := &oracle{net: net, headers: []wire.BlockHeader{net.Params.GenesisBlock.Header}}
	windowed, err := OpenChain(ChainConfig{Network: net, Window: 15})
	if err != nil {
		t.Fatal(err)
	}
	var anchored []*Chain
	anchorAt := map[int32]bool{3*interval - 1: true, 4 * interval: true}
	counts := map[string]int{}
	ts := time.Now().Add(-time.Duration(n) * 45 * time.Minute).Truncate(time.Second)
	for len(o.headers) <= n {
		height := int32(len(o.headers))
		prev := o.headers[height-1]
		h, kind := next(o, r, prev, height, &ts)
		want := o.check(&h)
		chains := append([]*Chain{windowed}, anchored...)
		for i, c := range chains {
			added, err := c.Connect([]*wire.BlockHeader{&h})
			if (err == nil) != (want == nil) || (err == nil && added != 1) {
				t.Fatalf("height %d (%s), chain %d: Connect = %d, %v; btcd over the whole chain: %v", height, kind, i, added, err, want)
			}
			if err != nil && !errors.Is(err, ErrMisbehaving) {
				t.Fatalf("height %d: %v does not wrap ErrMisbehaving", height, err)
			}
		}
		if want != nil {
			counts[kind]++
			continue
		}
		counts["accepted"]++
		if height%interval == 0 {
			counts["retarget"]++
		}
		if h.Bits != net.Params.PowLimitBits {
			counts["above the minimum"]++
		}
		if h.Bits == net.Params.PowLimitBits && height%interval != 0 && prev.Bits != h.Bits {
			counts["min difficulty"]++
		}
		o.headers = append(o.headers, h)
		if anchorAt[height] {
			anchored = append(anchored, anchoredChain(t, net, o.headers, height))
		}
	}
	return counts
}

// next returns the next header, valid or not, and what kind of header it
// is meant to be.
func next(o *oracle, r *rand.Rand, prev wire.BlockHeader, height int32, ts *time.Time) (wire.BlockHeader, string) {
	gap := time.Duration(5+r.IntN(20)) * time.Minute // around the 10-minute target
	if (height/interval)%3 == 1 {
		gap = time.Duration(1+r.IntN(3)) * time.Minute // a fast period: difficulty rises at the next retarget
	}
	if r.IntN(8) == 0 {
		gap = 25 * time.Minute // slow: testnet's minimum-difficulty rule applies
	}
	kind := "accepted"
	next := prev.Timestamp.Add(gap)
	median := blockchain.CalcPastMedianTime(oracleNode{o, height - 1})
	switch k := r.IntN(25); {
	case k == 0:
		kind, next = "median time", prev.Timestamp.Add(-3*time.Hour)
	case k <= 2: // at the median (refused) or a second after it
		kind, next = "median time", median
		if k == 2 {
			kind, next = "accepted", median.Add(time.Second)
		}
	case k == 1 && height%interval == 0 && o.net.Params.EnforceBIP94:
		kind, next = "time warp", prev.Timestamp.Add(-11*time.Minute)
	case height%interval == 0 && o.net.Params.EnforceBIP94 && r.IntN(2) == 0:
		kind, next = "time warp", prev.Timestamp.Add(-11*time.Minute)
	}
	if target := blockchain.CompactToBig(o.expectedBits(next)); target.Cmp(new(big.Int).Rsh(o.net.Params.PowLimit, 8)) < 0 {
		next = prev.Timestamp.Add(40 * time.Minute) // too hard to mine here: slow down
		kind = "accepted"
	}
	h := wire.BlockHeader{Version: 4, PrevBlock: prev.BlockHash(), Timestamp: next, Bits: o.expectedBits(next)}
	h.MerkleRoot = chainhash.Hash{byte(height), byte(height >> 8), byte(r.Uint32())}
	if r.IntN(12) == 0 {
		kind = "bad bits"
		if h.Bits == o.net.Params.PowLimitBits {
			h.Bits = prev.Bits - 1
			if h.Bits == o.net.Params.PowLimitBits-1 {
				h.Bits = 0x1f7fffff
			}
		} else {
			h.Bits = o.net.Params.PowLimitBits
		}
	}
	mine(&h)
	*ts = next
	return h, kind
}

// anchoredChain returns a chain that holds only what an anchor at height
// keeps of headers.
func anchoredChain(t *testing.T, net *Network, headers []wire.BlockHeader, height int32) *Chain {
	st := store.Memory()
	c := &Chain{net: net}
	lo := c.contextStart(height)
	id := store.Identity{Net: net.Params.Net, Genesis: *net.Params.GenesisHash}
	if err := st.Init(id, lo, height, headers[lo:height+1]); err != nil {
		t.Fatal(err)
	}
	ch, err := OpenChain(ChainConfig{Network: net, Store: st, Birthday: height, Window: 15})
	if err != nil {
		t.Fatal(err)
	}
	return ch
}
