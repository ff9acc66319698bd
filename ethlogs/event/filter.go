package event

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/chainsieve/chainsieve/ethlogs"
	"github.com/ethereum/go-ethereum/common"
)

// Condition asks for the logs whose indexed parameter Name holds any of
// Values.
type Condition struct {
	Name   string   // the parameter's name, or argN for the one at position N (from 0)
	Values []string // an OR-list, each value as [ParseValue] reads it
}

// ParseCondition reads NAME=VALUE, the form of chainsieve's --arg, where
// VALUE may be a comma-separated OR-list split by [SplitList]: to=0xab…,0xcd…
// asks for logs to either address. A string holding a comma is quoted:
// name="a,b".
func ParseCondition(s string) (Condition, error) {
	name, list, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || !isIdent(name) {
		return Condition{}, fmt.Errorf("event: %q: want NAME=VALUE[,VALUE...]", clip(s))
	}
	values, err := SplitList(list)
	if err != nil {
		return Condition{}, fmt.Errorf("event: %s: %v", name, err)
	}
	return Condition{Name: name, Values: values}, nil
}

// Filter selects the logs of one event by the values of indexed
// parameters, as the topics of an eth_getLogs query.
type Filter struct {
	// Event decodes the logs the filter selects. It is the event the filter
	// was made from, except for an [Event.Unmarked] declaration: then it
	// also holds the positions Assumed, so that each log is decoded with a
	// layout that puts the asked-for values where the filter found them.
	Event *Event
	// Topics are topic 0 and then, up to the last parameter asked for, one
	// OR-list per position; nil where any value is fine.
	Topics [][]common.Hash
	// Assumed is empty when the declaration marks its indexed parameters.
	// For an unmarked one it says, in a sentence for the user, at which
	// topics the filter took the parameters to be.
	Assumed string
}

// Filter returns the filter for logs of e in which each condition holds.
// Conditions name indexed parameters; an unknown name, a parameter that is
// not indexed, a name given twice, no values, more than
// [ethlogs.MaxAlternatives] values, or a value that does not parse or does
// not fit the parameter's type is an error naming the parameter.
//
// For an [Event.Unmarked] declaration no parameter is known to be indexed.
// Filter then takes the parameters asked for as indexed, and with them
// every address parameter declared before one of them (as in ERC-20's
// Transfer(address,address,uint256), where to=… is topic 2): see
// [Filter.Assumed] and [Event.Layouts].
func (e *Event) Filter(conds ...Condition) (*Filter, error) {
	want, err := e.conditions(conds)
	if err != nil {
		return nil, err
	}
	if !e.unmarked {
		pos := map[int]int{}
		for _, j := range slices.Sorted(maps.Keys(want)) {
			if !e.Inputs[j].Indexed {
				return nil, fmt.Errorf("event: %s is not indexed in %s: only indexed parameters are in topics", e.argName(j), e)
			}
			pos[j] = 1 + e.indexedBefore(j)
		}
		return e.filterAt(want, pos)
	}
	last := slices.Max(slices.Collect(maps.Keys(want)))
	var assumed []int
	for i := 0; i <= last; i++ {
		if _, asked := want[i]; asked || e.Inputs[i].Type.Kind == Address {
			assumed = append(assumed, i)
		}
	}
	return e.assume(want, assumed)
}

// FilterPositional returns the filter for cast's positional form, "cast
// logs SIG VALUE…": the values belong to the indexed parameters in order,
// and null or an empty value leaves one open. Each value may be an
// OR-list, as in [ParseCondition].
//
// For an [Event.Unmarked] declaration, n values take the n parameters
// that [Event.Layouts] would rank first as indexed: the addresses, then
// the earlier ones ([Filter.Assumed] says which).
func (e *Event) FilterPositional(values ...string) (*Filter, error) {
	var params []int
	if e.unmarked {
		layouts, err := e.layoutsFor(len(values))
		if err != nil {
			return nil, fmt.Errorf("event: %d values: %s has %d parameters, at most %d of them indexed", len(values), e.Signature(), len(e.Inputs), min(len(e.Inputs), MaxIndexed))
		}
		for i, in := range layouts[0].Inputs {
			if in.Indexed {
				params = append(params, i)
			}
		}
	} else {
		for i, in := range e.Inputs {
			if in.Indexed {
				params = append(params, i)
			}
		}
		if len(values) > len(params) {
			return nil, fmt.Errorf("event: %d values, but %s has %d indexed parameters", len(values), e, len(params))
		}
	}
	want := map[int][]string{}
	for i, v := range values {
		if w := strings.TrimSpace(v); w == "" || w == "null" {
			continue
		}
		list, err := SplitList(v)
		if err != nil {
			return nil, fmt.Errorf("event: %s: %v", e.argName(params[i]), err)
		}
		want[params[i]] = list
	}
	if !e.unmarked {
		pos := map[int]int{}
		for j := range want {
			pos[j] = 1 + e.indexedBefore(j)
		}
		return e.filterAt(want, pos)
	}
	if len(want) == 0 {
		return &Filter{Event: e, Topics: [][]common.Hash{{e.Topic()}}}, nil
	}
	return e.assume(want, params[:len(values)])
}

