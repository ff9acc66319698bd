package ethchain

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/params"
)

// The chain's shape. Mainnet's recent blocks carry 200–950 logs (the
// embedded vectors); its heaviest contracts (USDT, USDC, WETH, the big
// pools) appear in most blocks and most contracts in few.
const (
	Contracts = 5000      // contracts, ranked by a Zipf draw
	Users     = 1_000_000 // externally owned addresses, ranked the same way

	txsMin, txsMax = 110, 220 // transactions per block, uniform
	noLogTxs       = 30       // percent of transactions without logs (plain transfers)
	logsPerTxMax   = 5        // the others emit 1 to logsPerTxMax logs, uniform

	contractZipf = 1.1 // Zipf exponents (math/rand/v2 requires s > 1)
	userZipf     = 1.1
	chunk        = 256 // blocks per core.GenerateChain call: bounds memory
)

// Event signatures, as their contracts emit them.
var (
	TransferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	ApprovalTopic = crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))
	SwapTopic     = crypto.Keccak256Hash([]byte("Swap(address,uint256,uint256,uint256,uint256,address)"))
	SyncTopic     = crypto.Keccak256Hash([]byte("Sync(uint112,uint112)"))
)

// Contract returns the address of the contract of the given rank (0 is the
// most active). Ranks 0–6 of every ten are tokens, 7–8 pairs, 9 others,
// each with its own event (see [EventTopic]).
func Contract(rank int) common.Address { return addressOf("contract", rank) }

// User returns the address of the user of the given rank.
func User(rank int) common.Address { return addressOf("user", rank) }

// EventTopic returns the event signature of an "other" contract (rank%10
// == 9): OtherEvent<rank>(address,address,uint256), its first two
// parameters indexed.
func EventTopic(rank int) common.Hash {
	return crypto.Keccak256Hash(fmt.Appendf(nil, "OtherEvent%d(address,address,uint256)", rank))
}

func addressOf(kind string, rank int) common.Address {
	return common.BytesToAddress(crypto.Keccak256(fmt.Appendf(nil, "chainsieve/ethchain %s %d", kind, rank)))
}

// generator draws the chain's transactions and receipts.
type generator struct {
	r         *rand.Rand
	contracts *rand.Zipf
	users     *rand.Zipf
	contract  []common.Address
	user      map[uint64]common.Hash // as topics, by rank: filled as drawn
	other     []common.Hash          // EventTopic by rank; zero for the others
	chainID   *big.Int
	nonce     uint64
}

func newGenerator(chainID *big.Int) *generator {
	r := rand.New(rand.NewPCG(2026, 16))
	g := &generator{r: r, chainID: chainID,
		contracts: rand.NewZipf(r, contractZipf, 1, Contracts-1),
		users:     rand.NewZipf(r, userZipf, 1, Users-1),
		contract:  make([]common.Address, Contracts), other: make([]common.Hash, Contracts),
		user: make(map[uint64]common.Hash)}
	for i := range g.contract {
		g.contract[i] = Contract(i)
		if i%10 == 9 {
			g.other[i] = EventTopic(i)
		}
	}
	return g
}

// drawUser returns a user, as a topic, drawn by rank.
func (g *generator) drawUser() common.Hash {
	rank := g.users.Uint64()
	u, ok := g.user[rank]
	if !ok {
		u = common.BytesToHash(User(int(rank)).Bytes())
		g.user[rank] = u
	}
	return u
}

// block adds one block's transactions and their receipts.
func (g *generator) block(b *core.BlockGen) {
	var gas uint64
	for range txsMin + g.r.IntN(txsMax-txsMin+1) {
		n := 0
		if g.r.IntN(100) >= noLogTxs {
			n = 1 + g.r.IntN(logsPerTxMax)
		}
		logs := make([]*types.Log, n)
		for i := range logs {
			logs[i] = g.log()
		}
		to := common.BytesToAddress(g.drawUser().Bytes())
		if n > 0 {
			to = logs[0].Address
		}
		used := 21_000 + 30_000*uint64(n)
		tx := types.NewTx(&types.DynamicFeeTx{ChainID: g.chainID, Nonce: g.nonce, GasTipCap: big.NewInt(1e9),
			GasFeeCap: big.NewInt(30e9), Gas: used + 10_000, To: &to, Data: g.word(68)})
		g.nonce++
		gas += used
		r := &types.Receipt{Type: types.DynamicFeeTxType, Status: types.ReceiptStatusSuccessful,
			CumulativeGasUsed: gas, GasUsed: used, Logs: logs, TxHash: tx.Hash()}
		r.Bloom = types.CreateBloom(r)
		b.AddUncheckedTx(tx)
		b.AddUncheckedReceipt(r)
	}
}

