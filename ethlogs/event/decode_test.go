package event

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func w32(hexByte byte, at int) []byte {
	w := make([]byte, 32)
	w[at] = hexByte
	return w
}

// TestDecodeRejects feeds malformed logs: each is an error naming the
// parameter, never a panic.
func TestDecodeRejects(t *testing.T) {
	transfer, _ := Parse("Transfer(address indexed from, address indexed to, uint256 value)")
	named, _ := Parse("Named(bool ok, uint8 small, int16 signed, bytes4 tag, string name)")
	tt := transfer.Topic()
	nt := named.Topic()
	good := common.Hash{31: 1}
	tests := []struct {
		name    string
		e       *Event
		topics  []common.Hash
		data    []byte
		wantErr string
	}{
		{"no topics", transfer, nil, w32(1, 31), "topic 0"},
		{"another event", transfer, []common.Hash{{1}, good, good}, w32(1, 31), "topic 0"},
		{"missing topic", transfer, []common.Hash{tt, good}, w32(1, 31), "2 topics"},
		{"address padding", transfer, []common.Hash{tt, {0: 1}, good}, w32(1, 31), "address from: high 12 bytes"},
		{"short data", transfer, []common.Hash{tt, good, good}, w32(1, 31)[:31], "31 bytes of data"},
		{"bool 2", named, []common.Hash{nt}, append(w32(2, 31), make([]byte, 160)...), "bool ok"},
		{"uint8 too wide", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 30), w32(0, 0), w32(0, 0), w32(0, 0)}, nil), "uint8 small"},
		{"int16 not sign-extended", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 31), w32(0x80, 30), w32(0, 0), w32(0, 0)}, nil), "int16 signed"},
		{"bytes4 tail", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 31), w32(1, 31), w32(1, 4), w32(0, 0)}, nil), "bytes4 tag"},
		{"string offset out", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 31), w32(1, 31), w32(1, 0), w32(0xff, 31)}, nil), "offset 255 outside the 160 bytes"},
		{"string offset huge", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 31), w32(1, 31), w32(1, 0), w32(1, 0)}, nil), "offset at byte 128 is too large"},
		{"string length out", named, []common.Hash{nt}, bytes.Join([][]byte{w32(1, 31), w32(1, 31), w32(1, 31), w32(1, 0), w32(160, 31), w32(33, 31), w32(0, 0)}, nil), "runs past"},
	}
	for _, tt := range tests {
		_, err := tt.e.Decode(tt.topics, tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: Decode = %v, want an error containing %q", tt.name, err, tt.wantErr)
		}
	}
}

func TestDecodeValues(t *testing.T) {
	e, _ := Parse("Named(bool ok, int16 signed, bytes4 tag, string name, address indexed who, bytes indexed blob)")
	neg := make([]byte, 32)
	for i := range neg {
		neg[i] = 0xff
	}
	neg[31] = 0xfe // -2
	tag := w32(0xca, 0)
	tag[1], tag[2], tag[3] = 0xfe, 0xba, 0xbe
	data := bytes.Join([][]byte{w32(1, 31), neg, tag, w32(128, 31), w32(3, 31), append([]byte("hé"), make([]byte, 29)...)}, nil)
	who := common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	blob := common.Hash{0xb1}
	args, err := e.Decode([]common.Hash{e.Topic(), common.BytesToHash(who[:]), blob}, data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ok=true", "signed=-2", "tag=0xcafebabe", "name=hé", "who=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "blob=" + blob.Hex()}
	for i, a := range args {
		if got := a.Name + "=" + a.Value; got != want[i] {
			t.Errorf("argument %d = %q, want %q", i, got, want[i])
		}
	}
}

// TestDecodeBudget feeds data whose offsets all point at one inner array,
// so that a decoder following them would build 500 × 500 words from 32 kB:
// the word budget refuses it.
func TestDecodeBudget(t *testing.T) {
	e, _ := Parse("E(uint256[][] a)")
	const outer, inner = 500, 500
	data := append(w32(0x20, 31), w32(0, 0)...) // offset of a; its length
	data[32+30], data[32+31] = outer>>8, outer&0xff
	innerAt := 32 * outer // from the start of a's elements
	for range outer {
		w := make([]byte, 32)
		w[30], w[31] = byte(innerAt>>8), byte(innerAt)
		data = append(data, w...)
	}
	data = append(data, w32(0, 0)...)
	data[len(data)-2], data[len(data)-1] = inner>>8, inner&0xff
	data = append(data, make([]byte, 32*inner)...)
	if _, err := e.Values([]common.Hash{e.Topic()}, data); err == nil || !strings.Contains(err.Error(), "offsets read more words than the 32096 bytes of data hold") {
		t.Errorf("Values = %v, want the word budget's error", err)
	}
}

// FuzzDecode decodes arbitrary logs of events with every kind of
// parameter, declared with and without "indexed": an error or one value
// per parameter, never a panic or a read out of bounds; and what Decode
// shows is what Values gives.
func FuzzDecode(f *testing.F) {
	marked, _ := Parse("E(address indexed a, uint8 indexed b, int256 c, string d, bytes e, bytes32 f, (uint16,string[])[2] g, int24[] h)")
	unmarked, _ := Parse("E(address a, uint8 b, int256 c, string d, bytes e, bytes32 f, (uint16,string[])[2] g, int24[] h)")
	f.Add([]byte{}, []byte{})
	f.Add(bytes.Repeat([]byte{0}, 64), bytes.Repeat([]byte{0}, 200))
	f.Add(bytes.Repeat([]byte{0}, 64), bytes.Join([][]byte{w32(0, 0), w32(224, 31), w32(0, 31), w32(0, 0), w32(0, 31), w32(0, 31), w32(0, 31)}, nil))
	f.Fuzz(func(t *testing.T, topicBytes, data []byte) {
		for _, e := range []*Event{marked, unmarked} {
			topics := []common.Hash{e.Topic()}
			for tb := topicBytes; len(tb) >= 32; tb = tb[32:] {
				topics = append(topics, common.BytesToHash(tb[:32]))
			}
			values, err := e.Values(topics, data)
			args, derr := e.Decode(topics, data)
			if (err == nil) != (derr == nil) {
				t.Fatalf("Values = %v but Decode = %v", err, derr)
			}
			if err == nil && (len(values) != len(e.Inputs) || len(args) != len(e.Inputs)) {
				t.Fatalf("%d values, %d args for %d inputs", len(values), len(args), len(e.Inputs))
			}
		}
	})
}
