package demo_test

// The tests here hold package ethlogs and its index to go-ethereum's own
// eth_getLogs on random logs that the EVM emitted, from this package's
// emitter contracts. They live here, not in ethlogs, because they need a
// go-ethereum node (the simulated backend), which this package's tests
// link anyway: in ethlogs every test run linked one for them (about 3 s).

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/index"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"
)

// node is an in-process go-ethereum node with emitter contracts.
type node struct {
	t       *testing.T
	sim     *simulated.Backend
	rpc     *rpc.Client
	client  *ethclient.Client
	key     *ecdsa.PrivateKey
	from    common.Address
	nonce   uint64
	signer  types.Signer
	emitter [][]common.Address // emitter[n]: contracts emitting LOGn
}

func newNode(t *testing.T) *node {
	key, err := crypto.HexToECDSA("8a1f9a8f95be41cd7ccb6168179afb4504aefe388d1e14474d32c45c72ce7b7a")
	if err != nil {
		t.Fatal(err)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	sim := simulated.NewBackend(types.GenesisAlloc{from: {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}})
	t.Cleanup(func() { sim.Close() })
	// The simulated client interface lacks BlockReceipts and raw calls; the
	// *ethclient.Client it embeds has both.
	ec := reflect.ValueOf(sim.Client()).Field(0).Interface().(*ethclient.Client)
	n := &node{t: t, sim: sim, rpc: ec.Client(), client: ec, key: key, from: from,
		signer: types.LatestSignerForChainID(big.NewInt(1337)), emitter: make([][]common.Address, 5)}
	for range 2 {
		for k := range 5 {
			n.emitter[k] = append(n.emitter[k], crypto.CreateAddress(from, n.nonce))
			n.send(nil, demo.EmitterCode(k), 200_000)
		}
	}
	n.sim.Commit()
	return n
}

// send signs and submits a transaction; to == nil creates a contract.
func (n *node) send(to *common.Address, data []byte, gas uint64) {
	n.t.Helper()
	tx, err := types.SignNewTx(n.key, n.signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: n.nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
		Gas: gas, To: to, Data: data,
	})
	if err != nil {
		n.t.Fatal(err)
	}
	if err := n.client.SendTransaction(context.Background(), tx); err != nil {
		n.t.Fatal(err)
	}
	n.nonce++
}

// mine fills blocks with random events: LOG0 to LOG4 from ten contracts,
// topics from a small pool, failed calls and plain transfers.
func (n *node) mine(r *rand.Rand, blocks int, topics []common.Hash) {
	for range blocks {
		for range r.IntN(7) {
			k := r.IntN(5)
			to := n.emitter[k][r.IntN(2)]
			var data []byte
			for range k {
				data = append(data, topics[r.IntN(len(topics))][:]...)
			}
			data = append(data, make([]byte, r.IntN(40))...)
			switch r.IntN(10) {
			case 0:
				n.send(&to, nil, 100_000) // k > 0: out of gas, no log
			case 1:
				n.send(&n.from, nil, 21_000) // a transfer to self, no log
			default:
				n.send(&to, data, 100_000)
			}
		}
		n.sim.Commit()
	}
}

// chainData is what a verified scan learns from the node: every header
// (linked and anchored) and every block's logs from verified receipts.
type chainData struct {
	headers []*types.Header // by number, from 0
	logs    [][]*types.Log
}

func (n *node) fetch() chainData {
	n.t.Helper()
	ctx := context.Background()
	head, err := n.client.HeaderByNumber(ctx, nil)
	if err != nil {
		n.t.Fatal(err)
	}
	var c chainData
	for i := uint64(0); i <= head.Number.Uint64(); i++ {
		h, err := n.client.HeaderByNumber(ctx, new(big.Int).SetUint64(i))
		if err != nil {
			n.t.Fatal(err)
		}
		rs, err := n.client.BlockReceipts(ctx, rpc.BlockNumberOrHashWithNumber(rpc.BlockNumber(i)))
		if err != nil {
			n.t.Fatal(err)
		}
		if err := ethlogs.VerifyReceipts(h, rs); err != nil {
			n.t.Fatalf("VerifyReceipts(block %d from the node) = %v", i, err)
		}
		c.headers = append(c.headers, h)
		c.logs = append(c.logs, ethlogs.Logs(h, rs))
	}
	if _, err := ethlogs.VerifyChain(c.headers, head.Hash()); err != nil {
		n.t.Fatalf("VerifyChain(node headers) = %v", err)
	}
	return c
}