// log draws one log: its contract by rank, then an event of the contract's kind.
func (g *generator) log() *types.Log {
	rank := int(g.contracts.Uint64())
	l := &types.Log{Address: g.contract[rank]}
	user := g.drawUser
	switch k := rank % 10; {
	case k < 7 && g.r.IntN(100) < 85:
		l.Topics, l.Data = []common.Hash{TransferTopic, user(), user()}, g.word(32)
	case k < 7:
		l.Topics, l.Data = []common.Hash{ApprovalTopic, user(), user()}, g.word(32)
	case k < 9 && g.r.IntN(100) < 60:
		l.Topics, l.Data = []common.Hash{SwapTopic, user(), user()}, g.word(128)
	case k < 9:
		l.Topics, l.Data = []common.Hash{SyncTopic}, g.word(64)
	default:
		l.Topics, l.Data = []common.Hash{g.other[rank], user(), user()}, g.word(32)
	}
	return l
}

// word returns n bytes of amounts: zeros, then a random low-order part.
func (g *generator) word(n int) []byte {
	out := make([]byte, n)
	for i := 0; i+32 <= n; i += 32 {
		binary.BigEndian.PutUint64(out[i+24:], g.r.Uint64()>>g.r.IntN(40))
	}
	return out
}

func genesis() *core.Genesis {
	alloc := core.SystemContractAllocs() // the dev config runs every fork from genesis
	maps.Copy(alloc, types.GenesisAlloc{User(0): {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}})
	return &core.Genesis{Config: params.AllDevChainProtocolChanges, GasLimit: 45_000_000, Alloc: alloc,
		Difficulty: big.NewInt(0), BaseFee: big.NewInt(params.InitialBaseFee), Timestamp: 1_700_000_000}
}

// Sizes are the lengths of a block's header and receipts in go-ethereum's
// JSON (types.Header and types.Receipt MarshalJSON, without the JSON-RPC
// envelope and without the from, to and effectiveGasPrice fields that
// eth_getBlockReceipts adds): what a client fetches to test the bloom, and
// then the receipts, of one block.
type Sizes struct{ Header, Receipts uint32 }

// Generate writes the genesis and blocks more blocks to db, with their
// receipts and canonical hashes, and returns their sizes (genesis first).
func Generate(db ethdb.Database, blocks int) ([]Sizes, error) {
	return generate(db, blocks, true)
}

// generate is Generate, measuring the sizes only if asked to.
func generate(db ethdb.Database, blocks int, measure bool) ([]Sizes, error) {
	gspec := genesis()
	g := newGenerator(gspec.Config.ChainID)
	engine := beacon.New(ethash.NewFaker())
	gen := func(_ int, b *core.BlockGen) { b.OffsetTime(2); g.block(b) } // 12 s apart
	zero := gspec.ToBlock()
	rawdb.WriteBlock(db, zero)
	rawdb.WriteReceipts(db, zero.Hash(), 0, nil)
	rawdb.WriteCanonicalHash(db, zero.Hash(), 0)
	var sizes []Sizes
	if measure {
		sizes = append(sizes, blockSizes(zero, nil))
	}
	state, chain, receipts := core.GenerateChainWithGenesis(gspec, engine, min(chunk, blocks), gen)
	for done := len(chain); ; {
		batch := db.NewBatch()
		for i, b := range chain {
			rawdb.WriteBlock(batch, b)
			rawdb.WriteReceipts(batch, b.Hash(), b.NumberU64(), receipts[i])
			rawdb.WriteCanonicalHash(batch, b.Hash(), b.NumberU64())
			if measure {
				sizes = append(sizes, blockSizes(b, receipts[i]))
			}
		}
		head := chain[len(chain)-1]
		rawdb.WriteHeadHeaderHash(batch, head.Hash())
		rawdb.WriteHeadBlockHash(batch, head.Hash())
		if err := batch.Write(); err != nil {
			return nil, fmt.Errorf("ethchain: writing blocks to %d: %w", head.NumberU64(), err)
		}
		if done == blocks {
			return sizes, nil
		}
		n := min(chunk, blocks-done)
		chain, receipts = core.GenerateChain(gspec.Config, head, engine, state, n, gen)
		done += n
	}
}

func blockSizes(b *types.Block, rs types.Receipts) Sizes {
	h, err1 := json.Marshal(b.Header())
	r, err2 := json.Marshal(rs)
	if err1 != nil || err2 != nil {
		panic(fmt.Sprintf("ethchain: encoding block %d: %v %v", b.NumberU64(), err1, err2))
	}
	return Sizes{uint32(len(h)), uint32(len(r))}
}
