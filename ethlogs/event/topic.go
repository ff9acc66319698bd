package event

import (
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// EncodeTopic returns the topic an indexed parameter of type t holds for
// the value v, following the Solidity ABI specification ("Encoding of
// indexed event parameters"):
//
//   - a type that fits a word holds its ABI encoding: an address or an
//     unsigned integer left-padded with zeros, a signed integer
//     sign-extended (two's complement), bool as 0 or 1, bytesN
//     right-padded with zeros;
//   - string and bytes hold the Keccak-256 of their bytes;
//   - arrays (fixed or dynamic) and tuples hold the Keccak-256 of their
//     members' encodings concatenated, with no offsets and no lengths, a
//     string or bytes member padded with zeros to a multiple of 32 bytes.
//
// v is a value of t's Go type ([Type.GoType]) or one that converts to it
// as [Event.Unpack] converts: any Go integer or *big.Int for an integer,
// a byte slice or array for bytesN. Text goes through [ParseValue] first.
func EncodeTopic(t Type, v any) (common.Hash, error) {
	switch v := v.(type) { // the commonest values, without reflection
	case common.Address:
		if t.Kind == Address {
			return common.BytesToHash(v[:]), nil
		}
	case common.Hash:
		if t.Kind == FixedBytes && t.Size == 32 {
			return v, nil
		}
	}
	gv := reflect.New(t.GoType()).Elem()
	if err := assign(gv, reflect.ValueOf(v), &t); err != nil {
		return common.Hash{}, fmt.Errorf("event: %s: %v", t, err)
	}
	if t.Word() {
		return common.Hash(encodeWord(&t, gv.Interface())), nil
	}
	switch t.Kind {
	case String:
		return crypto.Keccak256Hash([]byte(gv.String())), nil
	case Bytes:
		return crypto.Keccak256Hash(gv.Bytes()), nil
	}
	return crypto.Keccak256Hash(appendPreimage(nil, &t, gv)), nil
}

// appendPreimage appends the in-place encoding of a value nested in an
// indexed array or tuple.
func appendPreimage(b []byte, t *Type, v reflect.Value) []byte {
	switch t.Kind {
	case String, Bytes:
		var raw []byte
		if t.Kind == String {
			raw = []byte(v.String())
		} else {
			raw = v.Bytes()
		}
		b = append(b, raw...)
		return append(b, make([]byte, (32-len(raw)%32)%32)...)
	case Array, Slice:
		for i := range v.Len() {
			b = appendPreimage(b, t.Elem, v.Index(i))
		}
		return b
	case Tuple:
		for i := range t.Fields {
			b = appendPreimage(b, &t.Fields[i].Type, v.Field(i))
		}
		return b
	}
	w := encodeWord(t, v.Interface())
	return append(b, w[:]...)
}

// encodeWord encodes a value of a word type's Go type.
func encodeWord(t *Type, v any) (w [32]byte) {
	switch t.Kind {
	case Address:
		a := v.(common.Address)
		copy(w[12:], a[:])
	case Bool:
		if v.(bool) {
			w[31] = 1
		}
	case FixedBytes:
		reflect.Copy(reflect.ValueOf(w[:]), reflect.ValueOf(v))
	default:
		bigInt(v).FillBytes(w[:]) // in range: assign checked
	}
	return w
}

// bigInt returns an integer of any Go integer type as a *big.Int, negative
// values in two's complement over 256 bits.
func bigInt(v any) *big.Int {
	var b *big.Int
	switch rv := reflect.ValueOf(v); {
	case rv.Type() == bigIntType:
		b = new(big.Int).Set(v.(*big.Int))
	case rv.CanInt():
		b = big.NewInt(rv.Int())
	default:
		b = new(big.Int).SetUint64(rv.Uint())
	}
	if b.Sign() < 0 {
		b.Add(b, two256)
	}
	return b
}

var bigIntType = reflect.TypeFor[*big.Int]()
