package event

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Unpack decodes a log of this event, as [Event.Values] does, into the
// struct out points to.
//
// A parameter goes to the field tagged with its name (`event:"from"`), or
// else to the field whose name is the parameter's name in CamelCase or
// equals it ignoring case (from and _from go to From; an unnamed
// parameter is arg0, arg1, …). A field tagged `event:"-"` is left alone,
// and so are fields no parameter matches and parameters no field matches;
// a tag that names no parameter is an error.
//
// Values convert to the field's type where nothing is lost, else the call
// fails naming the parameter: any integer to any Go integer type it fits
// and to *big.Int or big.Int; address to common.Address or [20]byte;
// bytesN to [N]byte (common.Hash for bytes32) or []byte; bytes to []byte;
// string to string or []byte; arrays and slices element by element to Go
// arrays of the same length or slices; tuples to structs, member by
// member as above; anything to a field of type any, as [Event.Values]
// gives it. An indexed string, bytes, array or tuple is its topic hash, so
// it goes to a common.Hash, [32]byte or any field.
func (e *Event) Unpack(out any, topics []common.Hash, data []byte) error {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("event: Unpack wants a non-nil pointer to a struct, not %T", out)
	}
	st := rv.Elem()
	fields, err := e.fields(st.Type())
	if err != nil {
		return err
	}
	ev, values, err := e.decode(topics, data)
	if err != nil {
		return err
	}
	for i, f := range fields {
		if f < 0 {
			continue
		}
		dst, src := st.Field(f), reflect.ValueOf(values[i])
		if src.Type() == dst.Type() {
			dst.Set(src) // decoded values are canonical: nothing to check
			continue
		}
		in := &ev.Inputs[i]
		t := &in.Type
		if in.Indexed && !in.Type.Word() {
			t = &hashType
		}
		if err := assign(dst, src, t); err != nil {
			return fmt.Errorf("event: %s %s into field %s: %v", in.Type, ev.argName(i), st.Type().Field(f).Name, err)
		}
	}
	return nil
}

// UnpackLog is [Event.Unpack] on a go-ethereum log.
func (e *Event) UnpackLog(out any, l *types.Log) error { return e.Unpack(out, l.Topics, l.Data) }

// hashType stands for the topic hash of an indexed value that is not a
// word.
var hashType = Type{Kind: FixedBytes, Size: 32}

// fields maps each input to the index of the struct field that takes it,
// or -1, as Unpack documents. A tag that names no parameter (most likely a
// typo) and two untagged fields for one parameter are errors.
func (e *Event) fields(st reflect.Type) ([]int, error) {
	d := e.info()
	fields := make([]int, len(e.Inputs))
	for i := range fields {
		fields[i] = -1
	}
	for f := range st.NumField() {
		sf := st.Field(f)
		if !sf.IsExported() {
			continue
		}
		if tag, ok := sf.Tag.Lookup("event"); ok {
			if tag == "-" {
				continue
			}
			i := slices.Index(d.names, tag)
			if i < 0 {
				return nil, fmt.Errorf("event: field %s is tagged %q, which is no parameter of %s", sf.Name, tag, e)
			}
			fields[i] = f // a tag wins over a name
			continue
		}
		for i := range fields {
			if !strings.EqualFold(sf.Name, d.camel[i]) && !strings.EqualFold(sf.Name, d.names[i]) {
				continue
			}
			if g := fields[i]; g >= 0 {
				if _, tagged := st.Field(g).Tag.Lookup("event"); tagged {
					continue
				}
				return nil, fmt.Errorf("event: fields %s and %s both match %s: tag one `event:%q`", st.Field(g).Name, sf.Name, d.names[i], d.names[i])
			}
			fields[i] = f
		}
	}
	return fields, nil
}

// fieldFor returns the index of the exported field of struct type st that
// takes the member called name, or -1; two untagged candidates are an
// error.
func fieldFor(st reflect.Type, name string) (int, error) {
	found := -1
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		if tag, ok := f.Tag.Lookup("event"); ok {
			if tag == name {
				return i, nil
			}
			continue
		}
		if strings.EqualFold(f.Name, abi.ToCamelCase(name)) || strings.EqualFold(f.Name, name) {
			if found >= 0 {
				return -1, fmt.Errorf("fields %s and %s both match %s: tag one `event:%q`", st.Field(found).Name, f.Name, name, name)
			}
			found = i
		}
	}
	return found, nil
}

// assign stores src, a value of ABI type t in any Go form assign accepts,
// into dst, converting as [Event.Unpack] documents.
func assign(dst, src reflect.Value, t *Type) error {
	for src.IsValid() && (src.Kind() == reflect.Interface || (src.Kind() == reflect.Pointer && src.Type() != bigIntType)) {
		if src.IsNil() {
			return fmt.Errorf("nil %s", src.Type())
		}
		src = src.Elem()
	}
	if !src.IsValid() {
		return fmt.Errorf("no value")
	}
	switch {
	case dst.Kind() == reflect.Interface && dst.NumMethod() == 0:
		dst.Set(src)
		return nil
	case dst.Kind() == reflect.Pointer && dst.Type() != bigIntType:
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return assign(dst.Elem(), src, t)
	}
	switch t.Kind {
	case Uint, Int:
		return assignInt(dst, src, t)
	case Address, Bool, FixedBytes, Bytes, String:
		return assignBytes(dst, src, t)
	case Array, Slice:
		return assignSequence(dst, src, t)
	}
	return assignTuple(dst, src, t)
}

