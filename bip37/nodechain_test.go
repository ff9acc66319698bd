package bip37

import (
	"context"
	"math/big"
	"testing"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"golang.org/x/crypto/scrypt"
)

var regtest = &chaincfg.RegressionNetParams

// traffic mines the chain the node tests scan: the wallet w receives and
// spends P2PKH, P2WPKH and P2TR outputs, in blocks shared with unrelated
// transactions of others, who mine. The wallet reads the chain from full
// blocks up to height born, then holds coins (one of each type). Later
// blocks spend them, pay the wallet again, spend those payments (once in
// the block that confirms the coin), and include a block without wallet
// transactions and one with a coinbase only. Some spends are sweeps without
// change, so that nothing but the outpoint they spend ties them to the
// wallet.
func traffic(ctx context.Context, t *testing.T, n *livenode.Node, w, others *livenode.Wallet) (born int32, coins []livenode.Coin) {
	t.Helper()
	c := &chainTraffic{ctx: ctx, t: t, n: n, w: w, others: others}
	c.mine(110) // 11 mature coinbases for others
	c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8),
		w.NewAddress(livenode.P2WPKH).Pay(2e8), w.NewAddress(livenode.P2TR).Pay(3e8))
	c.unrelated(2)
	born = c.mine(1)
	coins = w.Coins()

	c.sweep(w.Spendable(livenode.P2PKH), others.NewAddress(livenode.P2WPKH))
	tx := c.send(w, w.Spendable(livenode.P2WPKH), w.NewAddress(livenode.P2TR).Pay(15e7))
	c.sweep([]livenode.Coin{tx.Coin(0)}, others.NewAddress(livenode.P2TR))
	paid := c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2WPKH).Pay(4e8))
	c.unrelated(2)
	c.mine(1)

	c.unrelated(3)
	c.mine(1)

	p2tr := w.Spendable(livenode.P2TR)[0]
	if p2tr.Height != born {
		t.Fatalf("wallet: oldest P2TR coin confirmed at %d, want %d", p2tr.Height, born)
	}
	c.sweep([]livenode.Coin{p2tr}, others.NewAddress(livenode.P2PKH))
	c.sweep([]livenode.Coin{w.Tx(paid.ID).Coin(0)}, others.NewAddress(livenode.P2TR))
	c.unrelated(1)
	c.mine(1)
	c.mine(1)

	c.send(w, w.Spendable(), w.NewAddress(livenode.P2WPKH).Pay(2e7))
	c.send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8))
	c.unrelated(1)
	c.mine(1)
	return born, coins
}

// chainTraffic mines and sends for [traffic], failing the test on any error.
type chainTraffic struct {
	ctx       context.Context
	t         *testing.T
	n         *livenode.Node
	w, others *livenode.Wallet
	payments  int
}

// mine mines count blocks, syncs both wallets and returns the new height.
func (c *chainTraffic) mine(count int) int32 {
	c.t.Helper()
	if _, err := c.n.Generate(c.ctx, count); err != nil {
		c.t.Fatal(err)
	}
	for _, w := range []*livenode.Wallet{c.w, c.others} {
		if err := w.Sync(c.ctx, c.n); err != nil {
			c.t.Fatal(err)
		}
	}
	return c.w.Tip()
}

func (c *chainTraffic) send(from *livenode.Wallet, coins []livenode.Coin, to ...livenode.Payment) *livenode.Tx {
	c.t.Helper()
	tx, err := from.Send(c.ctx, c.n, coins, to...)
	if err != nil {
		c.t.Fatal(err)
	}
	return tx
}

// sweepFee is what a sweep leaves for the fee: below the wallet's dust
// limit, so that it adds no change, and above the fee of one input.
const sweepFee = 540

// sweep spends the wallet's coins to one output of to, without change.
func (c *chainTraffic) sweep(coins []livenode.Coin, to *livenode.Addr) *livenode.Tx {
	c.t.Helper()
	var sum int64
	for _, coin := range coins {
		sum += coin.Value
	}
	tx := c.send(c.w, coins, to.Pay(sum-sweepFee))
	if len(tx.Msg.TxOut) != 1 {
		c.t.Fatalf("sweep %v has %d outputs, want 1", tx.ID, len(tx.Msg.TxOut))
	}
	return tx
}

