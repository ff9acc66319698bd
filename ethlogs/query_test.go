package ethlogs

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/filters"
)

const (
	addrA  = "0x00000000000000000000000000000000000000aa"
	addrB  = "0x00000000000000000000000000000000000000bb"
	topicA = "0x00000000000000000000000000000000000000000000000000000000000000a1"
	topicB = "0x00000000000000000000000000000000000000000000000000000000000000b2"
)

func TestMatch(t *testing.T) {
	a, b := common.HexToAddress(addrA), common.HexToAddress(addrB)
	ta, tb := common.HexToHash(topicA), common.HexToHash(topicB)
	log := &types.Log{Address: a, Topics: []common.Hash{ta, tb}, BlockNumber: 10}
	tests := []struct {
		name string
		q    Query
		want bool
	}{
		{"empty query", Query{}, true},
		{"address", Query{Addresses: []common.Address{b, a}}, true},
		{"other address", Query{Addresses: []common.Address{b}}, false},
		{"topic 0", Query{Topics: [][]common.Hash{{ta}}}, true},
		{"topic in the wrong position", Query{Topics: [][]common.Hash{{tb}}}, false},
		{"wildcard then topic 1", Query{Topics: [][]common.Hash{nil, {tb}}}, true},
		{"empty position is a wildcard", Query{Topics: [][]common.Hash{{}, {ta, tb}}}, true},
		{"longer than the log, wildcards", Query{Topics: [][]common.Hash{nil, nil, nil}}, false},
		{"as long as the log, wildcards", Query{Topics: [][]common.Hash{nil, nil}}, true},
		{"or-list miss", Query{Topics: [][]common.Hash{{tb, {7}}}}, false},
		{"in range", Query{FromBlock: ptr(BlockNumber(10)), ToBlock: ptr(BlockNumber(10))}, true},
		{"before range", Query{FromBlock: ptr(BlockNumber(11))}, false},
		{"after range", Query{ToBlock: ptr(BlockNumber(9))}, false},
		{"named bounds are not checked", Query{FromBlock: ptr(Latest), ToBlock: ptr(Earliest)}, true},
	}
	for _, tt := range tests {
		if got := tt.q.Match(log); got != tt.want {
			t.Errorf("%s: Match = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

var queryJSON = []struct {
	in      string
	want    string // MarshalJSON of the result
	wantErr string
}{
	{`{}`, `{}`, ""},
	{`null`, `{}`, ""},
	{`{"address":"` + addrA + `"}`, `{"address":["` + addrA + `"]}`, ""},
	{`{"address":["` + addrA + `","` + addrB + `"],"fromBlock":"0x10","toBlock":"latest"}`,
		`{"fromBlock":"0x10","toBlock":"latest","address":["` + addrA + `","` + addrB + `"]}`, ""},
	{`{"topics":[null,"` + topicA + `",["` + topicA + `","` + topicB + `"],[]]}`,
		`{"topics":[null,["` + topicA + `"],["` + topicA + `","` + topicB + `"],null]}`, ""},
	{`{"topics":[["` + topicA + `",null]]}`, `{"topics":[null]}`, ""},
	{`{"topics":[[null,"not hex"]]}`, `{"topics":[null]}`, ""}, // the node reads no further
	{`{"topics":[]}`, `{}`, ""},
	{`{"blockHash":"` + topicA + `"}`, `{"blockHash":"` + topicA + `"}`, ""},
	{`{"FROMBLOCK":"earliest","ToBlock":"safe"}`, `{"fromBlock":"earliest","toBlock":"safe"}`, ""},
	{`{"blockHash":"` + topicA + `","fromBlock":"0x1"}`, "", "blockHash together with"},
	{`{"topics":[null,null,null,null,null]}`, "", "5 topic positions"},
	{`{"address":"0xaa"}`, "", "1 bytes, want 20"},
	{`{"address":[1]}`, "", "address 0 is not a string"},
	{`{"address":{}}`, "", "neither a string nor an array"},
	{`{"address":"aa"}`, "", "without 0x prefix"},
	{`{"topics":[1]}`, "", "topic position 0 is not null"},
	{`{"topics":[["` + topicA + `",[]]]}`, "", "alternative 1 is not a string"},
	{`{"topics":"` + topicA + `"}`, "", "topics:"},
	{`{"fromBlock":"0x01"}`, "", "leading zero"},
	{`{"fromBlock":"0x8000000000000000"}`, "", "larger than int64"},
	{`{"fromBlock":"\u006catest"}`, "", "block number"}, // the node does not decode escapes here
	{`[]`, "", "query:"},
}

func TestParseQuery(t *testing.T) {
	for _, tt := range queryJSON {
		q, err := ParseQuery([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "ethlogs: ") {
				t.Errorf("ParseQuery(%s) = %v, want an error containing %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseQuery(%s) = %v", tt.in, err)
			continue
		}
		out, err := json.Marshal(q)
		if err != nil || string(out) != tt.want {
			t.Errorf("json.Marshal(ParseQuery(%s)) = %s, %v, want %s", tt.in, out, err, tt.want)
		}
	}
}

// sameAsGeth compares our decoding of in with go-ethereum's node-side
// decoding (filters.FilterCriteria): both accept or both reject, and an
// accepted query means the same thing.
func sameAsGeth(t *testing.T, in []byte) (Query, bool) {
	t.Helper()
	q, err := ParseQuery(in)
	var fc filters.FilterCriteria
	gerr := fc.UnmarshalJSON(in)
	if (err == nil) != (gerr == nil) {
		t.Fatalf("ParseQuery(%q) error = %v, go-ethereum's = %v", in, err, gerr)
	}
	if err != nil {
		return q, false
	}
	if !equalQuery(q, fc) {
		t.Fatalf("ParseQuery(%q) = %+v, go-ethereum decodes %+v", in, q, fc)
	}
	return q, true
}

func equalQuery(q Query, fc filters.FilterCriteria) bool {
	if (q.BlockHash == nil) != (fc.BlockHash == nil) || q.BlockHash != nil && *q.BlockHash != *fc.BlockHash {
		return false
	}
	for _, p := range []struct {
		ours   *BlockNumber
		theirs interface{ Int64() int64 }
		nil    bool
	}{{q.FromBlock, fc.FromBlock, fc.FromBlock == nil}, {q.ToBlock, fc.ToBlock, fc.ToBlock == nil}} {
		if (p.ours == nil) != p.nil || p.ours != nil && int64(*p.ours) != p.theirs.Int64() {
			return false
		}
	}
	if !slices.Equal(q.Addresses, fc.Addresses) || len(q.Topics) != len(fc.Topics) {
		return false
	}
	for i := range q.Topics {
		if !slices.Equal(q.Topics[i], fc.Topics[i]) {
			return false
		}
	}
	return true
}

func TestParseQueryMatchesGeth(t *testing.T) {
	for _, tt := range queryJSON {
		sameAsGeth(t, []byte(tt.in))
	}
}

// FuzzParseQuery checks ParseQuery against go-ethereum's decoder on any
// input, and that an accepted query survives MarshalJSON: re-parsed by us and
// by go-ethereum, it is the same query.
func FuzzParseQuery(f *testing.F) {
	for _, tt := range queryJSON {
		f.Add([]byte(tt.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		q, ok := sameAsGeth(t, in)
		if !ok {
			return
		}
		out, err := json.Marshal(q)
		if err != nil {
			t.Fatalf("json.Marshal(ParseQuery(%q)) = %v", in, err)
		}
		again, ok := sameAsGeth(t, out)
		if !ok {
			t.Fatalf("ParseQuery(%s) fails on our own output", out)
		}
		if out2, _ := json.Marshal(again); string(out2) != string(out) {
			t.Fatalf("round trip %s became %s", out, out2)
		}
	})
}

func TestValidate(t *testing.T) {
	h := common.Hash{1}
	tests := []struct {
		name string
		q    Query
		ok   bool
	}{
		{"empty", Query{}, true},
		{"range", Query{FromBlock: ptr(BlockNumber(1)), ToBlock: ptr(BlockNumber(2))}, true},
		{"named range", Query{FromBlock: ptr(Latest), ToBlock: ptr(BlockNumber(2))}, true},
		{"backwards", Query{FromBlock: ptr(BlockNumber(3)), ToBlock: ptr(BlockNumber(2))}, false},
		{"hash and range", Query{BlockHash: &h, ToBlock: ptr(Latest)}, false},
		{"five positions", Query{Topics: make([][]common.Hash, 5)}, false},
		{"bad name", Query{FromBlock: ptr(BlockNumber(-9))}, false},
		{"too many alternatives", Query{Topics: [][]common.Hash{make([]common.Hash, MaxAlternatives+1)}}, false},
	}
	for _, tt := range tests {
		if err := tt.q.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: Validate() = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

func TestFilterQueryRoundTrip(t *testing.T) {
	q := Query{FromBlock: ptr(Finalized), ToBlock: ptr(BlockNumber(99)), Addresses: []common.Address{{1}}, Topics: [][]common.Hash{nil, {{2}}}}
	back, err := QueryOf(q.FilterQuery())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(q)
	b, _ := json.Marshal(back)
	if string(a) != string(b) {
		t.Errorf("QueryOf(FilterQuery()) = %s, want %s", b, a)
	}
}
