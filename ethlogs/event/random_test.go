package event

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// This file generates the random events, types and values the oracle tests
// feed to go-ethereum's accounts/abi and to Solidity-compiled code.

// randomType returns a random type: any elementary type, and below depth
// maxDepth arrays, slices and tuples of random types. Tuple members are
// named (accounts/abi cannot represent unnamed ones).
func randomType(r *rand.Rand, depth int) Type {
	if depth < 3 && r.IntN(4) == 0 {
		switch r.IntN(3) {
		case 0:
			elem := randomType(r, depth+1)
			return Type{Kind: Array, Size: 1 + r.IntN(3), Elem: &elem}
		case 1:
			elem := randomType(r, depth+1)
			return Type{Kind: Slice, Elem: &elem}
		default:
			t := Type{Kind: Tuple}
			for i := range 1 + r.IntN(3) {
				t.Fields = append(t.Fields, Field{Name: fmt.Sprintf("m%d_x", i), Type: randomType(r, depth+1)})
			}
			return t
		}
	}
	switch r.IntN(7) {
	case 0:
		return Type{Kind: Address}
	case 1:
		return Type{Kind: Bool}
	case 2:
		return Type{Kind: Uint, Size: 8 * (1 + r.IntN(32))}
	case 3:
		return Type{Kind: Int, Size: 8 * (1 + r.IntN(32))}
	case 4:
		return Type{Kind: FixedBytes, Size: 1 + r.IntN(32)}
	case 5:
		return Type{Kind: Bytes}
	}
	return Type{Kind: String}
}

