package event

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Arg is one decoded parameter, for display.
type Arg struct {
	Name    string // the declared name, or "arg" and its position
	Type    string
	Value   string // see [Event.Decode]
	Indexed bool   // in a topic; for an unmarked declaration, as this log's layout has it
}

// Decode decodes a log of this event for display. Values are written as:
// integers in decimal, addresses in EIP-55 mixed case, bool as true or
// false, bytes and bytesN in 0x hex, strings as they are (not quoted; they
// may hold any bytes), arrays as [a, b] and tuples as (a, b) with the
// strings inside them quoted, and an indexed parameter that is not a word
// (string, bytes, arrays, tuples) as the hash in its topic.
//
// The log must match the event as [Event.Values] requires; an error names
// the parameter and the reason.
func (e *Event) Decode(topics []common.Hash, data []byte) ([]Arg, error) {
	ev, values, err := e.decode(topics, data)
	if err != nil {
		return nil, err
	}
	args := make([]Arg, len(values))
	d := ev.info()
	for i, in := range ev.Inputs {
		args[i] = Arg{Name: d.names[i], Type: d.types[i], Indexed: in.Indexed}
		if in.Indexed && !in.Type.Word() {
			args[i].Value = values[i].(common.Hash).Hex()
		} else {
			args[i].Value = format(&in.Type, values[i], false)
		}
	}
	return args, nil
}

// Values decodes a log of this event into Go values, one per parameter in
// declaration order, of the types [Type.GoType] names: common.Address,
// bool, uint8…uint64 and int8…int64 for those widths and *big.Int for the
// others, [N]byte, []byte, string, arrays, slices and structs. An indexed
// parameter that is not a word (string, bytes, arrays, tuples) is stored
// as the Keccak-256 hash of its value, which cannot be inverted: its value
// is that hash, a common.Hash.
//
// Topic 0 must be [Event.Topic], one more topic must follow per indexed
// parameter, and data must hold the other parameters ABI-encoded; data may
// run on past them. A word with non-canonical padding, an offset or length
// outside data, or a topic count that does not fit is an error naming the
// parameter. For an [Event.Unmarked] declaration the layout comes from the
// log itself: see [Event.Layouts].
func (e *Event) Values(topics []common.Hash, data []byte) ([]any, error) {
	_, values, err := e.decode(topics, data)
	return values, err
}

// decode resolves the layout and decodes; it returns the event as laid
// out for this log.
func (e *Event) decode(topics []common.Hash, data []byte) (*Event, []any, error) {
	if len(topics) == 0 || topics[0] != e.Topic() {
		return nil, nil, fmt.Errorf("event: topic 0 is not %s", e.Signature())
	}
	if !e.unmarked {
		values, _, err := e.decodeLaidOut(topics, data)
		return e, values, err
	}
	ev, values, err := e.infer(topics, data)
	return ev, values, err
}

// decodeLaidOut decodes with the layout e's Inputs give; exact reports
// whether data is exactly the canonical encoding of the data parameters.
func (e *Event) decodeLaidOut(topics []common.Hash, data []byte) (values []any, exact bool, err error) {
	if want := 1 + e.indexed(); len(topics) != want {
		return nil, false, fmt.Errorf("event: %d topics, %s has %d", len(topics), e.Signature(), want)
	}
	heads := 0
	for _, in := range e.Inputs {
		if !in.Indexed {
			heads += in.Type.headSize()
		}
	}
	if len(data) < heads {
		return nil, false, fmt.Errorf("event: %d bytes of data, %s needs at least %d", len(data), e.Signature(), heads)
	}
	values = make([]any, len(e.Inputs))
	topic := 1
	for i := range e.Inputs { // topics first: for a layout that does not fit, the cheap test
		in := &e.Inputs[i]
		switch {
		case !in.Indexed:
			continue
		case in.Type.Word():
			values[i], err = decodeWord(&in.Type, topics[topic][:])
		default:
			values[i] = topics[topic]
		}
		if err != nil {
			return nil, false, fmt.Errorf("event: %s %s: %v", in.Type.String(), e.argName(i), err)
		}
		topic++
	}
	d := decoder{data: data, budget: (len(data) + 31) / 32}
	head := 0
	for i := range e.Inputs {
		in := &e.Inputs[i]
		if in.Indexed {
			continue
		}
		if values[i], err = d.member(&in.Type, 0, head); err != nil {
			return nil, false, fmt.Errorf("event: %s %s: %v", in.Type.String(), e.argName(i), err)
		}
		head += in.Type.headSize()
	}
	return values, d.exact(), nil
}

// format writes a decoded value for display; nested strings are quoted so
// that the commas and brackets around them stay unambiguous.
func format(t *Type, v any, nested bool) string {
	switch t.Kind {
	case Address:
		return v.(common.Address).Hex()
	case Bool:
		return strconv.FormatBool(v.(bool))
	case Uint, Int:
		if b, ok := v.(*big.Int); ok {
			return b.String()
		}
		return fmt.Sprint(v)
	case FixedBytes:
		a := reflect.ValueOf(v)
		b := make([]byte, a.Len())
		reflect.Copy(reflect.ValueOf(b), a)
		return hexutil.Encode(b)
	case Bytes:
		return hexutil.Encode(v.([]byte))
	case String:
		if nested {
			return strconv.Quote(v.(string))
		}
		return v.(string)
	}
	rv := reflect.ValueOf(v)
	var parts []string
	if t.Kind == Tuple {
		for i := range t.Fields {
			parts = append(parts, format(&t.Fields[i].Type, rv.Field(i).Interface(), true))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	for i := range rv.Len() {
		parts = append(parts, format(t.Elem, rv.Index(i).Interface(), true))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