// unrelated sends k payments between others' own addresses, cycling through
// the address types.
func (c *chainTraffic) unrelated(k int) {
	c.t.Helper()
	types := []livenode.AddrType{livenode.P2PKH, livenode.P2WPKH, livenode.P2TR}
	for range k {
		coin := c.others.Spendable()[0]
		c.send(c.others, []livenode.Coin{coin}, c.others.NewAddress(types[c.payments%3]).Pay(coin.Value/3))
		c.payments++
	}
}

// Regtest genesis blocks, the anchors of the header chains: Bitcoin's from
// chaincfg, Litecoin's as its chainparams.cpp asserts it.
var (
	bitcoinGenesis  = *regtest.GenesisHash
	litecoinGenesis = mustHash("530827f38f93b43ed12af0b3ad25a288dc02ed74d6d7857862df51fc56c416f9")
)

func mustHash(s string) chainhash.Hash {
	h, err := chainhash.NewHashFromStr(s)
	if err != nil {
		panic(err)
	}
	return *h
}

// sha256dPoW is Bitcoin's proof-of-work hash, the block hash.
func sha256dPoW(h *wire.BlockHeader) chainhash.Hash { return h.BlockHash() }

// scryptPoW is Litecoin's proof-of-work hash: scrypt (N=1024, r=1, p=1) of
// the 80-byte header, salted with itself. Its block hash stays the double
// SHA-256.
func scryptPoW(h *wire.BlockHeader) chainhash.Hash {
	b := appendHeader(nil, h)
	sum, err := scrypt.Key(b, b, 1024, 1, 1, chainhash.HashSize)
	if err != nil {
		panic(err) // only bad parameters get here
	}
	return chainhash.Hash(sum)
}

// regtestBits is the compact target of every regtest block: the proof-of-work
// limit, which regtest never retargets from.
const regtestBits = 0x207fffff

// headerChain fetches every header after genesis with getheaders and checks
// that they link from genesis and carry regtest proof of work by pow. It
// returns them indexed by height, genesis left zero.
func headerChain(ctx context.Context, t *testing.T, p *livenode.Peer, genesis chainhash.Hash, pow func(*wire.BlockHeader) chainhash.Hash) []wire.BlockHeader {
	t.Helper()
	msg := wire.NewMsgGetHeaders()
	msg.AddBlockLocatorHash(&genesis)
	if err := p.Send(ctx, msg); err != nil {
		t.Fatal(err)
	}
	reply, err := livenode.Await[*wire.MsgHeaders](ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	target := compactTarget(regtestBits)
	chain := make([]wire.BlockHeader, 1, 1+len(reply.Headers))
	prev := genesis
	for i, h := range reply.Headers {
		if h.PrevBlock != prev {
			t.Fatalf("header %d: previous block %v, want %v", i+1, h.PrevBlock, prev)
		}
		if work := pow(h); h.Bits != regtestBits || hashValue(work).Cmp(target) > 0 {
			t.Fatalf("header %d: proof-of-work hash %v, bits %08x: above the regtest target", i+1, work, h.Bits)
		}
		chain = append(chain, *h)
		prev = h.BlockHash()
	}
	return chain
}

// compactTarget expands a compact target (nBits) whose exponent is at
// least 3 and whose mantissa is positive, as regtest's is.
func compactTarget(bits uint32) *big.Int {
	mantissa := big.NewInt(int64(bits & 0x007fffff))
	return mantissa.Lsh(mantissa, uint(8*(bits>>24-3)))
}

// hashValue reads a hash as the number proof of work compares: internal
// order is little-endian.
func hashValue(h chainhash.Hash) *big.Int {
	var be [chainhash.HashSize]byte
	for i, b := range h {
		be[len(be)-1-i] = b
	}
	return new(big.Int).SetBytes(be[:])
}
