package event

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Arg is one decoded parameter, for display.
type Arg struct {
	Name  string // the declared name, or "arg" and its position
	Type  string
	Value string // see [Event.Decode]
}

// Decode decodes a log of this event: topic 0 must be [Event.Topic], one
// more topic per indexed parameter, and data holding the other parameters
// ABI-encoded. Values are written as: integers in decimal, addresses in
// EIP-55 mixed case, bool as true or false, bytes and bytesN in 0x hex,
// strings as they are (not quoted; they may hold any bytes), and an indexed
// string or bytes as the hash in its topic. A word with non-canonical
// padding, an offset or length outside data, or a topic count that does
// not fit is an error naming the parameter.
func (e *Event) Decode(topics []common.Hash, data []byte) ([]Arg, error) {
	if len(topics) == 0 || topics[0] != e.Topic() {
		return nil, fmt.Errorf("event: topic 0 is not %s", e.Signature())
	}
	if want := 1 + e.indexed(); len(topics) != want {
		return nil, fmt.Errorf("event: %d topics, %s has %d", len(topics), e.Signature(), want)
	}
	heads := 0
	for _, in := range e.Inputs {
		if !in.Indexed {
			heads++
		}
	}
	if len(data) < 32*heads {
		return nil, fmt.Errorf("event: %d bytes of data, %s needs at least %d", len(data), e.Signature(), 32*heads)
	}
	args := make([]Arg, len(e.Inputs))
	topic, head := 1, 0
	for i, in := range e.Inputs {
		args[i] = Arg{Name: in.Name, Type: in.Type}
		if args[i].Name == "" {
			args[i].Name = "arg" + strconv.Itoa(i)
		}
		var err error
		switch {
		case in.Indexed && isDynamic(in.Type):
			args[i].Value = topics[topic].Hex()
			topic++
		case in.Indexed:
			args[i].Value, err = word(in.Type, topics[topic][:])
			topic++
		case isDynamic(in.Type):
			args[i].Value, err = tail(in.Type, data, head)
			head++
		default:
			args[i].Value, err = word(in.Type, data[32*head:32*head+32])
			head++
		}
		if err != nil {
			return nil, fmt.Errorf("event: %s %s: %v", in.Type, args[i].Name, err)
		}
	}
	return args, nil
}

func isDynamic(t string) bool { return t == "string" || t == "bytes" }

// word decodes a static type from its 32-byte word.
func word(t string, w []byte) (string, error) {
	switch {
	case t == "address":
		if !zero(w[:12]) {
			return "", fmt.Errorf("high 12 bytes not zero")
		}
		return common.BytesToAddress(w[12:]).Hex(), nil
	case t == "bool":
		if !zero(w[:31]) || w[31] > 1 {
			return "", fmt.Errorf("word is neither 0 nor 1")
		}
		return strconv.FormatBool(w[31] == 1), nil
	case strings.HasPrefix(t, "bytes"):
		n, _ := strconv.Atoi(t[5:])
		if !zero(w[n:]) {
			return "", fmt.Errorf("bytes after the first %d not zero", n)
		}
		return hexutil.Encode(w[:n]), nil
	case strings.HasPrefix(t, "uint"):
		bits, _ := strconv.Atoi(t[4:])
		if !zero(w[:32-bits/8]) {
			return "", fmt.Errorf("value wider than %d bits", bits)
		}
		return new(big.Int).SetBytes(w).String(), nil
	default: // intN, two's complement sign-extended to 256 bits
		bits, _ := strconv.Atoi(t[3:])
		pad, neg := w[:32-bits/8], w[32-bits/8]&0x80 != 0
		if fill := map[bool]byte{false: 0, true: 0xff}[neg]; bytes.Count(pad, []byte{fill}) != len(pad) {
			return "", fmt.Errorf("value not sign-extended from %d bits", bits)
		}
		v := new(big.Int).SetBytes(w)
		if neg {
			v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 256))
		}
		return v.String(), nil
	}
}

// tail decodes a bytes or string parameter whose offset is in head slot i.
func tail(t string, data []byte, i int) (string, error) {
	off, err := smallWord(data[32*i : 32*i+32])
	if err != nil || off > uint64(len(data)) || uint64(len(data))-off < 32 {
		return "", fmt.Errorf("offset outside the %d bytes of data", len(data))
	}
	n, err := smallWord(data[off : off+32])
	if err != nil || n > uint64(len(data))-off-32 {
		return "", fmt.Errorf("length runs past the %d bytes of data", len(data))
	}
	b := data[off+32 : off+32+n]
	if t == "string" {
		return string(b), nil
	}
	return hexutil.Encode(b), nil
}

// smallWord reads a word that must fit in 32 bits: an offset or a length.
func smallWord(w []byte) (uint64, error) {
	if !zero(w[:28]) {
		return 0, fmt.Errorf("too large")
	}
	return uint64(w[28])<<24 | uint64(w[29])<<16 | uint64(w[30])<<8 | uint64(w[31]), nil
}

func zero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
