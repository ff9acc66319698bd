package scan_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
	"github.com/chainsieve/chainsieve/ethlogs/scan/demo"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

func topic(sig string) common.Hash { return crypto.Keccak256Hash([]byte(sig)) }

var (
	transferTopic = topic("Transfer(address,address,uint256)")
	approvalTopic = topic("Approval(address,address,uint256)")
	swapTopic     = topic("Swap(address,uint256,uint256,uint256,uint256,address)")
	pingTopic     = topic("Ping(address,bytes)")
)

func user(i int) common.Hash { return common.BytesToHash(demo.Users[i][:]) }

// demoQuery is a query of the demo chain and its range.
type demoQuery struct {
	name     string
	q        ethlogs.Query
	from, to uint64
}

// demoQueries are the kinds of query eth_getLogs users ask, on the demo's
// contracts and events.
func demoQueries(c *demo.Chain) []demoQuery {
	k := c.Contracts
	a := func(as ...common.Address) []common.Address { return as }
	return []demoQuery{
		{"address only", ethlogs.Query{Addresses: a(k.Token)}, 0, c.Head},
		{"topic only", ethlogs.Query{Topics: [][]common.Hash{{transferTopic}}}, 0, c.Head},
		{"address and topic", ethlogs.Query{Addresses: a(k.Stable), Topics: [][]common.Hash{{transferTopic}}}, 0, c.Head},
		{"address OR-list", ethlogs.Query{Addresses: a(k.Pool, k.Pinger, k.Anon)}, 0, c.Head},
		{"topic OR-list", ethlogs.Query{Topics: [][]common.Hash{{approvalTopic, swapTopic}}}, 0, c.Head},
		{"wildcard then value", ethlogs.Query{Topics: [][]common.Hash{nil, {user(0), user(1)}}}, 0, c.Head},
		{"wildcards only", ethlogs.Query{Topics: [][]common.Hash{nil, nil}}, 0, c.Head},
		{"four positions", ethlogs.Query{Addresses: a(k.Registry), Topics: [][]common.Hash{nil, {user(2), user(3), user(4)}, nil, nil}}, 0, c.Head},
		{"longer than the logs' topics", ethlogs.Query{Topics: [][]common.Hash{{pingTopic}, nil, nil}}, 0, c.Head},
		{"to whom", ethlogs.Query{Addresses: a(k.Token), Topics: [][]common.Hash{{transferTopic}, nil, {user(0)}}}, 0, c.Head},
		{"no match", ethlogs.Query{Addresses: a(common.Address{0xee})}, 0, c.Head},
		{"every log of a sub-range", ethlogs.Query{}, 100, 180},
		{"one block", ethlogs.Query{Addresses: a(k.Token, k.Stable)}, 87, 87},
	}
}