// conditions resolves names and checks the lists: input index → values.
func (e *Event) conditions(conds []Condition) (map[int][]string, error) {
	if len(conds) == 0 {
		return nil, fmt.Errorf("event: no condition")
	}
	want := map[int][]string{}
	for _, c := range conds {
		j := e.input(c.Name)
		switch {
		case j < 0:
			return nil, fmt.Errorf("event: %s has no parameter %q; its parameters are %s", e.Name, clip(c.Name), e.names())
		case want[j] != nil:
			return nil, fmt.Errorf("event: %s given twice; list its values once, comma-separated, to ask for any of them", c.Name)
		case len(c.Values) == 0:
			return nil, fmt.Errorf("event: %s: no value", c.Name)
		}
		want[j] = c.Values
	}
	return want, nil
}

// assume pins the parameters asked for of an unmarked event, taking the
// parameters in assumed (in declaration order) as its indexed ones.
func (e *Event) assume(want map[int][]string, assumed []int) (*Filter, error) {
	if len(assumed) > MaxIndexed {
		names := make([]string, len(assumed))
		for i, j := range assumed {
			names[i] = e.argName(j)
		}
		return nil, fmt.Errorf("event: %s marks no parameter indexed, and taking %s as indexed makes %d, more than %d: mark the indexed parameters",
			e.Signature(), strings.Join(names, ", "), len(assumed), MaxIndexed)
	}
	pos := map[int]int{}
	var said []string
	for i, j := range assumed {
		if _, asked := want[j]; asked {
			pos[j] = i + 1
		}
		said = append(said, fmt.Sprintf("%s at topic %d", e.argName(j), i+1))
	}
	f, err := e.filterAt(want, pos)
	if err != nil {
		return nil, err
	}
	f.Event = &Event{Name: e.Name, Inputs: e.Inputs, unmarked: true, pins: pos, d: e.d, cache: &layoutCache{}}
	f.Assumed = fmt.Sprintf("%s marks no parameter indexed; assuming %s (addresses and the parameters asked for are taken as indexed). Mark the indexed parameters in the signature if that is not so.",
		e.Signature(), strings.Join(said, ", "))
	return f, nil
}

// filterAt encodes the values of each parameter for its topic position.
func (e *Event) filterAt(want map[int][]string, pos map[int]int) (*Filter, error) {
	f := &Filter{Event: e, Topics: [][]common.Hash{{e.Topic()}}}
	for _, j := range slices.Sorted(maps.Keys(want)) {
		values := want[j]
		if len(values) > ethlogs.MaxAlternatives {
			return nil, fmt.Errorf("event: %s: %d values, at most %d", e.argName(j), len(values), ethlogs.MaxAlternatives)
		}
		var hashes []common.Hash
		for _, s := range values {
			v, err := ParseValue(e.Inputs[j].Type, s)
			if err == nil {
				var h common.Hash
				if h, err = EncodeTopic(e.Inputs[j].Type, v); !slices.Contains(hashes, h) {
					hashes = append(hashes, h)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("event: %s %s: %s", e.Inputs[j].Type, e.argName(j), strings.TrimPrefix(err.Error(), "event: "))
			}
		}
		for len(f.Topics) <= pos[j] {
			f.Topics = append(f.Topics, nil)
		}
		f.Topics[pos[j]] = hashes
	}
	return f, nil
}

// Apply narrows q to the filter: each of the filter's topic positions is
// ANDed with q's, an open position taking the filter's values and two
// OR-lists their common values. No value in common is an error naming the
// position.
func (f *Filter) Apply(q *ethlogs.Query) error {
	for i, hashes := range f.Topics {
		if len(q.Topics) <= i {
			q.Topics = append(q.Topics, nil)
		}
		switch {
		case len(hashes) == 0:
		case len(q.Topics[i]) == 0:
			q.Topics[i] = slices.Clone(hashes)
		default:
			var both []common.Hash
			for _, h := range q.Topics[i] {
				if slices.Contains(hashes, h) {
					both = append(both, h)
				}
			}
			if len(both) == 0 {
				return fmt.Errorf("event: topic %d: the query's %d values and the filter's %d have none in common", i, len(q.Topics[i]), len(hashes))
			}
			q.Topics[i] = both
		}
	}
	return nil
}

// input returns the index of the parameter called name (or argN), or -1.
func (e *Event) input(name string) int {
	for i, in := range e.Inputs {
		if in.Name == name {
			return i
		}
	}
	if n, ok := strings.CutPrefix(name, "arg"); ok {
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < len(e.Inputs) && n == strconv.Itoa(i) && e.Inputs[i].Name == "" {
			return i
		}
	}
	return -1
}

func (e *Event) names() string {
	names := make([]string, len(e.Inputs))
	for i := range e.Inputs {
		names[i] = e.argName(i)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (e *Event) indexedBefore(j int) int {
	n := 0
	for _, in := range e.Inputs[:j] {
		if in.Indexed {
			n++
		}
	}
	return n
}
