package spv

import (
	"fmt"
	"math/big"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Chain is a block-header chain verified from its network's genesis block.
// [Chain.Connect] accepts a header only if it links to the header before
// it, its hash meets the target its bits claim, and its bits, timestamp and
// version are what the network's consensus rules require at its height,
// including the difficulty retargets and the network's checkpoints (btcd's
// blockchain.CheckBlockHeaderContext).
//
// It holds every header in memory: about 140 bytes per block, 130 MB for
// Bitcoin mainnet. A Chain is not safe for concurrent mutation.
type Chain struct {
	net     *Network
	headers []wire.BlockHeader
	hashes  []chainhash.Hash
	clock   blockchain.MedianTimeSource
}

// NewChain returns the chain holding only n's genesis block. It fails if
// the genesis header in n's parameters does not hash to their genesis
// hash.
func NewChain(n *Network) (*Chain, error) {
	g := n.Params.GenesisBlock.Header
	if h := g.BlockHash(); h != *n.Params.GenesisHash {
		return nil, fmt.Errorf("spv: %s genesis header hashes to %s, want %s", n.Name(), h, n.Params.GenesisHash)
	}
	return &Chain{net: n, headers: []wire.BlockHeader{g}, hashes: []chainhash.Hash{*n.Params.GenesisHash},
		clock: blockchain.NewMedianTime()}, nil
}

// Network returns the network the chain follows.
func (c *Chain) Network() *Network { return c.net }

// Height returns the tip's height; 0 for the genesis block alone.
func (c *Chain) Height() int32 { return int32(len(c.headers) - 1) }

// Tip returns the hash of the last header.
func (c *Chain) Tip() chainhash.Hash { return c.hashes[len(c.hashes)-1] }

// Hash returns the hash of the block at height. It panics outside
// [0, Height()].
func (c *Chain) Hash(height int32) chainhash.Hash { return c.hashes[c.index(height)] }

// Header returns the header at height. It panics outside [0, Height()].
func (c *Chain) Header(height int32) wire.BlockHeader { return c.headers[c.index(height)] }

func (c *Chain) index(height int32) int {
	if height < 0 || int(height) >= len(c.headers) {
		panic(fmt.Sprintf("spv: height %d outside the chain [0, %d]", height, c.Height()))
	}
	return int(height)
}

// Locator returns a block locator for getheaders: the hashes of the last
// ten blocks, then of blocks exponentially further apart, then genesis.
func (c *Chain) Locator() []*chainhash.Hash {
	var loc []*chainhash.Hash
	step := int32(1)
	for h := c.Height(); h > 0; h -= step {
		loc = append(loc, &c.hashes[h])
		if len(loc) >= 10 {
			step *= 2
		}
	}
	return append(loc, &c.hashes[0])
}

// Connect verifies headers, consecutive headers as a headers message
// carries them, and adds them to the chain. The first must follow a block
// of the chain: the tip, or an earlier block if the headers are a fork, in
// which case they replace the blocks after that one only if they carry more
// work. It returns how many headers were added. Nothing is added unless
// every header verifies; the error wraps [ErrMisbehaving] and names the
// header's height and hash.
func (c *Chain) Connect(headers []*wire.BlockHeader) (int, error) {
	if len(headers) == 0 {
		return 0, nil
	}
	fork, ok := c.find(headers[0].PrevBlock)
	if !ok {
		h := headers[0].BlockHash()
		return 0, fmt.Errorf("spv: header %s follows block %s, which is not in the chain: %w", h, headers[0].PrevBlock, ErrMisbehaving)
	}
	v := &view{c: c, fork: fork}
	for i, h := range headers {
		if err := v.verify(h); err != nil {
			return 0, fmt.Errorf("spv: header %d (%s): %w: %w", fork+1+int32(i), h.BlockHash(), ErrMisbehaving, err)
		}
		v.branch = append(v.branch, *h)
		v.hashes = append(v.hashes, h.BlockHash())
	}
	return c.adopt(v), nil
}

// find returns the height of the block with hash h, searching from the
// tip down, since headers nearly always extend the tip.
func (c *Chain) find(h chainhash.Hash) (int32, bool) {
	for i := len(c.hashes) - 1; i >= 0; i-- {
		if c.hashes[i] == h {
			return int32(i), true
		}
	}
	return 0, false
}

// adopt replaces the chain above v.fork with v's branch if the branch has
// more work than what it replaces, and returns how many headers it added.
func (c *Chain) adopt(v *view) int {
	old := c.headers[v.fork+1:]
	if len(old) > 0 && work(v.branch).Cmp(work(old)) <= 0 {
		return 0
	}
	c.headers = append(c.headers[:v.fork+1], v.branch...)
	c.hashes = append(c.hashes[:v.fork+1], v.hashes...)
	return len(v.branch)
}

// work returns the sum of the headers' proof of work.
func work(headers []wire.BlockHeader) *big.Int {
	sum := new(big.Int)
	for i := range headers {
		sum.Add(sum, blockchain.CalcWork(headers[i].Bits))
	}
	return sum
}