// TestScanMatchesGetLogs runs the demo's queries through the whole
// pipeline (over HTTP, with a shared index) and requires exactly the
// node's own eth_getLogs answer, byte for byte.
func TestScanMatchesGetLogs(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	dir := t.TempDir()
	nonEmpty, queries := 0, demoQueries(c)
	if testing.Short() {
		queries = slices.DeleteFunc(queries, func(tt demoQuery) bool { return !shortQueries[tt.name] })
		if len(queries) != len(shortQueries) {
			t.Fatalf("%d of shortQueries' %d names are demo queries", len(queries), len(shortQueries))
		}
	}
	for _, tt := range queries {
		to := tt.to
		cfg := scan.Config{Client: scan.NewClient(c.URL), Query: tt.q, From: tt.from, To: &to, IndexDir: dir, HeaderBatch: 64, ReceiptsBatch: 5}
		got, st, err := collect(t.Context(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		want := getLogs(t, c.URL, withRange(tt.q, tt.from, tt.to))
		if !slices.Equal(got, want) {
			t.Errorf("%s: the scan gives %d logs, eth_getLogs %d:\n%s\nwant\n%s", tt.name, len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(want) > 0 {
			nonEmpty++
		}
		if st.Matched > st.Candidates || st.Logs != uint64(len(got)) {
			t.Errorf("%s: stats %d candidates, %d matched, %d logs for %d emitted", tt.name, st.Candidates, st.Matched, st.Logs, len(got))
		}
	}
	if nonEmpty < len(queries)-2 {
		t.Errorf("only %d queries found logs: the demo chain does not exercise them", nonEmpty)
	}
}

// shortQueries are the demo queries TestScanMatchesGetLogs runs under
// -short: OR-lists of addresses and of topics, a wildcard, four positions,
// more positions than the logs have, none found, and a one-block range (7
// of 13; TestScanRandomQueries mixes the forms too).
var shortQueries = map[string]bool{"address OR-list": true, "topic OR-list": true, "wildcard then value": true,
	"four positions": true, "longer than the logs' topics": true, "no match": true, "one block": true}

func withRange(q ethlogs.Query, from, to uint64) ethlogs.Query {
	f, t := ethlogs.BlockNumber(from), ethlogs.BlockNumber(to)
	q.FromBlock, q.ToBlock = &f, &t
	return q
}

// TestScanRandomQueries compares random queries and ranges with
// eth_getLogs, in every verification mode.
func TestScanRandomQueries(t *testing.T) {
	t.Parallel()
	c := startDemo(t)
	r := rand.New(rand.NewPCG(6, 6))
	k := c.Contracts
	addrs := []common.Address{k.Token, k.Stable, k.Pool, k.Pair, k.Registry, k.Pinger, k.Anon, {0xee}}
	topics := []common.Hash{transferTopic, approvalTopic, swapTopic, pingTopic, user(0), user(1), user(2), {0xee}}
	dir := t.TempDir()
	queries := 40
	if testing.Short() {
		queries = 6 // two of each mode
	}
	for i := range queries {
		var q ethlogs.Query
		for range r.IntN(3) {
			q.Addresses = append(q.Addresses, addrs[r.IntN(len(addrs))])
		}
		for range r.IntN(5) {
			var pos []common.Hash
			for range r.IntN(3) {
				pos = append(pos, topics[r.IntN(len(topics))])
			}
			q.Topics = append(q.Topics, pos)
		}
		from := uint64(r.IntN(int(c.Head)))
		to := from + uint64(r.IntN(int(c.Head-from)+1))
		mode := scan.Mode(i % 3)
		got, _, err := collect(t.Context(), scan.Config{Client: scan.NewClient(c.URL), Query: q, From: from, To: &to, IndexDir: dir, Mode: mode})
		if err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
		if want := getLogs(t, c.URL, withRange(q, from, to)); !slices.Equal(got, want) {
			t.Fatalf("query %d (%s, blocks %d to %d): %d logs, eth_getLogs %d", i, mode, from, to, len(got), len(want))
		}
	}
}

// TestScanUsesIndex checks that a second scan reads its headers from the
// index, fetches none, and finds the same logs; and that a bloom-untrusted
// scan fetches every block's receipts.
func TestScanUsesIndex(t *testing.T) {
	c := startDemo(t)
	dir := t.TempDir()
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Token}, Topics: [][]common.Hash{{transferTopic}}}
	cfg := scan.Config{Client: scan.NewClient(c.URL), Query: q, IndexDir: dir}
	first, st1, err := collect(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Client = scan.NewClient(c.URL)
	second, st2, err := collect(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st1.HeadersFetched != c.Head+1 || st2.HeadersFetched != 0 || st2.HeadersIndexed != c.Head+1 || !slices.Equal(first, second) {
		t.Errorf("headers fetched %d then %d (indexed %d), logs %d then %d; want %d, 0 (%d), equal",
			st1.HeadersFetched, st2.HeadersFetched, st2.HeadersIndexed, len(first), len(second), c.Head+1, c.Head+1)
	}
	if st1.Candidates <= st1.Matched {
		t.Errorf("%d candidates, %d matched: the demo query should meet a bloom false positive", st1.Candidates, st1.Matched)
	}
	cfg.Mode, cfg.Client = scan.BloomUntrusted, scan.NewClient(c.URL)
	third, st3, err := collect(t.Context(), cfg)
	if err != nil || st3.Candidates != c.Head+1 || !slices.Equal(first, third) {
		t.Errorf("bloom-untrusted: %v, %d candidates, %d logs; want all %d blocks and the same %d logs", err, st3.Candidates, len(third), c.Head+1, len(first))
	}
}

// TestScanAnchor pins the anchor: a block above the range, the range's
// last block, and a hash the chain does not lead to.
func TestScanAnchor(t *testing.T) {
	c := startDemo(t)
	client := scan.NewClient(c.URL)
	hashOf := func(n uint64) common.Hash {
		var b struct {
			Hash common.Hash `json:"hash"`
		}
		if err := client.Call(t.Context(), &b, "eth_getBlockByNumber", hexNumber(n), false); err != nil {
			t.Fatal(err)
		}
		return b.Hash
	}
	q := ethlogs.Query{Addresses: []common.Address{c.Contracts.Stable}}
	dir := t.TempDir()
	for _, tt := range []struct {
		anchor   uint64
		from, to uint64
	}{{200, 50, 150}, {150, 0, 150}, {c.Head, 120, 121}} {
		h := hashOf(tt.anchor)
		to := tt.to
		got, st, err := collect(t.Context(), scan.Config{Client: client, Query: q, From: tt.from, To: &to, Anchor: scan.Anchor{Block: scan.BlockHash(h)}, IndexDir: dir})
		if err != nil {
			t.Fatalf("anchor %d, blocks %d to %d: %v", tt.anchor, tt.from, tt.to, err)
		}
		if want := getLogs(t, c.URL, withRange(q, tt.from, tt.to)); !slices.Equal(got, want) || st.AnchorNumber != tt.anchor || st.AnchorFromNode {
			t.Errorf("anchor %d, blocks %d to %d: %d logs (want %d), anchor %d from node %t", tt.anchor, tt.from, tt.to, len(got), len(want), st.AnchorNumber, st.AnchorFromNode)
		}
	}
	unknown := common.Hash{0xab}
	if _, _, err := collect(t.Context(), scan.Config{Client: client, Query: q, Anchor: scan.Anchor{Block: scan.BlockHash(unknown)}, IndexDir: dir}); err == nil || !strings.Contains(err.Error(), "the node does not know block "+unknown.Hex()) {
		t.Errorf("an anchor the node does not know: %v; want \"the node does not know block %s\"", err, unknown.Hex())
	}
}

func hexNumber(n uint64) string { return hexutil.EncodeUint64(n) }
