package bip37

import (
	"bytes"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
)

func TestMsgFilterLoad(t *testing.T) {
	f, _ := New(3, 0.01, 0, UpdateAll)
	f.Add([]byte("a"))
	msg := f.MsgFilterLoad()
	msg.Filter[0] ^= 0xff
	if bytes.Equal(mustMarshal(t, f)[1:4], msg.Filter) {
		t.Errorf("MsgFilterLoad shares its bytes with the filter")
	}
	msg.Filter[0] ^= 0xff
	if got := wireFilterLoad(t, msg); !bytes.Equal(got, mustMarshal(t, f)) {
		t.Errorf("btcd encodes MsgFilterLoad() as %x, want %x", got, mustMarshal(t, f))
	}
}

func TestMsgFilterAdd(t *testing.T) {
	if _, err := MsgFilterAdd(make([]byte, MaxFilterAddSize+1)); err == nil {
		t.Errorf("MsgFilterAdd(521 bytes) = nil error")
	}
	data := []byte("element")
	msg, err := MsgFilterAdd(data)
	if err != nil || !bytes.Equal(msg.Data, data) {
		t.Fatalf("MsgFilterAdd(%q) = %v, %v", data, msg, err)
	}
	data[0] = 'X'
	if msg.Data[0] == 'X' {
		t.Errorf("MsgFilterAdd shares its bytes with the caller")
	}
}

// TestApply follows a peer's session: load, add, clear, and the requests
// Core disconnects for.
func TestApply(t *testing.T) {
	load := wire.NewMsgFilterLoad(make([]byte, 35), 19, 0, wire.BloomUpdateAll)
	f, err := Apply(nil, load)
	if err != nil || f == nil || f.Size() != 35 {
		t.Fatalf("Apply(nil, filterload) = %v, %v", f, err)
	}
	if f, err = Apply(f, wire.NewMsgFilterAdd([]byte("x"))); err != nil || !f.Contains([]byte("x")) {
		t.Fatalf("Apply(filteradd) = %v, %v, want a filter containing x", f, err)
	}
	if f, err = Apply(f, wire.NewMsgFilterClear()); err != nil || f != nil {
		t.Fatalf("Apply(filterclear) = %v, %v, want nil, nil", f, err)
	}
	bad := []struct {
		name string
		f    *Filter
		msg  wire.Message
	}{
		{"filteradd without a filter", nil, wire.NewMsgFilterAdd([]byte("x"))},
		{"filteradd too large", mustLoad(t, make([]byte, 3), 1), wire.NewMsgFilterAdd(make([]byte, 521))},
		{"filterload too large", nil, wire.NewMsgFilterLoad(make([]byte, 36001), 1, 0, 0)},
		{"filterload with 51 functions", nil, wire.NewMsgFilterLoad(make([]byte, 1), 51, 0, 0)},
		{"not a filter message", nil, wire.NewMsgPing(1)},
		{"nil", nil, nil},
	}
	for _, tt := range bad {
		if _, err := Apply(tt.f, tt.msg); err == nil {
			t.Errorf("%s: Apply = nil error", tt.name)
		}
	}
}
