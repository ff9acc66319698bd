package event

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// oracleEvents is the number of random events the accounts/abi
// differential test checks (a tenth with -short).
const oracleEvents = 20000

// TestAgainstABI checks the package against go-ethereum's accounts/abi on
// random events: random signatures over every type (elementary types of
// every width, fixed and dynamic arrays, tuples, nested up to three deep),
// random indexed subsets and random values. For each event:
//
//   - ParseABI and Parse read the same event as accounts/abi reads from the
//     ABI JSON: same signature, same topic 0;
//   - the data is packed by accounts/abi, and the indexed values are made
//     topics by abi.MakeTopics where it can (words, string, bytes) and by
//     EncodeTopic otherwise (arrays and tuples, checked against Solidity in
//     TestAgainstSolidity); EncodeTopic must equal MakeTopics;
//   - Values must equal what accounts/abi unpacks (UnpackValues for the
//     data, ParseTopicsIntoMap for the topics), reflect.DeepEqual, Go types
//     included;
//   - each value written as text and read back by ParseValue is the same
//     value, and a Filter on each indexed parameter's text selects the log
//     (ethlogs.Query.Match) with the topic MakeTopics gives;
//   - an unmarked copy of the declaration (no "indexed") decodes the log
//     through one of its Layouts to the same values.
func TestAgainstABI(t *testing.T) {
	n := oracleEvents
	if testing.Short() {
		n /= 10
	}
	r := rand.New(rand.NewPCG(17, 1))
	for i := range n {
		checkAgainstABI(t, r, i, randomEvent(r))
		if t.Failed() {
			return
		}
	}
}

func checkAgainstABI(t *testing.T, r *rand.Rand, i int, want *Event) {
	t.Helper()
	js := abiJSON(want)
	gabi, err := abi.JSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("event %d %s: accounts/abi: %v", i, want, err)
	}
	gev := gabi.Events["E"]
	parsed, err := ParseABI(js)
	if err != nil {
		t.Fatalf("event %d %s: ParseABI: %v", i, want, err)
	}
	e, err := parsed.Event("E")
	if err != nil {
		t.Fatalf("event %d %s: Event: %v", i, want, err)
	}
	fromText, err := Parse(e.String())
	if err != nil {
		t.Fatalf("event %d: Parse(%q): %v", i, e.String(), err)
	}
	if e.Signature() != gev.Sig || e.Topic() != gev.ID || fromText.Topic() != gev.ID || e.String() != want.String() {
		t.Fatalf("event %d: ParseABI %s, Parse %s; accounts/abi %s %s", i, e, fromText.Signature(), gev.Sig, gev.ID)
	}

	values := make([]reflect.Value, len(e.Inputs))
	var dataValues []any
	topics := []common.Hash{e.Topic()}
	for j, in := range e.Inputs {
		values[j] = randomValue(r, &in.Type)
		if !in.Indexed {
			dataValues = append(dataValues, values[j].Interface())
			continue
		}
		topic, err := EncodeTopic(in.Type, values[j].Interface())
		if err != nil {
			t.Fatalf("event %d %s: EncodeTopic(%s): %v", i, e, in.Type, err)
		}
		if in.Type.Word() || in.Type.Kind == String || in.Type.Kind == Bytes {
			made, err := abi.MakeTopics([]any{values[j].Interface()})
			if err != nil {
				t.Fatalf("event %d %s: MakeTopics(%s): %v", i, e, in.Type, err)
			}
			if made[0][0] != topic {
				t.Fatalf("event %d %s: EncodeTopic(%s, %v) = %s, MakeTopics %s", i, e, in.Type, values[j], topic, made[0][0])
			}
		}
		topics = append(topics, topic)
	}
	data, err := gev.Inputs.NonIndexed().Pack(dataValues...)
	if err != nil {
		t.Fatalf("event %d %s: Pack: %v", i, e, err)
	}

	got, err := e.Values(topics, data)
	if err != nil {
		t.Fatalf("event %d %s: Values = %v", i, e, err)
	}
	unpacked, err := gev.Inputs.NonIndexed().UnpackValues(data)
	if err != nil {
		t.Fatalf("event %d %s: UnpackValues: %v", i, e, err)
	}
	indexed := map[string]any{}
	var indexedArgs abi.Arguments
	for _, a := range gev.Inputs {
		if a.Indexed && a.Type.T != abi.TupleTy {
			indexedArgs = append(indexedArgs, a)
		}
	}
	var wordTopics []common.Hash
	for j, in := range e.Inputs {
		if in.Indexed && in.Type.Kind != Tuple {
			wordTopics = append(wordTopics, topics[1+e.indexedBefore(j)])
		}
	}
	if err := abi.ParseTopicsIntoMap(indexed, indexedArgs, wordTopics); err != nil {
		t.Fatalf("event %d %s: ParseTopicsIntoMap: %v", i, e, err)
	}
	for j, in := range e.Inputs {
		var oracle any
		switch {
		case !in.Indexed:
			oracle, unpacked = unpacked[0], unpacked[1:]
		case in.Type.Kind == Tuple: // accounts/abi refuses indexed tuples; the topic is the hash
			oracle = topics[1+e.indexedBefore(j)]
		default:
			oracle = indexed[in.Name]
		}
		if !sameValue(got[j], oracle) {
			t.Fatalf("event %d %s: %s = %#v (%T), accounts/abi %#v (%T)", i, e, in.Name, got[j], got[j], oracle, oracle)
		}
	}

	for j, in := range e.Inputs {
		s := text(r, &in.Type, values[j], false)
		back, err := ParseValue(in.Type, s)
		if err != nil || !sameValue(back, values[j].Interface()) {
			t.Fatalf("event %d %s: ParseValue(%s, %q) = %#v, %v; want %#v", i, e, in.Type, s, back, err, values[j])
		}
		if !in.Indexed {
			continue
		}
		f, err := e.Filter(Condition{Name: in.Name, Values: []string{s}})
		if err != nil {
			t.Fatalf("event %d %s: Filter(%s=%q): %v", i, e, in.Name, s, err)
		}
		q := ethlogs.Query{}
		if err := f.Apply(&q); err != nil {
			t.Fatal(err)
		}
		pos := 1 + e.indexedBefore(j)
		if len(q.Topics) != pos+1 || len(q.Topics[pos]) != 1 || q.Topics[pos][0] != topics[pos] || !q.Match(&types.Log{Topics: topics}) {
			t.Fatalf("event %d %s: Filter(%s=%q) = %v, want topic %d = %s", i, e, in.Name, s, q.Topics, pos, topics[pos])
		}
	}

	unmarked := &Event{Name: e.Name, Inputs: append([]Input(nil), e.Inputs...), unmarked: true}
	for j := range unmarked.Inputs {
		unmarked.Inputs[j].Indexed = false
	}
	if binomial(len(e.Inputs), e.indexed()) > maxLayouts {
		return
	}
	for _, l := range unmarked.Layouts(topics, data) {
		if l.String() == e.String() {
			return
		}
	}
	t.Fatalf("event %d: no layout of %s is %s", i, unmarked.Signature(), e)
}
