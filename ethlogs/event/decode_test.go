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

// FuzzDecode decodes arbitrary logs of an event with every kind of
// parameter: an error or values, never a panic or a read out of bounds.
func FuzzDecode(f *testing.F) {
	e, _ := Parse("E(address indexed a, uint8 indexed b, int256 c, string d, bytes e, bytes32 f)")
	f.Add([]byte{}, []byte{})
	f.Add(bytes.Repeat([]byte{0}, 64), bytes.Repeat([]byte{0}, 200))
	f.Add(bytes.Repeat([]byte{0}, 64), bytes.Join([][]byte{w32(0, 0), w32(128, 31), w32(160, 31), w32(0, 0), w32(0, 0), w32(0, 0)}, nil))
	f.Fuzz(func(t *testing.T, topicBytes, data []byte) {
		topics := []common.Hash{e.Topic()}
		for len(topicBytes) >= 32 {
			topics = append(topics, common.BytesToHash(topicBytes[:32]))
			topicBytes = topicBytes[32:]
		}
		args, err := e.Decode(topics, data)
		if err == nil && len(args) != len(e.Inputs) {
			t.Fatalf("Decode gave %d arguments for %d inputs", len(args), len(e.Inputs))
		}
	})
}
