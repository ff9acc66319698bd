package event

import (
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// MaxIndexed is the number of indexed parameters an event can have: topics
// 1 to 3 (topic 0 is the signature's hash).
const MaxIndexed = 3

// Event is a parsed event declaration. [Parse] and [ParseABI] make it,
// and work out once what decoding needs (topic 0, names); change Name or
// the types afterwards and those go stale: parse a new declaration
// instead. An Event is safe for concurrent use.
type Event struct {
	Name   string
	Inputs []Input

	d     *derived     // nil for an Event built by hand: worked out on each use
	cache *layoutCache // the layouts of an unmarked event

	// unmarked is set by Parse when no parameter says indexed (a cast-style
	// signature such as Transfer(address,address,uint256)): each log's
	// topic count then decides which parameters are indexed.
	unmarked bool
	// pins fix the topic position of parameters a Filter on an unmarked
	// event asked for: input index → topic position (1 to 3).
	pins map[int]int
}

// Input is one parameter of an event.
type Input struct {
	Name    string // may be empty
	Type    Type
	Indexed bool
}

// Parse parses a declaration: an optional "event" keyword, the name, and
// the parameters in parentheses, each a type (see [ParseType]), optionally
// "indexed", and an optional name; an optional trailing semicolon.
//
// A declaration in which no parameter says indexed, such as cast's
// Transfer(address,address,uint256), leaves the layout open: [Event.Decode]
// and the other decoders then work out from each log which parameters are
// indexed ([Event.Layouts]), and [Event.Unmarked] reports it. Anonymous
// events are refused: their logs have no topic 0 to select them by.
func Parse(decl string) (*Event, error) {
	s := strings.TrimSuffix(strings.TrimSpace(decl), ";")
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "event"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
		s = strings.TrimSpace(rest)
	}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return nil, fmt.Errorf("event: %q: want Name(type [indexed] [name], ...)", decl)
	}
	e := &Event{Name: strings.TrimSpace(s[:open])}
	if !isIdent(e.Name) {
		return nil, fmt.Errorf("event: %q: %q is not an event name", decl, e.Name)
	}
	p := parser{s: s, i: open + 1}
	if err := p.inputs(e); err != nil {
		return nil, fmt.Errorf("event: %q: %v", decl, err)
	}
	if rest := strings.TrimSpace(s[p.i:]); rest != "" {
		return nil, fmt.Errorf("event: %q: unexpected %q after the parameters (anonymous events have no topic 0)", decl, rest)
	}
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("event: %q: %v", decl, err)
	}
	e.unmarked = len(e.Inputs) > 0 && e.indexed() == 0
	e.d = e.derive()
	if e.unmarked {
		e.cache = &layoutCache{}
	}
	return e, nil
}

// inputs reads the parameter list up to and including its ")".
func (p *parser) inputs(e *Event) error {
	p.space()
	if p.peek() == ')' {
		p.i++
		return nil
	}
	for n := 0; ; n++ {
		p.space()
		if c := p.peek(); c == ',' || c == ')' || c == 0 {
			return fmt.Errorf("parameter %d: empty", n)
		}
		t, err := p.typ(0)
		if err != nil {
			return fmt.Errorf("parameter %d: %v", n, err)
		}
		in := Input{Type: t}
		p.space()
		if w := p.word(); w == "indexed" {
			in.Indexed = true
			p.space()
			in.Name = p.word()
		} else {
			in.Name = w
		}
		if in.Name != "" && !isIdent(in.Name) {
			return fmt.Errorf("parameter %d: %q is not a parameter name", n, in.Name)
		}
		e.Inputs = append(e.Inputs, in)
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case ')':
			p.i++
			return nil
		default:
			return fmt.Errorf("parameter %d: want type [indexed] [name], then , or ) at %q", n, p.s[p.i:])
		}
	}
}

// check enforces the rules every event obeys, however it was declared.
func (e *Event) check() error {
	if n := e.indexed(); n > MaxIndexed {
		return fmt.Errorf("%d indexed parameters, at most %d", n, MaxIndexed)
	}
	seen := map[string]bool{}
	for _, in := range e.Inputs {
		if in.Name != "" && seen[in.Name] {
			return fmt.Errorf("two parameters named %s", in.Name)
		}
		seen[in.Name] = true
	}
	return nil
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

// Unmarked reports whether the declaration said indexed nowhere, so that
// the layout is worked out from each log: see [Event.Layouts].
func (e *Event) Unmarked() bool { return e.unmarked }

// Signature returns the canonical signature, as hashed for topic 0.
func (e *Event) Signature() string {
	types := make([]string, len(e.Inputs))
	for i, in := range e.Inputs {
		types[i] = in.Type.String()
	}
	return e.Name + "(" + strings.Join(types, ",") + ")"
}

// Topic returns topic 0: the Keccak-256 of the canonical signature.
func (e *Event) Topic() common.Hash { return e.info().topic }

// derived holds what decoding reads from the declaration on every log.
type derived struct {
	topic common.Hash
	types []string // canonical, per input
	names []string // argName, per input
	camel []string // the names in CamelCase, as Go fields spell them
}

func (e *Event) derive() *derived {
	d := &derived{topic: crypto.Keccak256Hash([]byte(e.Signature()))}
	for i, in := range e.Inputs {
		name := in.Name
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		d.types = append(d.types, in.Type.String())
		d.names = append(d.names, name)
		d.camel = append(d.camel, abi.ToCamelCase(name))
	}
	return d
}

func (e *Event) info() *derived {
	if e.d != nil {
		return e.d
	}
	return e.derive()
}

// String returns the declaration in canonical form, with indexed and names.
func (e *Event) String() string {
	parts := make([]string, len(e.Inputs))
	for i, in := range e.Inputs {
		parts[i] = in.Type.String()
		if in.Indexed {
			parts[i] += " indexed"
		}
		if in.Name != "" {
			parts[i] += " " + in.Name
		}
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

// argName is the name decoded arguments carry: the declared name, or
// "arg" and the position for an unnamed parameter.
func (e *Event) argName(i int) string {
	if n := e.Inputs[i].Name; n != "" {
		return n
	}
	return fmt.Sprintf("arg%d", i)
}

// withIndexed returns a copy of e whose Inputs are indexed where mask says.
func (e *Event) withIndexed(mask []bool) *Event {
	c := &Event{Name: e.Name, Inputs: append([]Input(nil), e.Inputs...), d: e.d}
	for i := range c.Inputs {
		c.Inputs[i].Indexed = mask[i]
	}
	return c
}
