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
	tr := livenode.NewTraffic(ctx, t, n, w, others)
	tr.Mine(110) // 11 mature coinbases for others
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8),
		w.NewAddress(livenode.P2WPKH).Pay(2e8), w.NewAddress(livenode.P2TR).Pay(3e8))
	tr.Unrelated(2)
	born = tr.Mine(1)
	coins = w.Coins()

	tr.Sweep(w.Spendable(livenode.P2PKH), others.NewAddress(livenode.P2WPKH))
	tx := tr.Send(w, w.Spendable(livenode.P2WPKH), w.NewAddress(livenode.P2TR).Pay(15e7))
	tr.Sweep([]livenode.Coin{tx.Coin(0)}, others.NewAddress(livenode.P2TR))
	paid := tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2WPKH).Pay(4e8))
	tr.Unrelated(2)
	tr.Mine(1)

	tr.Unrelated(3)
	tr.Mine(1)

	p2tr := w.Spendable(livenode.P2TR)[0]
	if p2tr.Height != born {
		t.Fatalf("wallet: oldest P2TR coin confirmed at %d, want %d", p2tr.Height, born)
	}
	tr.Sweep([]livenode.Coin{p2tr}, others.NewAddress(livenode.P2PKH))
	tr.Sweep([]livenode.Coin{w.Tx(paid.ID).Coin(0)}, others.NewAddress(livenode.P2TR))
	tr.Unrelated(1)
	tr.Mine(1)
	tr.Mine(1)

	tr.Send(w, w.Spendable(), w.NewAddress(livenode.P2WPKH).Pay(2e7))
	tr.Send(others, others.Spendable()[:1], w.NewAddress(livenode.P2PKH).Pay(1e8))
	tr.Unrelated(1)
	tr.Mine(1)
	return born, coins
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
