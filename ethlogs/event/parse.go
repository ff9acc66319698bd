package event

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// MaxIndexed is the number of indexed parameters an event can have: topics
// 1 to 3 (topic 0 is the signature's hash).
const MaxIndexed = 3

// Event is a parsed event declaration.
type Event struct {
	Name   string
	Inputs []Input
}

// Input is one parameter of an event.
type Input struct {
	Name    string // may be empty
	Type    string // canonical: uint256, not uint
	Indexed bool
}

// Parse parses a declaration: an optional "event" keyword, the name, and
// the parameters in parentheses, each a type, optionally "indexed", and an
// optional name; an optional trailing semicolon. Anonymous events, arrays
// and tuples are refused.
func Parse(decl string) (*Event, error) {
	s := strings.TrimSuffix(strings.TrimSpace(decl), ";")
	s = strings.TrimSpace(strings.TrimPrefix(s, "event "))
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return nil, fmt.Errorf("event: %q: want Name(type [indexed] [name], ...)", decl)
	}
	if rest := strings.TrimSpace(s[end+1:]); rest != "" {
		return nil, fmt.Errorf("event: %q: unexpected %q after the parameters (anonymous events have no topic 0)", decl, rest)
	}
	e := &Event{Name: strings.TrimSpace(s[:open])}
	if !isIdent(e.Name) {
		return nil, fmt.Errorf("event: %q: %q is not an event name", decl, e.Name)
	}
	if params := strings.TrimSpace(s[open+1 : end]); params != "" {
		for i, p := range strings.Split(params, ",") {
			in, err := parseInput(p)
			if err != nil {
				return nil, fmt.Errorf("event: %q: parameter %d: %v", decl, i, err)
			}
			e.Inputs = append(e.Inputs, in)
		}
	}
	if n := e.indexed(); n > MaxIndexed {
		return nil, fmt.Errorf("event: %q: %d indexed parameters, at most %d", decl, n, MaxIndexed)
	}
	return e, nil
}

func parseInput(p string) (Input, error) {
	f := strings.Fields(p)
	if len(f) == 0 {
		return Input{}, fmt.Errorf("empty")
	}
	typ, err := canonicalType(f[0])
	if err != nil {
		return Input{}, err
	}
	in := Input{Type: typ}
	f = f[1:]
	if len(f) > 0 && f[0] == "indexed" {
		in.Indexed, f = true, f[1:]
	}
	switch {
	case len(f) == 1 && isIdent(f[0]):
		in.Name = f[0]
	case len(f) > 0:
		return Input{}, fmt.Errorf("%q: want type [indexed] [name]", strings.TrimSpace(p))
	}
	return in, nil
}

// canonicalType checks an elementary type and writes uint and int in full.
func canonicalType(t string) (string, error) {
	switch t {
	case "address", "bool", "string", "bytes":
		return t, nil
	case "uint", "int":
		return t + "256", nil
	}
	if strings.ContainsAny(t, "[(") {
		return "", fmt.Errorf("type %q: arrays and tuples are not supported", t)
	}
	for _, k := range []struct {
		prefix   string
		min, max int
		step     int
	}{{"uint", 8, 256, 8}, {"int", 8, 256, 8}, {"bytes", 1, 32, 1}} {
		if digits, ok := strings.CutPrefix(t, k.prefix); ok {
			n, err := strconv.Atoi(digits)
			if err == nil && n >= k.min && n <= k.max && n%k.step == 0 && digits == strconv.Itoa(n) {
				return t, nil
			}
		}
	}
	return "", fmt.Errorf("unknown type %q", t)
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r|0x20 >= 'a' && r|0x20 <= 'z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func (e *Event) indexed() int {
	n := 0
	for _, in := range e.Inputs {
		if in.Indexed {
			n++
		}
	}
	return n
}

// Signature returns the canonical signature, as hashed for topic 0.
func (e *Event) Signature() string {
	types := make([]string, len(e.Inputs))
	for i, in := range e.Inputs {
		types[i] = in.Type
	}
	return e.Name + "(" + strings.Join(types, ",") + ")"
}

// Topic returns topic 0: the Keccak-256 of the canonical signature.
func (e *Event) Topic() common.Hash { return crypto.Keccak256Hash([]byte(e.Signature())) }

// String returns the declaration in canonical form, with indexed and names.
func (e *Event) String() string {
	parts := make([]string, len(e.Inputs))
	for i, in := range e.Inputs {
		parts[i] = in.Type
		if in.Indexed {
			parts[i] += " indexed"
		}
		if in.Name != "" {
			parts[i] += " " + in.Name
		}
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}