// randomValue returns a random value of t's Go type, with the edge values
// of integers and lengths (0, the extremes, 31/32/33 bytes) often.
func randomValue(r *rand.Rand, t *Type) reflect.Value {
	switch t.Kind {
	case Address:
		var a common.Address
		if r.IntN(8) > 0 {
			fill(r, a[:])
		}
		return reflect.ValueOf(a)
	case Bool:
		return reflect.ValueOf(r.IntN(2) == 1)
	case Uint, Int:
		lo, hi := intRange(t)
		var v *big.Int
		switch r.IntN(6) {
		case 0:
			v = lo
		case 1:
			v = hi
		case 2:
			v = big.NewInt(int64(r.IntN(3)) - 1)
			if v.Cmp(lo) < 0 {
				v = lo
			}
		default:
			span := new(big.Int).Sub(hi, lo)
			b := make([]byte, len(span.Bytes()))
			fill(r, b)
			v = new(big.Int).Add(lo, new(big.Int).Mod(new(big.Int).SetBytes(b), new(big.Int).Add(span, big.NewInt(1))))
			v.Rsh(v, uint(r.IntN(t.Size))) // small values too
			if t.Kind == Int && r.IntN(2) == 0 && v.Sign() > 0 {
				v.Neg(v)
			}
		}
		return reflect.ValueOf(goInt(t, new(big.Int).Set(v)))
	case FixedBytes:
		a := reflect.New(t.GoType()).Elem()
		b := make([]byte, t.Size)
		fill(r, b)
		reflect.Copy(a, reflect.ValueOf(b))
		return a
	case Bytes, String:
		n := []int{0, 1, 31, 32, 33, 64, r.IntN(100)}[r.IntN(7)]
		b := make([]byte, n)
		fill(r, b)
		if t.Kind == String {
			return reflect.ValueOf(string(b))
		}
		return reflect.ValueOf(b)
	case Array, Slice:
		n := t.Size
		var v reflect.Value
		if t.Kind == Slice {
			n = r.IntN(4)
			v = reflect.MakeSlice(t.GoType(), n, n)
		} else {
			v = reflect.New(t.GoType()).Elem()
		}
		for i := range n {
			v.Index(i).Set(randomValue(r, t.Elem))
		}
		return v
	}
	v := reflect.New(t.GoType()).Elem()
	for i := range t.Fields {
		v.Field(i).Set(randomValue(r, &t.Fields[i].Type))
	}
	return v
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// text writes a value the way a user writes it for ParseValue, choosing
// among the forms it accepts (decimal or hex, lower or checksummed case).
func text(r *rand.Rand, t *Type, v reflect.Value, nested bool) string {
	switch t.Kind {
	case Address:
		a := v.Interface().(common.Address)
		if r.IntN(2) == 0 {
			return strings.ToLower(a.Hex())
		}
		return a.Hex()
	case Bool:
		return strconv.FormatBool(v.Bool())
	case Uint, Int:
		b := bigInt(v.Interface())
		if b.Cmp(new(big.Int).Rsh(two256, 1)) >= 0 && t.Kind == Int {
			b.Sub(b, two256)
		}
		if r.IntN(2) == 0 {
			if b.Sign() < 0 {
				return "-0x" + new(big.Int).Neg(b).Text(16)
			}
			return "0x" + b.Text(16)
		}
		return b.String()
	case FixedBytes:
		b := make([]byte, v.Len())
		reflect.Copy(reflect.ValueOf(b), v)
		return hexutil.Encode(b)
	case Bytes:
		return hexutil.Encode(v.Bytes())
	case String:
		if nested || r.IntN(4) == 0 {
			return strconv.Quote(v.String())
		}
		return v.String()
	}
	var parts []string
	if t.Kind == Tuple {
		for i := range t.Fields {
			parts = append(parts, text(r, &t.Fields[i].Type, v.Field(i), true))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	for i := range v.Len() {
		parts = append(parts, text(r, t.Elem, v.Index(i), true))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// abiJSON writes the ABI JSON of an event, as solc does, for accounts/abi
// and ParseABI to read.
func abiJSON(e *Event) []byte {
	type param struct {
		Name       string  `json:"name"`
		Type       string  `json:"type"`
		Indexed    bool    `json:"indexed"`
		Components []param `json:"components,omitempty"`
	}
	var conv func(name string, t Type, indexed bool) param
	conv = func(name string, t Type, indexed bool) param {
		p := param{Name: name, Indexed: indexed}
		suffix := ""
		for t.Kind == Array || t.Kind == Slice {
			if t.Kind == Array {
				suffix = "[" + strconv.Itoa(t.Size) + "]" + suffix
			} else {
				suffix = "[]" + suffix
			}
			t = *t.Elem
		}
		p.Type = t.String() + suffix
		if t.Kind == Tuple {
			p.Type = "tuple" + suffix
			for _, f := range t.Fields {
				p.Components = append(p.Components, conv(f.Name, f.Type, false))
			}
		}
		return p
	}
	var inputs []param
	for _, in := range e.Inputs {
		inputs = append(inputs, conv(in.Name, in.Type, in.Indexed))
	}
	b, _ := json.Marshal([]any{map[string]any{"type": "event", "name": e.Name, "anonymous": false, "inputs": inputs}})
	return b
}

// randomEvent returns a random event of 1 to 6 parameters, up to three of
// them indexed.
func randomEvent(r *rand.Rand) *Event {
	e := &Event{Name: "E"}
	for i := range 1 + r.IntN(6) {
		in := Input{Name: fmt.Sprintf("p%d", i), Type: randomType(r, 0)}
		in.Indexed = e.indexed() < MaxIndexed && r.IntN(2) == 0
		e.Inputs = append(e.Inputs, in)
	}
	return e
}

// sameValue is reflect.DeepEqual with *big.Int compared by value: zero
// has more than one internal form.
func sameValue(a, b any) bool {
	return sameReflect(reflect.ValueOf(a), reflect.ValueOf(b))
}

func sameReflect(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() || (a.IsValid() && a.Type() != b.Type()) {
		return false
	}
	switch {
	case !a.IsValid():
		return true
	case a.Type() == bigIntType:
		return a.IsNil() == b.IsNil() && (a.IsNil() || a.Interface().(*big.Int).Cmp(b.Interface().(*big.Int)) == 0)
	case a.Kind() == reflect.Slice || a.Kind() == reflect.Array:
		if a.Len() != b.Len() || (a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() && a.Len() > 0) {
			return false
		}
		for i := range a.Len() {
			if !sameReflect(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case a.Kind() == reflect.Struct:
		for i := range a.NumField() {
			if !sameReflect(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
