package event

import (
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// Kind is the kind of an ABI type.
type Kind uint8

// The kinds of ABI type an event parameter can have. Solidity's function
// type and fixed-point numbers are not supported.
const (
	Address    Kind = iota + 1 // address
	Bool                       // bool
	Uint                       // uint8 … uint256
	Int                        // int8 … int256
	FixedBytes                 // bytes1 … bytes32
	Bytes                      // bytes
	String                     // string
	Array                      // T[k]
	Slice                      // T[]
	Tuple                      // (T1,T2,…), a struct
)

// Limits on the types a declaration may use. Real contracts stay far
// below them; they keep a hostile signature or ABI file from asking for
// unbounded memory or recursion.
const (
	maxDepth      = 16      // nesting of arrays and tuples
	maxArrayLen   = 1 << 16 // the k of T[k]
	maxStaticSize = 1 << 24 // bytes of a static type's encoding
)

// Type is a parsed ABI type.
type Type struct {
	Kind Kind
	// Size is the width in bits for Uint and Int, the length in bytes for
	// FixedBytes and the length k of an Array; zero otherwise.
	Size int
	// Elem is the element type of an Array or a Slice.
	Elem *Type
	// Fields are the members of a Tuple, in order; names may be empty.
	Fields []Field
}

// Field is a member of a tuple type.
type Field struct {
	Name string
	Type Type
}

// ParseType parses an ABI type as signatures write it: an elementary
// type (uint and int are read as uint256 and int256), a tuple written
// "(T1,T2)" or "tuple(T1 name1, T2 name2)", each followed by any number
// of "[k]" or "[]".
func ParseType(s string) (Type, error) {
	p := parser{s: s}
	t, err := p.typ(0)
	if err == nil && p.i < len(p.s) {
		err = fmt.Errorf("unexpected %q after type %s", p.s[p.i:], t)
	}
	if err != nil {
		return Type{}, fmt.Errorf("event: type %q: %v", s, err)
	}
	return t, nil
}

// String returns the canonical form, as hashed in a signature:
// "uint256", "(address,bytes32)[2][]".
func (t Type) String() string {
	switch t.Kind {
	case Address:
		return "address"
	case Bool:
		return "bool"
	case Uint:
		return "uint" + strconv.Itoa(t.Size)
	case Int:
		return "int" + strconv.Itoa(t.Size)
	case FixedBytes:
		return "bytes" + strconv.Itoa(t.Size)
	case Bytes:
		return "bytes"
	case String:
		return "string"
	case Array:
		return t.Elem.String() + "[" + strconv.Itoa(t.Size) + "]"
	case Slice:
		return t.Elem.String() + "[]"
	case Tuple:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Type.String()
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	return "invalid"
}

// Dynamic reports whether the type's ABI encoding has no fixed size:
// bytes, string, T[], and arrays and tuples holding one of those. An
// indexed dynamic parameter is stored as a hash.
func (t Type) Dynamic() bool {
	switch t.Kind {
	case Bytes, String, Slice:
		return true
	case Array:
		return t.Elem.Dynamic()
	case Tuple:
		for _, f := range t.Fields {
			if f.Type.Dynamic() {
				return true
			}
		}
	}
	return false
}

// Word reports whether a value of the type fits one 32-byte word, so an
// indexed parameter of it holds the value itself; any other indexed
// parameter (bytes, string, arrays, tuples) holds the Keccak-256 hash of
// the value's encoding.
func (t Type) Word() bool { return t.Kind >= Address && t.Kind <= FixedBytes }

// headSize is the number of bytes the type takes in the head of a tuple:
// its encoding if static, else an offset word.
func (t Type) headSize() int {
	if t.Dynamic() {
		return 32
	}
	return t.staticSize()
}

// staticSize is the size of the encoding of a static type.
func (t Type) staticSize() int {
	switch t.Kind {
	case Array:
		return t.Size * t.Elem.staticSize()
	case Tuple:
		n := 0
		for _, f := range t.Fields {
			n += f.Type.staticSize()
		}
		return n
	}
	return 32
}

// GoType is the Go type of decoded values, the one go-ethereum's
// accounts/abi uses: common.Address, bool, uint8 to uint64 and int8 to
// int64 for those exact widths and *big.Int for the others, [N]byte for
// bytesN, []byte, string, Go arrays and slices of the element's type,
// and for a tuple a struct whose fields are the members' names in
// CamelCase (an unnamed member is ArgN, N its position).
func (t Type) GoType() reflect.Type {
	switch t.Kind {
	case Address:
		return reflect.TypeFor[common.Address]()
	case Bool:
		return reflect.TypeFor[bool]()
	case Uint, Int:
		if g := smallInt(t); g != nil {
			return g
		}
		return reflect.TypeFor[*big.Int]()
	case FixedBytes:
		return reflect.ArrayOf(t.Size, reflect.TypeFor[byte]())
	case Bytes:
		return reflect.TypeFor[[]byte]()
	case String:
		return reflect.TypeFor[string]()
	case Array:
		return reflect.ArrayOf(t.Size, t.Elem.GoType())
	case Slice:
		return reflect.SliceOf(t.Elem.GoType())
	}
	fields := make([]reflect.StructField, len(t.Fields))
	used := map[string]bool{}
	for i, f := range t.Fields {
		name := goFieldName(f.Name, i)
		for base, n := name, 0; used[name]; n++ {
			name = base + strconv.Itoa(n) // as accounts/abi resolves clashes
		}
		used[name] = true
		fields[i] = reflect.StructField{Name: name, Type: f.Type.GoType(), Tag: reflect.StructTag(`json:"` + f.Name + `"`)}
	}
	return reflect.StructOf(fields)
}

// goFieldName is the Go field of a tuple member: its name in CamelCase as
// accounts/abi writes it, made a valid exported identifier where
// Solidity's names are not ($ dropped, an X before a leading digit or
// underscore), ArgN for an unnamed member.
func goFieldName(name string, i int) string {
	if name == "" {
		return "Arg" + strconv.Itoa(i)
	}
	f := strings.ReplaceAll(abi.ToCamelCase(name), "$", "")
	if f == "" || f[0] < 'A' || f[0] > 'Z' {
		f = "X" + f
	}
	return f
}

var (
	smallUints = map[int]reflect.Type{8: reflect.TypeFor[uint8](), 16: reflect.TypeFor[uint16](), 32: reflect.TypeFor[uint32](), 64: reflect.TypeFor[uint64]()}
	smallInts  = map[int]reflect.Type{8: reflect.TypeFor[int8](), 16: reflect.TypeFor[int16](), 32: reflect.TypeFor[int32](), 64: reflect.TypeFor[int64]()}
)

// smallInt is the Go type of a uintN or intN that has one, else nil.
func smallInt(t Type) reflect.Type {
	if t.Kind == Uint {
		return smallUints[t.Size]
	}
	return smallInts[t.Size]
}

// parser reads types and parameter lists: a small recursive descent over
// the signature text, depth-bounded.
type parser struct {
	s string
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// word reads an identifier or type word: letters, digits, _ and $.
func (p *parser) word() string {
	start := p.i
	for p.i < len(p.s) && isIdentByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z') || (c >= '0' && c <= '9')
}

func (p *parser) typ(depth int) (Type, error) {
	if depth > maxDepth {
		return Type{}, fmt.Errorf("nested more than %d deep", maxDepth)
	}
	var t Type
	var err error
	if w := p.word(); w == "" || w == "tuple" {
		if p.peek() != '(' {
			return Type{}, fmt.Errorf("want a type at %q", p.s[p.i-len(w):])
		}
		t, err = p.tuple(depth)
	} else {
		t, err = elementary(w)
	}
	if err != nil {
		return Type{}, err
	}
	for p.peek() == '[' {
		if depth++; depth > maxDepth {
			return Type{}, fmt.Errorf("nested more than %d deep", maxDepth)
		}
		p.i++
		digits := p.word()
		if p.peek() != ']' {
			return Type{}, fmt.Errorf("unclosed [ in %s", t)
		}
		p.i++
		elem := t
		if digits == "" {
			t = Type{Kind: Slice, Elem: &elem}
			continue
		}
		n, err := strconv.Atoi(digits)
		if err != nil || n < 1 || n > maxArrayLen || digits != strconv.Itoa(n) {
			return Type{}, fmt.Errorf("array length %q: want 1 to %d", digits, maxArrayLen)
		}
		t = Type{Kind: Array, Size: n, Elem: &elem}
		if !t.Dynamic() && t.staticSize() > maxStaticSize {
			return Type{}, fmt.Errorf("%s is larger than %d bytes", t, maxStaticSize)
		}
	}
	return t, nil
}

// tuple reads "(T1 name1, T2, …)" at p.i.
func (p *parser) tuple(depth int) (Type, error) {
	p.i++ // (
	t := Type{Kind: Tuple}
	p.space()
	if p.peek() == ')' {
		return Type{}, fmt.Errorf("empty tuple")
	}
	for {
		p.space()
		ft, err := p.typ(depth + 1)
		if err != nil {
			return Type{}, err
		}
		p.space()
		name := p.word()
		if name != "" && !isIdent(name) {
			return Type{}, fmt.Errorf("%q is not a member name", name)
		}
		t.Fields = append(t.Fields, Field{Name: name, Type: ft})
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case ')':
			p.i++
			if !t.Dynamic() && t.staticSize() > maxStaticSize {
				return Type{}, fmt.Errorf("%s is larger than %d bytes", t, maxStaticSize)
			}
			return t, nil
		default:
			return Type{}, fmt.Errorf("want , or ) in tuple at %q", p.s[p.i:])
		}
	}
}

// elementary reads a type word: address, bool, string, bytes, uintN, intN
// (N a multiple of 8 up to 256; bare uint and int are 256) and bytesN
// (N from 1 to 32), with no leading zeros.
func elementary(w string) (Type, error) {
	switch w {
	case "address":
		return Type{Kind: Address}, nil
	case "bool":
		return Type{Kind: Bool}, nil
	case "string":
		return Type{Kind: String}, nil
	case "bytes":
		return Type{Kind: Bytes}, nil
	case "uint":
		return Type{Kind: Uint, Size: 256}, nil
	case "int":
		return Type{Kind: Int, Size: 256}, nil
	}
	for _, k := range []struct {
		prefix   string
		kind     Kind
		min, max int
		step     int
	}{{"uint", Uint, 8, 256, 8}, {"int", Int, 8, 256, 8}, {"bytes", FixedBytes, 1, 32, 1}} {
		if digits, ok := strings.CutPrefix(w, k.prefix); ok {
			n, err := strconv.Atoi(digits)
			if err == nil && n >= k.min && n <= k.max && n%k.step == 0 && digits == strconv.Itoa(n) {
				return Type{Kind: k.kind, Size: n}, nil
			}
		}
	}
	return Type{}, fmt.Errorf("unknown type %q", w)
}

func isIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