func assignInt(dst, src reflect.Value, t *Type) error {
	var v *big.Int
	switch {
	case src.Type() == bigIntType:
		if src.IsNil() {
			return fmt.Errorf("nil *big.Int")
		}
		v = new(big.Int).Set(src.Interface().(*big.Int))
	case src.Type() == reflect.TypeFor[big.Int]():
		b := src.Interface().(big.Int)
		v = new(big.Int).Set(&b)
	case src.CanInt():
		v = big.NewInt(src.Int())
	case src.CanUint():
		v = new(big.Int).SetUint64(src.Uint())
	default:
		return fmt.Errorf("%s is not an integer", src.Type())
	}
	if lo, hi := intRange(t); v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return fmt.Errorf("%s overflows %s", v, t)
	}
	switch {
	case dst.Type() == bigIntType:
		dst.Set(reflect.ValueOf(v))
	case dst.Type() == reflect.TypeFor[big.Int]():
		dst.Set(reflect.ValueOf(v).Elem())
	case dst.CanInt() && v.IsInt64() && !dst.OverflowInt(v.Int64()):
		dst.SetInt(v.Int64())
	case dst.CanUint() && v.IsUint64() && !dst.OverflowUint(v.Uint64()):
		dst.SetUint(v.Uint64())
	case dst.CanInt() || dst.CanUint():
		return fmt.Errorf("%s does not fit %s", v, dst.Type())
	default:
		return fmt.Errorf("cannot store %s in %s", t, dst.Type())
	}
	return nil
}

// assignBytes stores the byte-like kinds: address, bool, bytesN, bytes
// and string.
func assignBytes(dst, src reflect.Value, t *Type) error {
	if t.Kind == Bool {
		if src.Kind() != reflect.Bool || dst.Kind() != reflect.Bool {
			return fmt.Errorf("cannot store %s in %s", src.Type(), dst.Type())
		}
		dst.SetBool(src.Bool())
		return nil
	}
	var b []byte
	switch {
	case src.Kind() == reflect.String && t.Kind == String:
		b = []byte(src.String())
	case src.Kind() == reflect.Slice && src.Type().Elem().Kind() == reflect.Uint8 && t.Kind != Address:
		b = src.Bytes()
	case src.Kind() == reflect.Array && src.Type().Elem().Kind() == reflect.Uint8:
		b = make([]byte, src.Len())
		reflect.Copy(reflect.ValueOf(b), src)
	default:
		return fmt.Errorf("cannot take %s as %s", src.Type(), t)
	}
	want := t.Size
	if t.Kind == Address {
		want = 20
	}
	if want > 0 && len(b) != want {
		return fmt.Errorf("%d bytes, %s has %d", len(b), t, want)
	}
	switch {
	case dst.Kind() == reflect.String && t.Kind == String:
		dst.SetString(string(b))
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.Uint8 && t.Kind != Address:
		dst.SetBytes(append([]byte{}, b...))
	case dst.Kind() == reflect.Array && dst.Type().Elem().Kind() == reflect.Uint8 && dst.Len() == len(b) && (t.Kind == Address || t.Kind == FixedBytes):
		reflect.Copy(dst, reflect.ValueOf(b))
	default:
		return fmt.Errorf("cannot store %s in %s", t, dst.Type())
	}
	return nil
}

func assignSequence(dst, src reflect.Value, t *Type) error {
	if src.Kind() != reflect.Array && src.Kind() != reflect.Slice {
		return fmt.Errorf("cannot take %s as %s", src.Type(), t)
	}
	n := src.Len()
	if t.Kind == Array && n != t.Size {
		return fmt.Errorf("%d elements, %s has %d", n, t, t.Size)
	}
	switch {
	case dst.Kind() == reflect.Slice:
		dst.Set(reflect.MakeSlice(dst.Type(), n, n))
	case dst.Kind() != reflect.Array:
		return fmt.Errorf("cannot store %s in %s", t, dst.Type())
	case dst.Len() != n:
		return fmt.Errorf("%d elements do not fit %s", n, dst.Type())
	}
	for i := range n {
		if err := assign(dst.Index(i), src.Index(i), t.Elem); err != nil {
			return fmt.Errorf("element %d: %v", i, err)
		}
	}
	return nil
}

func assignTuple(dst, src reflect.Value, t *Type) error {
	if src.Kind() != reflect.Struct || dst.Kind() != reflect.Struct {
		return fmt.Errorf("cannot store %s in %s", t, dst.Type())
	}
	for i, f := range t.Fields {
		name := f.Name
		if name == "" {
			name = fmt.Sprintf("arg%d", i)
		}
		from, err := fieldFor(src.Type(), name)
		if err == nil && from < 0 {
			err = fmt.Errorf("%s has no field for member %s", src.Type(), name)
		}
		if err != nil {
			return err
		}
		to, err := fieldFor(dst.Type(), name)
		if err != nil || to < 0 {
			continue // as Unpack leaves parameters without a field alone
		}
		if err := assign(dst.Field(to), src.Field(from), &t.Fields[i].Type); err != nil {
			return fmt.Errorf("member %s: %v", name, err)
		}
	}
	return nil
}
