package event

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

const (
	alice    = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55's own examples
	bob      = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"
	badCase  = "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // alice with one letter's case changed
	transfer = "Transfer(address indexed from, address indexed to, uint256 value)"
)

// made returns the topic accounts/abi makes for a Go value.
func made(t *testing.T, v any) common.Hash {
	t.Helper()
	ts, err := abi.MakeTopics([]any{v})
	if err != nil {
		t.Fatal(err)
	}
	return ts[0][0]
}

func mustParse(t *testing.T, decl string) *Event {
	t.Helper()
	e, err := Parse(decl)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func conditions(t *testing.T, args ...string) []Condition {
	t.Helper()
	var cs []Condition
	for _, a := range args {
		c, err := ParseCondition(a)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// TestFilter checks the topics of NAME=VALUE conditions and of cast's
// positional values, each expected topic made by accounts/abi's MakeTopics
// from the Go value.
func TestFilter(t *testing.T) {
	a, b := common.HexToAddress(alice), common.HexToAddress(bob)
	minus := big.NewInt(-2)
	tests := []struct {
		decl       string
		args       []string // NAME=VALUE conditions, or positional values with positional
		positional bool
		want       [][]any // per topic position after 0; nil: any
		assumed    string  // part of Filter.Assumed, for unmarked declarations
	}{
		{transfer, []string{"to=" + alice}, false, [][]any{nil, {a}}, ""},
		{transfer, []string{"from=" + strings.ToLower(bob) + "," + alice}, false, [][]any{{b, a}}, ""},
		{transfer, []string{"to=" + alice, "from=" + bob}, false, [][]any{{b}, {a}}, ""},
		{"E(int16 indexed x, bool indexed y, bytes4 indexed z)", []string{"x=-2", "y=true", "z=0xcafebabe"}, false, [][]any{{int16(-2)}, {true}, {[4]byte{0xca, 0xfe, 0xba, 0xbe}}}, ""},
		{"E(int200 indexed x)", []string{"x=-0x2"}, false, [][]any{{minus}}, ""},
		{"E(uint64 indexed n, string indexed s, bytes indexed b)", []string{"n=0xffffffffffffffff", `s="a,b",c`, "b=0x00ff"}, false, [][]any{{uint64(1<<64 - 1)}, {"a,b", "c"}, {[]byte{0, 0xff}}}, ""},
		{"E(uint256 indexed, address indexed)", []string{"arg1=" + alice}, false, [][]any{nil, {a}}, ""},
		{"Transfer(address,address,uint256)", []string{"arg1=" + alice}, false, [][]any{nil, {a}}, "arg0 at topic 1, arg1 at topic 2"},
		{"Swap(address sender, uint256 a, uint256 b, address to)", []string{"to=" + bob}, false, [][]any{nil, {b}}, "sender at topic 1, to at topic 2"},
		{"Transfer(address from, address to, uint256 id)", []string{"id=7"}, false, [][]any{nil, nil, {big.NewInt(7)}}, "id at topic 3"},
		{transfer, []string{"null", alice}, true, [][]any{nil, {a}}, ""},
		{transfer, []string{alice + "," + bob}, true, [][]any{{a, b}}, ""},
		{transfer, []string{"", ""}, true, nil, ""},
		{"Transfer(address,address,uint256)", []string{"null", alice}, true, [][]any{nil, {a}}, "arg0 at topic 1, arg1 at topic 2"},
		{"Transfer(address,address,uint256)", []string{"null", "null", "5"}, true, [][]any{nil, nil, {big.NewInt(5)}}, "arg2 at topic 3"},
		{"Swap(address sender, uint256 a, uint256 b, address to)", []string{"null", bob}, true, [][]any{nil, {b}}, "sender at topic 1, to at topic 2"},
		{"Message(string indexed text)", []string{`"null"`}, true, [][]any{{"null"}}, ""},
	}
	for _, tt := range tests {
		e := mustParse(t, tt.decl)
		var f *Filter
		var err error
		if tt.positional {
			f, err = e.FilterPositional(tt.args...)
		} else {
			f, err = e.Filter(conditions(t, tt.args...)...)
		}
		if err != nil {
			t.Errorf("%s %q: %v", tt.decl, tt.args, err)
			continue
		}
		want := [][]common.Hash{{e.Topic()}}
		for _, pos := range tt.want {
			var hs []common.Hash
			for _, v := range pos {
				hs = append(hs, made(t, v))
			}
			want = append(want, hs)
		}
		if !slices.EqualFunc(f.Topics, want, slices.Equal) {
			t.Errorf("%s %q: Topics = %v, want %v", tt.decl, tt.args, f.Topics, want)
		}
		if !strings.Contains(f.Assumed, tt.assumed) || (tt.assumed == "") != (f.Assumed == "") {
			t.Errorf("%s %q: Assumed = %q, want it to say %q", tt.decl, tt.args, f.Assumed, tt.assumed)
		}
	}
}

// TestFilterErrors covers every refusal of Filter and FilterPositional:
// each error names the parameter and the reason.
func TestFilterErrors(t *testing.T) {
	tests := []struct {
		decl       string
		args       []string // NAME=VALUE conditions, or positional values with positional
		positional bool
		wantErr    string
	}{
		{transfer, []string{"too=" + alice}, false, `Transfer has no parameter "too"; its parameters are from, to, value`},
		{transfer, []string{"value=5"}, false, "value is not indexed in Transfer(address indexed from, address indexed to, uint256 value)"},
		{transfer, []string{"to=0x12"}, false, `address to: "0x12" is not an address: want 0x and 40 hex digits`},
		{transfer, []string{"to=" + badCase}, false, "address to: " + badCase + " fails its EIP-55 checksum"},
		{transfer, []string{"to=" + alice, "to=" + bob}, false, "to given twice"},
		{transfer, []string{"to="}, false, `address to: "" is not an address`},
		{transfer, []string{"to=" + alice + ",0xzz"}, false, `"0xzz" is not an address`},
		{transfer, []string{"to=[" + alice}, false, "to: unclosed bracket"},
		{transfer, []string{"to=" + strings.Repeat(alice+",", 1000) + alice}, false, "to: 1001 values, at most 1000"},
		{transfer, nil, false, "no condition"},
		{"E(uint8 indexed small)", []string{"small=256"}, false, "uint8 small: 256 overflows uint8 (0 to 255)"},
		{"E(uint8 indexed small)", []string{"small=-1"}, false, `uint8 small: "-1" is not a uint8`},
		{"E(int8 indexed x)", []string{"x=-129"}, false, "int8 x: -129 overflows int8 (-128 to 127)"},
		{"E(int8 indexed x)", []string{"x=0xff"}, false, "int8 x: 0xff overflows int8"},
		{"E(uint256 indexed x)", []string{"x=1e18"}, false, `uint256 x: "1e18" is not a uint256: want a decimal or 0x hex integer`},
		{"E(uint256 indexed x)", []string{"x=0x" + strings.Repeat("f", 65)}, false, "overflows uint256"},
		{"E(bool indexed ok)", []string{"ok=yes"}, false, `bool ok: "yes" is not a bool: want true or false`},
		{"E(bytes4 indexed tag)", []string{"tag=0xcafe"}, false, `bytes4 tag: "0xcafe" is not a bytes4: 2 bytes, want 4`},
		{"E(bytes indexed b)", []string{"b=0xabc"}, false, "even number of hex digits"},
		{"E(uint8[2] indexed a)", []string{"a=[1,2,3]"}, false, `has 3 elements, uint8[2] has 2`},
		{"E((uint8,string) indexed a)", []string{"a=(1)"}, false, `has 1 members, (uint8,string) has 2`},
		{"E(string[] indexed a)", []string{"a=[a,b])"}, false, "a: unmatched )"},
		{"E(string[] indexed a)", []string{`a=["x]`}, false, "unclosed quote"},
		{"E(string indexed s)", []string{`s="\q"`}, false, `string s: "\q" is not a quoted string`},
		{"E(string[] indexed a)", []string{`a=[x,y"]`}, false, "unclosed quote"},
		{"E(string[] indexed a)", []string{"a=[x(]"}, false, "unclosed bracket"},
		{"E(string[] indexed a)", []string{"a=[(x)]"}, false, `element 0: "(x)": quote a string that holds`},
		{"E(uint8[] indexed a)", []string{"a=1"}, false, `uint8[] a: "1" is not a uint8[]: want [a, b, …]`},
		{"E(address a, address b, address c, uint256 d)", []string{"d=1"}, false, "taking a, b, c, d as indexed makes 4, more than 3: mark the indexed parameters"},
		{transfer, []string{alice, bob, "5"}, true, "3 values, but Transfer(address indexed from, address indexed to, uint256 value) has 2 indexed parameters"},
		{"Transfer(address,address,uint256)", []string{"1", "2", "3", "4"}, true, "4 values: Transfer(address,address,uint256) has 3 parameters, at most 3 of them indexed"},
		{transfer, []string{"null", "nope"}, true, `address to: "nope" is not an address`},
	}
	for _, tt := range tests {
		e := mustParse(t, tt.decl)
		var err error
		if tt.positional {
			_, err = e.FilterPositional(tt.args...)
		} else {
			var cs []Condition
			for _, a := range tt.args {
				c, perr := ParseCondition(a)
				if perr != nil {
					err = perr
					break
				}
				cs = append(cs, c)
			}
			if err == nil {
				_, err = e.Filter(cs...)
			}
		}
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "event: ") {
			t.Errorf("%s %q: error %v, want one containing %q", tt.decl, clip(strings.Join(tt.args, " ")), err, tt.wantErr)
		}
	}
}

func TestParseConditionErrors(t *testing.T) {
	for _, s := range []string{"to", "=0x12", "1x=5", "a b=5"} {
		if _, err := ParseCondition(s); err == nil || !strings.Contains(err.Error(), "want NAME=VALUE") {
			t.Errorf("ParseCondition(%q) = %v, want an error asking for NAME=VALUE", s, err)
		}
	}
}

func TestFilterApply(t *testing.T) {
	e := mustParse(t, transfer)
	a, b := common.HexToHash(alice), common.HexToHash(bob)
	f, err := e.Filter(conditions(t, "to="+alice+","+bob)...)
	if err != nil {
		t.Fatal(err)
	}
	q := ethlogs.Query{Topics: [][]common.Hash{nil, {a}, {b, {1}}}}
	if err := f.Apply(&q); err != nil {
		t.Fatal(err)
	}
	want := [][]common.Hash{{e.Topic()}, {a}, {b}}
	if !slices.EqualFunc(q.Topics, want, slices.Equal) {
		t.Errorf("Apply = %v, want %v", q.Topics, want)
	}
	q = ethlogs.Query{Topics: [][]common.Hash{{a}}}
	if err := f.Apply(&q); err == nil || !strings.Contains(err.Error(), "topic 0") {
		t.Errorf("Apply on a query for another topic 0 = %v, want an error naming topic 0", err)
	}
}
