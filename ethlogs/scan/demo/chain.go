package demo

import (
	"crypto/ecdsa"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// DefaultBlocks is the length of the demo chain after its genesis.
const DefaultBlocks = 300

// Contracts are the demo's contracts, at the same addresses on every build.
type Contracts struct {
	Token    common.Address // "DEMO": Transfer and Approval
	Stable   common.Address // "USDX": Transfer and Approval
	Pool     common.Address // Swap
	Pair     common.Address // Sync
	Registry common.Address // Registered (three indexed parameters)
	Pinger   common.Address // Ping (one indexed parameter, bytes data)
	Anon     common.Address // anonymous LOG0 events
}

// builder makes the demo's transactions with one deterministic key.
type builder struct {
	key    *ecdsa.PrivateKey
	from   common.Address
	signer types.Signer
	chain  *big.Int
	nonce  uint64
	r      *rand.Rand
	c      Contracts
}

// demoKey is the key of every demo transaction, the same on every build.
func demoKey() *ecdsa.PrivateKey {
	key, _ := crypto.HexToECDSA("6f1d0a8e5c3b2a4f9e8d7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a392817")
	return key
}

func genesis(from common.Address) *core.Genesis {
	alloc := core.SystemContractAllocs() // the dev chain runs every fork from genesis
	maps.Copy(alloc, types.GenesisAlloc{from: {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}})
	return &core.Genesis{Config: params.AllDevChainProtocolChanges, GasLimit: 30_000_000, Alloc: alloc,
		Difficulty: big.NewInt(0), BaseFee: big.NewInt(params.InitialBaseFee)}
}

// generate builds the chain: contracts in block 1, then blocks of perBlock
// transactions each, or zero to three where perBlock is 0.
func generate(blocks, perBlock int) (*core.Genesis, []*types.Block, Contracts, error) {
	return plan{blocks: blocks, perBlock: perBlock}.generate()
}

// plan is a chain's history: its length, and the blocks where a branch
// that replaced the blocks before it starts. Generating a plan again gives
// the same blocks, so a grown or reorganised chain is built whole and its
// new blocks inserted.
type plan struct {
	blocks, perBlock int
	branches         []uint64 // first block of each branch, increasing
}

// branch returns which branch block n belongs to: 0 for the first chain.
func (p plan) branch(n uint64) int {
	k := 0
	for i, first := range p.branches {
		if n >= first {
			k = i + 1
		}
	}
	return k
}

// built holds the blocks of each chain Start built in this process. They
// are the same every time (one key, one seed) and building them is about
// half of a Start, so the many demo nodes of a test binary build them
// once; a node's inserted blocks are read, never changed. Extend and
// Reorg build theirs anew: a growing chain would keep every length.
var built struct {
	sync.Mutex
	chains map[[2]int]func() (builtChain, error)
}

type builtChain struct {
	blocks    []*types.Block
	contracts Contracts
}

// generateOnce is generate for a plan of Start, without branches, from
// the memo; each caller gets a genesis of its own.
func (p plan) generateOnce() (*core.Genesis, []*types.Block, Contracts, error) {
	k := [2]int{p.blocks, p.perBlock}
	built.Lock()
	if built.chains == nil {
		built.chains = make(map[[2]int]func() (builtChain, error))
	}
	gen, ok := built.chains[k]
	if !ok {
		gen = sync.OnceValues(func() (builtChain, error) {
			_, blocks, contracts, err := plan{blocks: k[0], perBlock: k[1]}.generate()
			return builtChain{blocks, contracts}, err
		})
		built.chains[k] = gen
	}
	built.Unlock()
	c, err := gen()
	return genesis(crypto.PubkeyToAddress(demoKey().PublicKey)), slices.Clone(c.blocks), c.contracts, err
}

func (p plan) generate() (*core.Genesis, []*types.Block, Contracts, error) {
	key := demoKey()
	b := &builder{key: key, from: crypto.PubkeyToAddress(key.PublicKey), r: rand.New(rand.NewPCG(2026, 6))}
	gspec := genesis(b.from)
	b.signer, b.chain = types.LatestSigner(gspec.Config), gspec.Config.ChainID
	perBlock := p.perBlock
	var err error
	_, chain, _ := core.GenerateChainWithGenesis(gspec, beacon.New(ethash.NewFaker()), p.blocks, func(i int, g *core.BlockGen) {
		if err != nil {
			return
		}
		if i == 0 {
			err = b.deploy(g)
			return
		}
		if k := p.branch(uint64(i + 1)); k > 0 {
			// A branch draws other events, and its blocks differ even where
			// both branches drew none.
			if uint64(i+1) == p.branches[k-1] {
				b.r = rand.New(rand.NewPCG(2026, 6+uint64(k)))
			}
			g.SetExtra(fmt.Appendf(nil, "demo branch %d", k))
		}
		n := perBlock
		if n == 0 {
			n = b.r.IntN(4)
		}
		for range n {
			if err = b.event(g); err != nil {
				return
			}
		}
	})
	return gspec, chain, b.c, err
}

func (b *builder) deploy(g *core.BlockGen) error {
	for _, d := range []struct {
		addr *common.Address
		n    int
	}{{&b.c.Token, 3}, {&b.c.Stable, 3}, {&b.c.Pool, 3}, {&b.c.Pair, 1}, {&b.c.Registry, 4}, {&b.c.Pinger, 2}, {&b.c.Anon, 0}} {
		*d.addr = crypto.CreateAddress(b.from, b.nonce)
		if err := b.send(g, nil, EmitterCode(d.n), 200_000); err != nil {
			return err
		}
	}
	return nil
}

// send signs and adds a transaction; to == nil creates a contract.
func (b *builder) send(g *core.BlockGen, to *common.Address, data []byte, gas uint64) error {
	tx, err := types.SignNewTx(b.key, b.signer, &types.DynamicFeeTx{
		ChainID: b.chain, Nonce: b.nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
		Gas: gas, To: to, Data: data,
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	g.AddTx(tx)
	b.nonce++
	return nil
}

// event adds one transaction drawn from the demo's mix.
func (b *builder) event(g *core.BlockGen) error {
	user := func() common.Hash { return common.BytesToHash(Users[b.r.IntN(len(Users))][:]) }
	// amount returns 1 to 999,999 times 10^e as a word.
	amount := func(e int64) []byte {
		v := new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil)
		return common.BigToHash(v.Mul(v, big.NewInt(1+b.r.Int64N(999_999)))).Bytes()
	}
	call := func(to common.Address, topics []common.Hash, data ...[]byte) error {
		var in []byte
		for _, t := range topics {
			in = append(in, t[:]...)
		}
		for _, d := range data {
			in = append(in, d...)
		}
		return b.send(g, &to, in, 100_000)
	}
	switch k := b.r.IntN(100); {
	case k < 20:
		return call(b.c.Token, []common.Hash{transferTopic, user(), user()}, amount(15))
	case k < 28:
		return call(b.c.Token, []common.Hash{approvalTopic, user(), user()}, amount(18))
	case k < 43:
		return call(b.c.Stable, []common.Hash{transferTopic, user(), user()}, amount(4))
	case k < 48:
		return call(b.c.Stable, []common.Hash{approvalTopic, user(), user()}, amount(8))
	case k < 58:
		return call(b.c.Pool, []common.Hash{swapTopic, user(), user()}, amount(12), make([]byte, 32), make([]byte, 32), amount(3))
	case k < 66:
		return call(b.c.Pair, []common.Hash{syncTopic}, amount(20), amount(20))
	case k < 72:
		name := []string{"alice.demo", "bob.demo", "carol.demo", "a much longer name that needs two words.demo"}[b.r.IntN(4)]
		return call(b.c.Registry, []common.Hash{registeredTopic, user(), crypto.Keccak256Hash([]byte(name)), common.BigToHash(big.NewInt(int64(b.nonce)))}, abiString(name))
	case k < 80:
		return call(b.c.Pinger, []common.Hash{pingTopic, user()}, abiBytes(amount(0)[26:]))
	case k < 86:
		return call(b.c.Anon, nil, amount(0))
	case k < 92:
		return b.send(g, &b.c.Registry, []byte{1, 2, 3}, 100_000) // too short: runs out of gas, no log
	default:
		to := common.Address(Users[b.r.IntN(len(Users))])
		return b.send(g, &to, nil, 21_000) // a plain transfer
	}
}

// abiString and abiBytes encode one dynamic value as the only non-indexed
// parameter: offset 32, length, then the bytes padded to a word.
func abiString(s string) []byte { return abiBytes([]byte(s)) }

func abiBytes(v []byte) []byte {
	out := common.BigToHash(big.NewInt(32)).Bytes()
	out = append(out, common.BigToHash(big.NewInt(int64(len(v)))).Bytes()...)
	out = append(out, v...)
	return append(out, make([]byte, (32-len(v)%32)%32)...)
}
