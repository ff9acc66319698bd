package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// ABI holds the events of a contract ABI: the JSON array that solc, the
// block explorers and Foundry's out/ directory publish.
type ABI struct {
	// Events are the ABI's events that this package can decode, ordered by
	// signature.
	Events []*Event
	// refused are the events it cannot (anonymous events, function-typed
	// parameters), with the reason.
	refused map[string]error
}

// ParseABI reads an ABI JSON file with go-ethereum's accounts/abi and
// keeps its events. The file is the ABI array itself or a compiler
// artifact that holds it in an "abi" field (Foundry's out/*.json,
// Hardhat's artifacts/*.json, Truffle's build/contracts/*.json). The JSON
// must parse as a whole; an event this package cannot decode (an
// anonymous event, a function or fixed-point parameter) is an error only
// when selected, and listed by [ABI.Refused].
func ParseABI(data []byte) (*ABI, error) {
	data, err := abiArray(data)
	if err != nil {
		return nil, fmt.Errorf("event: ABI: %v", err)
	}
	if err := checkABISizes(data); err != nil {
		return nil, fmt.Errorf("event: ABI: %v", err)
	}
	parsed, err := abi.JSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("event: ABI: %v", err)
	}
	a := &ABI{refused: map[string]error{}}
	for _, ge := range parsed.Events {
		e, err := fromABI(ge)
		if err != nil {
			a.refused[ge.Sig] = err
			continue
		}
		a.Events = append(a.Events, e)
	}
	slices.SortFunc(a.Events, func(x, y *Event) int { return strings.Compare(x.Signature(), y.Signature()) })
	return a, nil
}

// abiArray returns the ABI array of an ABI file: the file itself, or the
// "abi" field of an artifact, which is a JSON object.
func abiArray(data []byte) ([]byte, error) {
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return data, nil
	}
	var artifact struct {
		ABI json.RawMessage `json:"abi"`
	}
	if err := json.Unmarshal(data, &artifact); err != nil {
		return nil, err
	}
	if len(artifact.ABI) == 0 || string(artifact.ABI) == "null" {
		return nil, errors.New(`a JSON object without an "abi" field: want an ABI array, or an artifact (Foundry, Hardhat) that holds one in "abi"`)
	}
	return artifact.ABI, nil
}

// Refused returns the events of the ABI that this package cannot decode,
// by canonical signature, each with the reason: anonymous events (their
// logs have no topic 0 to select them by) and events with a function or
// fixed-point parameter.
func (a *ABI) Refused() map[string]error { return maps.Clone(a.refused) }

// abiParam is a parameter of an ABI JSON entry, as far as checkABISizes
// reads it.
type abiParam struct {
	Type       string
	Components []abiParam
}

