package event

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// logOf encodes a log of a marked declaration with accounts/abi: topics
// by MakeTopics, data by Pack. values are in declaration order.
func logOf(t *testing.T, decl string, values ...any) ([]common.Hash, []byte) {
	t.Helper()
	e := mustParse(t, decl)
	gabi, err := abi.JSON(strings.NewReader(string(abiJSON(e))))
	if err != nil {
		t.Fatal(err)
	}
	topics := []common.Hash{e.Topic()}
	var data []any
	for i, in := range e.Inputs {
		if in.Indexed {
			topics = append(topics, made(t, values[i]))
		} else {
			data = append(data, values[i])
		}
	}
	packed, err := gabi.Events[e.Name].Inputs.NonIndexed().Pack(data...)
	if err != nil {
		t.Fatal(err)
	}
	return topics, packed
}

// TestLayouts decodes logs of well-known events with their cast-style
// signatures (no "indexed") and checks the layout chosen for each log.
func TestLayouts(t *testing.T) {
	a, b := common.HexToAddress(alice), common.HexToAddress(bob)
	small := big.NewInt(1000) // reads as an address too: the ambiguous case
	tests := []struct {
		name       string
		emitted    string // the declaration the contract has
		values     []any
		unmarked   string // what the user typed
		alternates int    // other layouts that fit, after the first; -1: not counted
	}{
		{"ERC-20 Transfer", "Transfer(address indexed from, address indexed to, uint256 value)", []any{a, b, small},
			"Transfer(address,address,uint256)", 2},
		{"ERC-721 Transfer", "Transfer(address indexed from, address indexed to, uint256 indexed id)", []any{a, b, small},
			"Transfer(address,address,uint256)", 0},
		{"Uniswap V2 Swap", "Swap(address indexed sender, uint256 a0in, uint256 a1in, uint256 a0out, uint256 a1out, address indexed to)",
			[]any{a, small, big.NewInt(0), big.NewInt(0), small, b}, "Swap(address,uint256,uint256,uint256,uint256,address)", 14},
		{"WETH Deposit", "Deposit(address indexed dst, uint256 wad)", []any{a, small}, "Deposit(address,uint256)", 1},
		{"no address: the earlier one", "E(uint256 indexed x, uint256 y)", []any{small, big.NewInt(5)}, "E(uint256,uint256)", 1},
		{"exact encodings first", "E(string s, uint256 indexed n)", []any{"hi", small}, "E(string,uint256)", 1},
		{"string indexed", "Named(string indexed name, address owner)", []any{"alice.eth", a}, "Named(string,address)", 0},
		{"Uniswap V2 Burn", "Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
			[]any{a, small, small, b}, "Burn(address,uint256,uint256,address)", -1},
		{"Uniswap V2 PairCreated", "PairCreated(address indexed token0, address indexed token1, address pair, uint256 n)",
			[]any{a, b, a, small}, "PairCreated(address,address,address,uint256)", -1},
		{"ERC-1155 TransferSingle", "TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
			[]any{a, b, a, small, small}, "TransferSingle(address,address,address,uint256,uint256)", -1},
		{"ERC-1155 ApprovalForAll", "ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
			[]any{a, b, true}, "ApprovalForAll(address,address,bool)", -1},
	}
	for _, tt := range tests {
		marked := mustParse(t, tt.emitted)
		topics, data := logOf(t, tt.emitted, tt.values...)
		e := mustParse(t, tt.unmarked)
		if !e.Unmarked() || marked.Unmarked() {
			t.Fatalf("%s: Unmarked() = %t for %s, %t for %s", tt.name, e.Unmarked(), e, marked.Unmarked(), marked)
		}
		layouts := e.Layouts(topics, data)
		if len(layouts) == 0 || layouts[0].Signature() != marked.Signature() || indexedMask(layouts[0]) != indexedMask(marked) {
			t.Errorf("%s: Layouts(%s)[0] = %v, want %s", tt.name, e, layouts, marked)
			continue
		}
		if tt.alternates >= 0 && len(layouts)-1 != tt.alternates {
			t.Errorf("%s: %d other layouts fit, want %d: %v", tt.name, len(layouts)-1, tt.alternates, layouts)
		}
		got, err := e.Values(topics, data)
		want, _ := marked.Values(topics, data)
		if err != nil || !sameValue(got, want) {
			t.Errorf("%s: Values = %v, %v; the marked declaration gives %v", tt.name, got, err, want)
		}
		args, err := e.Decode(topics, data)
		for i, a := range args {
			if a.Indexed != marked.Inputs[i].Indexed {
				t.Errorf("%s: Decode()[%d].Indexed = %t, want %t (%v)", tt.name, i, a.Indexed, marked.Inputs[i].Indexed, err)
			}
		}
	}
}