// scan answers q the way a light client does: bloom candidates, then exact
// matching on the verified logs.
func (c *chainData) scan(q *ethlogs.Query, from, to uint64) []*types.Log {
	m := q.Compile()
	out := []*types.Log{} // eth_getLogs answers [] rather than null
	for i := from; i <= to; i++ {
		if m.TestHeader(c.headers[i]) {
			out = q.Filter(out, c.logs[i])
		}
	}
	return out
}

func randomNodeQuery(r *rand.Rand, n *node, topics []common.Hash, head uint64) ethlogs.Query {
	var q ethlogs.Query
	for range r.IntN(3) {
		k := r.IntN(6)
		if k == 5 {
			q.Addresses = append(q.Addresses, common.Address{0xee}) // never emits
		} else {
			q.Addresses = append(q.Addresses, n.emitter[k][r.IntN(2)])
		}
	}
	for range r.IntN(ethlogs.MaxTopics + 1) {
		var pos []common.Hash
		for range r.IntN(3) {
			pos = append(pos, topics[r.IntN(len(topics))])
		}
		q.Topics = append(q.Topics, pos)
	}
	from := 1 + uint64(r.IntN(int(head)))
	to := from + uint64(r.IntN(int(head-from+1)))
	f, t := ethlogs.BlockNumber(from), ethlogs.BlockNumber(to)
	q.FromBlock, q.ToBlock = &f, &t
	return q
}

// TestScanMatchesNodeGetLogs compares the verified scan with the node's own
// eth_getLogs on random events and random queries: the same logs, and the
// same JSON bytes for every log.
func TestScanMatchesNodeGetLogs(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	n := newNode(t)
	topics := []common.Hash{{1}, {2}, {3}, crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)")), {0xff, 1}}
	n.mine(r, 40, topics)
	c := n.fetch()
	head := uint64(len(c.headers) - 1)
	ctx := context.Background()
	nonEmpty := 0
	const queries = 300
	for i := range queries {
		q := randomNodeQuery(r, n, append(topics, common.Hash{0xee}), head)
		from, to := uint64(*q.FromBlock), uint64(*q.ToBlock)
		if i%6 == 0 { // one block by hash
			hash := c.headers[from].Hash()
			q.BlockHash, q.FromBlock, q.ToBlock, to = &hash, nil, nil, from
		}
		ours, err := json.Marshal(c.scan(&q, from, to))
		if err != nil {
			t.Fatal(err)
		}
		var theirs []json.RawMessage
		// Our MarshalJSON is the eth_getLogs parameter object the node decodes.
		if err := n.rpc.CallContext(ctx, &theirs, "eth_getLogs", q); err != nil {
			t.Fatalf("eth_getLogs(%v) = %v", q, err)
		}
		if len(theirs) > 0 {
			nonEmpty++
		}
		want, _ := json.Marshal(theirs)
		if string(ours) != string(want) {
			qj, _ := json.Marshal(q)
			t.Fatalf("query %d %s: the scan gives\n%s\nthe node's eth_getLogs\n%s", i, qj, ours, want)
		}
	}
	if nonEmpty < queries/4 {
		t.Errorf("only %d of %d queries matched any log: the test does not exercise matching", nonEmpty, queries)
	}
	t.Logf("%d queries, %d with logs, all equal to eth_getLogs", queries, nonEmpty)
}

// TestIndexOnNodeHeaders builds the index from the node's headers and
// requires the linear scan's candidates.
func TestIndexOnNodeHeaders(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	n := newNode(t)
	topics := []common.Hash{{1}, {2}, {3}}
	n.mine(r, 20, topics)
	c := n.fetch()
	x, err := index.Create(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	blooms := make([]ethlogs.Bloom, len(c.headers))
	for i, h := range c.headers {
		if err := x.Append(h); err != nil {
			t.Fatal(err)
		}
		blooms[i] = *ethlogs.FromGeth(&h.Bloom)
	}
	for range 50 {
		q := randomNodeQuery(r, n, topics, uint64(len(c.headers)-1))
		m := q.Compile()
		got, err := x.Candidates(nil, m, 0, ^uint64(0))
		if err != nil {
			t.Fatal(err)
		}
		want := m.Scan(nil, 0, blooms)
		if len(got) != len(want) {
			t.Fatalf("Candidates = %v, linear scan %v", got, want)
		}
	}
}