// checkABISizes bounds the array lengths and nesting of every parameter
// type in an ABI file before accounts/abi sees it: accounts/abi builds a
// Go type for each, and a uint256[1000000000] would have it build a
// garbage-collector bitmap of gigabytes first.
func checkABISizes(data []byte) error {
	var entries []struct{ Inputs, Outputs []abiParam }
	if err := json.Unmarshal(data, &entries); err != nil {
		return err
	}
	for _, e := range entries {
		for _, p := range append(e.Inputs, e.Outputs...) {
			if _, err := paramWords(p, 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// paramWords returns the number of words a value of p's type holds in
// place, counting each dynamic value as one, within the package's bounds.
func paramWords(p abiParam, depth int) (int, error) {
	base, dims := p.Type, 1
	for strings.HasSuffix(base, "]") {
		open := strings.LastIndexByte(base, '[')
		if open < 0 {
			return 0, fmt.Errorf("type %q: unmatched ]", clip(p.Type))
		}
		if n := base[open+1 : len(base)-1]; n != "" {
			k, err := strconv.Atoi(n)
			if err != nil || k < 1 || k > maxArrayLen {
				return 0, fmt.Errorf("type %q: array length %q: want 1 to %d", clip(p.Type), clip(n), maxArrayLen)
			}
			dims *= k
		}
		if base, depth = base[:open], depth+1; depth > maxDepth || dims > maxStaticSize/32 {
			return 0, fmt.Errorf("type %q: nested more than %d deep or larger than %d bytes", clip(p.Type), maxDepth, maxStaticSize)
		}
	}
	words := 1
	if base == "tuple" {
		words = 0
		for _, c := range p.Components {
			w, err := paramWords(c, depth+1)
			if err != nil {
				return 0, err
			}
			words += w
		}
	}
	if words*dims > maxStaticSize/32 {
		return 0, fmt.Errorf("type %q is larger than %d bytes", clip(p.Type), maxStaticSize)
	}
	return words * dims, nil
}

// fromABI converts one of accounts/abi's events, checking its types with
// this package's own rules (accounts/abi takes uint7, for one).
func fromABI(ge abi.Event) (*Event, error) {
	if ge.Anonymous {
		return nil, fmt.Errorf("event: %s is anonymous: its logs have no topic 0 to select them by", ge.Sig)
	}
	if !isIdent(ge.RawName) {
		return nil, fmt.Errorf("event: ABI: %q is not an event name", clip(ge.RawName))
	}
	e := &Event{Name: ge.RawName}
	for i, arg := range ge.Inputs {
		decl, err := declType(arg.Type)
		var t Type
		if err == nil {
			t, err = ParseType(decl)
		}
		if err == nil && arg.Name != "" && !isIdent(arg.Name) {
			err = fmt.Errorf("%q is not a parameter name", arg.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("event: %s parameter %d: %v", ge.Sig, i, strings.TrimPrefix(err.Error(), "event: "))
		}
		e.Inputs = append(e.Inputs, Input{Name: arg.Name, Type: t, Indexed: arg.Indexed})
	}
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("event: %s: %v", ge.Sig, err)
	}
	e.d = e.derive()
	return e, nil
}

// declType writes an accounts/abi type as a declaration with the tuple
// members' names, for ParseType.
func declType(t abi.Type) (string, error) {
	switch t.T {
	case abi.SliceTy:
		elem, err := declType(*t.Elem)
		return elem + "[]", err
	case abi.ArrayTy:
		elem, err := declType(*t.Elem)
		return fmt.Sprintf("%s[%d]", elem, t.Size), err
	case abi.TupleTy:
		members := make([]string, len(t.TupleElems))
		for i, m := range t.TupleElems {
			decl, err := declType(*m)
			if err != nil {
				return "", err
			}
			members[i] = strings.TrimSpace(decl + " " + t.TupleRawNames[i])
		}
		return "(" + strings.Join(members, ", ") + ")", nil
	case abi.FunctionTy, abi.FixedPointTy, abi.HashTy:
		return "", fmt.Errorf("type %s is not supported", t)
	}
	return t.String(), nil
}

// Event selects an event by name (Transfer), by signature
// (Transfer(address,address,uint256), names and indexed allowed), or by
// its topic 0 in hex. A name the ABI overloads is an error listing the
// signatures to choose from.
func (a *ABI) Event(selector string) (*Event, error) {
	s := strings.TrimSpace(selector)
	var match func(*Event) bool
	var refusedMatch func(sig string) bool
	switch {
	case strings.HasPrefix(s, "0x") && len(s) == 66:
		b, err := hexutil.Decode(s)
		if err != nil {
			return nil, fmt.Errorf("event: %q is not a topic: %v", s, err)
		}
		topic := common.BytesToHash(b)
		match = func(e *Event) bool { return e.Topic() == topic }
		refusedMatch = func(string) bool { return false }
	case strings.Contains(s, "("):
		want, err := Parse(s)
		if err != nil {
			return nil, err
		}
		match = func(e *Event) bool { return e.Signature() == want.Signature() }
		refusedMatch = func(sig string) bool { return sig == want.Signature() }
	default:
		match = func(e *Event) bool { return e.Name == s }
		refusedMatch = func(sig string) bool { return strings.HasPrefix(sig, s+"(") }
	}
	var found []*Event
	for _, e := range a.Events {
		if match(e) {
			found = append(found, e)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		sigs := make([]string, len(found))
		for i, e := range found {
			sigs[i] = e.Signature()
		}
		return nil, fmt.Errorf("event: the ABI overloads %s: select one of %s", clip(s), strings.Join(sigs, ", "))
	}
	for sig, err := range a.refused {
		if refusedMatch(sig) {
			return nil, err
		}
	}
	names := make([]string, len(a.Events))
	for i, e := range a.Events {
		names[i] = e.Signature()
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("event: the ABI has no event %q: it declares none", clip(s))
	}
	return nil, fmt.Errorf("event: the ABI has no event %q; it declares %s", clip(s), strings.Join(names, ", "))
}

// ByTopic returns the event whose topic 0 is topic, or nil: the way to
// decode every event of a contract.
func (a *ABI) ByTopic(topic common.Hash) *Event {
	for _, e := range a.Events {
		if e.Topic() == topic {
			return e
		}
	}
	return nil
}
