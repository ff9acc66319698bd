package event

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// ParseValue reads a value of type t written as cast writes values on its
// command line, and returns it as the Go type [Type.GoType] names:
//
//   - address: 0x and 40 hex digits, all lower case, all upper case or
//     EIP-55 mixed case; mixed case that fails the checksum is refused;
//   - bool: true or false;
//   - uintN and intN: decimal or 0x hex, with a leading - for intN; the
//     value must fit N bits (hex is the number, not a bit pattern: int8
//     -1 is -1 or -0x1, never 0xff);
//   - bytesN: 0x and exactly 2N hex digits; bytes: 0x and an even number
//     of hex digits;
//   - string: the text as it is, spaces included, or, if it starts and
//     ends with a double quote, a Go-quoted string ("null" with its quotes
//     is the text null);
//   - T[k] and T[]: [a, b, …]; tuples: (a, b, …), strings inside them
//     quoted when they hold a comma, bracket or parenthesis.
func ParseValue(t Type, s string) (any, error) {
	if t.Kind != String {
		s = strings.TrimSpace(s)
	}
	v, err := parseValue(&t, s, false)
	if err != nil {
		return nil, fmt.Errorf("event: %v", err)
	}
	return v, nil
}

func parseValue(t *Type, s string, nested bool) (any, error) {
	switch t.Kind {
	case Address:
		return parseAddress(s)
	case Bool:
		switch s {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not a bool: want true or false", s)
	case Uint, Int:
		v, err := parseInt(t, s)
		if err != nil {
			return nil, err
		}
		return goInt(t, v), nil
	case FixedBytes:
		b, err := parseHex(s, t.Size)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %s: %v", clip(s), t, err)
		}
		a := reflect.New(t.GoType()).Elem()
		reflect.Copy(a, reflect.ValueOf(b))
		return a.Interface(), nil
	case Bytes:
		b, err := parseHex(s, -1)
		if err != nil {
			return nil, fmt.Errorf("%q is not bytes: %v", clip(s), err)
		}
		return b, nil
	case String:
		if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
			u, err := strconv.Unquote(s)
			if err != nil {
				return nil, fmt.Errorf("%s is not a quoted string: %v", clip(s), err)
			}
			return u, nil
		}
		if nested && strings.ContainsAny(s, `,[]()"`) {
			return nil, fmt.Errorf("%q: quote a string that holds , [ ] ( ) or \"", clip(s))
		}
		return s, nil
	}
	return parseComposite(t, s)
}

// parseComposite reads [a, b, …] for arrays and slices, (a, b, …) for
// tuples.
func parseComposite(t *Type, s string) (any, error) {
	open, close := "[", "]"
	if t.Kind == Tuple {
		open, close = "(", ")"
	}
	if len(s) < 2 || !strings.HasPrefix(s, open) || !strings.HasSuffix(s, close) {
		return nil, fmt.Errorf("%q is not a %s: want %sa, b, …%s", clip(s), t, open, close)
	}
	inner := s[1 : len(s)-1]
	var items []string
	if strings.TrimSpace(inner) != "" {
		var err error
		if items, err = SplitList(inner); err != nil {
			return nil, fmt.Errorf("%q: %v", clip(s), err)
		}
	}
	switch t.Kind {
	case Tuple:
		if len(items) != len(t.Fields) {
			return nil, fmt.Errorf("%q has %d members, %s has %d", clip(s), len(items), t, len(t.Fields))
		}
		out := reflect.New(t.GoType()).Elem()
		for i, item := range items {
			v, err := parseValue(&t.Fields[i].Type, strings.TrimSpace(item), true)
			if err != nil {
				return nil, fmt.Errorf("member %d: %v", i, err)
			}
			out.Field(i).Set(reflect.ValueOf(v))
		}
		return out.Interface(), nil
	case Array:
		if len(items) != t.Size {
			return nil, fmt.Errorf("%q has %d elements, %s has %d", clip(s), len(items), t, t.Size)
		}
	}
	var out reflect.Value
	if t.Kind == Slice {
		out = reflect.MakeSlice(t.GoType(), len(items), len(items))
	} else {
		out = reflect.New(t.GoType()).Elem()
	}
	for i, item := range items {
		v, err := parseValue(t.Elem, strings.TrimSpace(item), true)
		if err != nil {
			return nil, fmt.Errorf("element %d: %v", i, err)
		}
		out.Index(i).Set(reflect.ValueOf(v))
	}
	return out.Interface(), nil
}

