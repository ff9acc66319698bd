package event

import (
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"
)

// decoder reads ABI-encoded log data strictly: every word must be the
// canonical encoding of its type, and every offset and length must stay
// inside the data. Log data comes from an untrusted contract, so the words
// it may read are budgeted: a canonical encoding reads each word once, and
// offsets that point back at the same words to make the decoded value
// grow faster than the data fail instead.
type decoder struct {
	data   []byte
	budget int // words that may still be read
}

// exact reports whether the decoding read every word of the data once,
// as a canonical encoding does.
func (d *decoder) exact() bool { return d.budget == 0 && len(d.data)%32 == 0 }

func (d *decoder) word(at int) ([]byte, error) {
	if at < 0 || at > len(d.data)-32 {
		return nil, fmt.Errorf("word at byte %d outside the %d bytes of data", at, len(d.data))
	}
	if d.budget--; d.budget < 0 {
		return nil, fmt.Errorf("offsets read more words than the %d bytes of data hold", len(d.data))
	}
	return d.data[at : at+32], nil
}

// small reads a word that must fit in 32 bits: an offset or a length.
func (d *decoder) small(at int, what string) (int, error) {
	w, err := d.word(at)
	if err != nil {
		return 0, err
	}
	if !zero(w[:28]) {
		return 0, fmt.Errorf("%s at byte %d is too large", what, at)
	}
	return int(w[28])<<24 | int(w[29])<<16 | int(w[30])<<8 | int(w[31]), nil
}

// value decodes a value of type t whose encoding starts at byte at.
func (d *decoder) value(t *Type, at int) (any, error) {
	switch t.Kind {
	case Bytes, String:
		n, err := d.small(at, "length")
		if err != nil {
			return nil, err
		}
		if n > len(d.data)-at-32 {
			return nil, fmt.Errorf("length %d runs past the %d bytes of data", n, len(d.data))
		}
		if d.budget -= (n + 31) / 32; d.budget < 0 {
			return nil, fmt.Errorf("offsets read more words than the %d bytes of data hold", len(d.data))
		}
		b := d.data[at+32 : at+32+n]
		if t.Kind == String {
			return string(b), nil
		}
		return append([]byte{}, b...), nil
	case Slice:
		n, err := d.small(at, "length")
		if err != nil {
			return nil, err
		}
		if n > (len(d.data)-at-32)/t.Elem.headSize() {
			return nil, fmt.Errorf("%d elements of %s run past the %d bytes of data", n, t.Elem, len(d.data))
		}
		return d.sequence(t, n, at+32)
	case Array:
		return d.sequence(t, t.Size, at)
	case Tuple:
		return d.tuple(t, at)
	}
	w, err := d.word(at)
	if err != nil {
		return nil, err
	}
	return decodeWord(t, w)
}

// sequence decodes the n elements of an array or slice type t, whose
// heads start at base.
func (d *decoder) sequence(t *Type, n, base int) (any, error) {
	var out reflect.Value
	if t.Kind == Slice {
		out = reflect.MakeSlice(t.GoType(), n, n)
	} else {
		out = reflect.New(t.GoType()).Elem()
	}
	head := base
	for i := range n {
		v, err := d.member(t.Elem, base, head)
		if err != nil {
			return nil, fmt.Errorf("element %d: %v", i, err)
		}
		out.Index(i).Set(reflect.ValueOf(v))
		head += t.Elem.headSize()
	}
	return out.Interface(), nil
}

// tuple decodes the members of a tuple type t, whose heads start at base.
func (d *decoder) tuple(t *Type, base int) (any, error) {
	out := reflect.New(t.GoType()).Elem()
	head := base
	for i := range t.Fields {
		f := &t.Fields[i].Type
		v, err := d.member(f, base, head)
		if err != nil {
			return nil, fmt.Errorf("member %s: %v", goFieldName(t.Fields[i].Name, i), err)
		}
		out.Field(i).Set(reflect.ValueOf(v))
		head += f.headSize()
	}
	return out.Interface(), nil
}

// member decodes one member of a tuple or sequence whose heads start at
// base: in place at head if static, else at base plus the offset in head.
func (d *decoder) member(t *Type, base, head int) (any, error) {
	if !t.Dynamic() {
		return d.value(t, head)
	}
	off, err := d.small(head, "offset")
	if err != nil {
		return nil, err
	}
	if off > len(d.data)-base {
		return nil, fmt.Errorf("offset %d outside the %d bytes of data", off, len(d.data))
	}
	return d.value(t, base+off)
}

// decodeWord decodes a type that fits one word (see [Type.Word]) and
// refuses any word that is not its canonical encoding.
func decodeWord(t *Type, w []byte) (any, error) {
	switch t.Kind {
	case Address:
		if !zero(w[:12]) {
			return nil, fmt.Errorf("high 12 bytes not zero")
		}
		return common.Address(w[12:]), nil
	case Bool:
		if !zero(w[:31]) || w[31] > 1 {
			return nil, fmt.Errorf("word is neither 0 nor 1")
		}
		return w[31] == 1, nil
	case FixedBytes:
		if !zero(w[t.Size:]) {
			return nil, fmt.Errorf("bytes after the first %d not zero", t.Size)
		}
		if t.Size == 32 {
			return [32]byte(w), nil
		}
		a := reflect.New(t.GoType()).Elem()
		reflect.Copy(a, reflect.ValueOf(w[:t.Size]))
		return a.Interface(), nil
	case Uint:
		if !zero(w[:32-t.Size/8]) {
			return nil, fmt.Errorf("value wider than %d bits", t.Size)
		}
		return goInt(t, new(big.Int).SetBytes(w)), nil
	case Int:
		pad, fill := w[:32-t.Size/8], byte(0)
		if w[32-t.Size/8]&0x80 != 0 {
			fill = 0xff
		}
		for _, b := range pad {
			if b != fill {
				return nil, fmt.Errorf("value not sign-extended from %d bits", t.Size)
			}
		}
		v := new(big.Int).SetBytes(w)
		if fill != 0 {
			v.Sub(v, two256)
		}
		return goInt(t, v), nil
	}
	return nil, fmt.Errorf("event: %s does not fit a word", t) // unreachable for parsed types
}

var two256 = new(big.Int).Lsh(big.NewInt(1), 256)

// goInt converts an integer that fits t to t's Go type.
func goInt(t *Type, v *big.Int) any {
	if t.Kind == Uint {
		switch t.Size {
		case 8:
			return uint8(v.Uint64())
		case 16:
			return uint16(v.Uint64())
		case 32:
			return uint32(v.Uint64())
		case 64:
			return v.Uint64()
		}
		return v
	}
	switch t.Size {
	case 8:
		return int8(v.Int64())
	case 16:
		return int16(v.Int64())
	case 32:
		return int32(v.Int64())
	case 64:
		return v.Int64()
	}
	return v
}

func zero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