func indexedMask(e *Event) string {
	var s strings.Builder
	for _, in := range e.Inputs {
		s.WriteString(map[bool]string{true: "i", false: "-"}[in.Indexed])
	}
	return s.String()
}

// TestLayoutPins checks that the event a Filter returns decodes with the
// layout the filter assumed, even where another layout ranks first.
func TestLayoutPins(t *testing.T) {
	topics, data := logOf(t, "E(uint256 indexed n, address who)", big.NewInt(5), common.HexToAddress(alice))
	e := mustParse(t, "E(uint256 n, address who)")
	if first := e.Layouts(topics, data)[0]; indexedMask(first) != "-i" {
		t.Fatalf("without a filter the address ranks first; got %s", first)
	}
	f, err := e.Filter(Condition{Name: "n", Values: []string{"5"}})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		N   *big.Int
		Who common.Address
	}
	if err := f.Event.Unpack(&got, topics, data); err != nil || got.N.Int64() != 5 || got.Who != common.HexToAddress(alice) {
		t.Errorf("Filter(n=5).Event.Unpack = %+v, %v; want n 5 and who %s", got, err, alice)
	}
	if ls := f.Event.Layouts(topics, data); len(ls) != 1 || indexedMask(ls[0]) != "i-" {
		t.Errorf("Filter(n=5).Event.Layouts = %v, want only E(uint256 indexed n, address who)", ls)
	}
	f, err = e.Filter(Condition{Name: "who", Values: []string{alice}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Event.Values(topics[:1], data); err == nil || !strings.Contains(err.Error(), "a log of E(uint256,address) with 1 topics cannot have who at topic 1, as the filter assumed") {
		t.Errorf("Values of a log too short for the filter's layout = %v", err)
	}
}

func TestLayoutErrors(t *testing.T) {
	e := mustParse(t, "Transfer(address,address,uint256)")
	word := common.Hash{31: 1}
	tests := []struct {
		topics  []common.Hash
		data    []byte
		wantErr string
	}{
		{[]common.Hash{e.Topic(), word, word, word, word}, nil, "5 topics, Transfer(address,address,uint256) has 3 parameters, at most 3 of them indexed"},
		{[]common.Hash{e.Topic(), word, word}, nil, "no choice of 2 indexed parameters of Transfer(address,address,uint256) decodes the log; the likeliest, Transfer(address indexed, address indexed, uint256), gives: event: 0 bytes of data"},
		{[]common.Hash{e.Topic(), {1}, {2}, {3}}, nil, "event: address arg0: high 12 bytes not zero"}, // one layout: its own error
		{[]common.Hash{e.Topic()}, word[:], "32 bytes of data, Transfer(address,address,uint256) needs at least 96"},
	}
	for _, tt := range tests {
		if _, err := e.Decode(tt.topics, tt.data); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("Decode(%d topics, %d bytes) = %v, want an error containing %q", len(tt.topics), len(tt.data), err, tt.wantErr)
		}
		if ls := e.Layouts(tt.topics, tt.data); len(ls) != 0 {
			t.Errorf("Layouts(%d topics, %d bytes) = %v, want none", len(tt.topics), len(tt.data), ls)
		}
	}
	wide := mustParse(t, "E("+strings.Repeat("uint256,", 39)+"uint256)")
	if _, err := wide.Decode([]common.Hash{wide.Topic(), word, word, word}, nil); err == nil || !strings.Contains(err.Error(), "too many parameters to work out which 3 are indexed") {
		t.Errorf("Decode of a 40-parameter unmarked event = %v, want an error asking to mark the indexed parameters", err)
	}
}

// TestLayoutsAmbiguous pins down the case docs/ethlogs.md warns of:
// Uniswap V3's Mint reads exactly both with owner indexed (the truth) and
// with sender indexed; the rule ranks the earlier parameter first, and the
// truth is among the layouts.
func TestLayoutsAmbiguous(t *testing.T) {
	const emitted = "Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)"
	topics, data := logOf(t, emitted, common.HexToAddress(alice), common.HexToAddress(bob), big.NewInt(-887220), big.NewInt(887220), big.NewInt(10), big.NewInt(20), big.NewInt(30))
	e := mustParse(t, "Mint(address,address,int24,int24,uint128,uint256,uint256)")
	layouts := e.Layouts(topics, data)
	if len(layouts) < 2 || indexedMask(layouts[0]) != "i-ii---" {
		t.Fatalf("Layouts = %v, want sender, tickLower, tickUpper first", layouts)
	}
	found := false
	for _, l := range layouts {
		found = found || indexedMask(l) == indexedMask(mustParse(t, emitted))
	}
	if !found {
		t.Errorf("Layouts = %v, without the true one", layouts)
	}
}