// SplitList splits a comma-separated list at the commas that are outside
// brackets, parentheses and double-quoted strings, as an OR-list of
// values or the elements of an array are written.
func SplitList(s string) ([]string, error) {
	var items []string
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			if depth--; depth < 0 {
				return nil, fmt.Errorf("unmatched %c", c)
			}
		case c == ',' && depth == 0:
			items = append(items, s[start:i])
			start = i + 1
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote")
	}
	if depth != 0 {
		return nil, fmt.Errorf("unclosed bracket or parenthesis")
	}
	return append(items, s[start:]), nil
}

func parseAddress(s string) (common.Address, error) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok || len(h) != 40 {
		return common.Address{}, fmt.Errorf("%q is not an address: want 0x and 40 hex digits", clip(s))
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return common.Address{}, fmt.Errorf("%q is not an address: want 0x and 40 hex digits", clip(s))
	}
	a := common.Address(b)
	if h != strings.ToLower(h) && h != strings.ToUpper(h) && s != a.Hex() {
		return common.Address{}, fmt.Errorf("%s fails its EIP-55 checksum (mixed case must be the checksum; all lower or all upper case carries none)", s)
	}
	return a, nil
}

// parseInt reads a decimal or 0x hex integer that fits t.
func parseInt(t *Type, s string) (*big.Int, error) {
	digits, neg := s, false
	if t.Kind == Int {
		digits, neg = strings.CutPrefix(s, "-")
	}
	base := 10
	if h, ok := strings.CutPrefix(digits, "0x"); ok {
		digits, base = h, 16
	}
	v, ok := new(big.Int), digits != ""
	for _, c := range digits {
		if (c < '0' || c > '9') && (base == 10 || (c|0x20 < 'a' || c|0x20 > 'f')) {
			ok = false
		}
	}
	if ok {
		_, ok = v.SetString(digits, base)
	}
	if !ok {
		return nil, fmt.Errorf("%q is not a %s: want a decimal or 0x hex integer", clip(s), t)
	}
	if neg {
		v.Neg(v)
	}
	if lo, hi := intRange(t); v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return nil, fmt.Errorf("%s overflows %s (%s to %s)", clip(s), t, lo, hi)
	}
	return v, nil
}

// intRange returns the least and greatest value of a uintN or intN; the
// caller must not modify them.
func intRange(t *Type) (lo, hi *big.Int) {
	r := &intRanges[t.Size/8]
	if t.Kind == Uint {
		return r.ulo, r.uhi
	}
	return r.lo, r.hi
}

var intRanges = func() (r [33]struct{ ulo, uhi, lo, hi *big.Int }) {
	one := big.NewInt(1)
	for n := 1; n <= 32; n++ {
		bits := uint(8 * n)
		r[n].ulo = new(big.Int)
		r[n].uhi = new(big.Int).Sub(new(big.Int).Lsh(one, bits), one)
		r[n].hi = new(big.Int).Sub(new(big.Int).Lsh(one, bits-1), one)
		r[n].lo = new(big.Int).Neg(new(big.Int).Lsh(one, bits-1))
	}
	return r
}()

// parseHex reads 0x and hex digits: exactly n bytes, or any whole number
// of bytes for n < 0.
func parseHex(s string, n int) ([]byte, error) {
	h, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return nil, fmt.Errorf("want 0x and hex digits")
	}
	b, err := hex.DecodeString(h)
	if err != nil {
		return nil, fmt.Errorf("want 0x and an even number of hex digits")
	}
	if n >= 0 && len(b) != n {
		return nil, fmt.Errorf("%d bytes, want %d (0x and %d hex digits)", len(b), n, 2*n)
	}
	return b, nil
}

// clip shortens text from the command line or a file for error messages.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
