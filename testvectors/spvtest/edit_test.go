package spvtest

import (
	"slices"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
)

// commands runs msgs through e and returns the commands of what comes out.
func commands(e Edit, msgs ...wire.Message) []string {
	var out []string
	for _, m := range msgs {
		for _, o := range e(m) {
			out = append(out, o.Command())
		}
	}
	return out
}

func TestEdits(t *testing.T) {
	ping, pong, tx, mb := wire.NewMsgPing(1), wire.NewMsgPong(1), wire.NewMsgTx(2), &wire.MsgMerkleBlock{}
	dropTx := On(func(*wire.MsgTx) []wire.Message { return nil })
	double := On(func(m *wire.MsgMerkleBlock) []wire.Message { return append(Keep(m), m) })
	tests := []struct {
		name string
		edit Edit
		in   []wire.Message
		want []string
	}{
		{"On drops its type only", dropTx, []wire.Message{ping, tx, mb, tx}, []string{"ping", "merkleblock"}},
		{"On answers with several", double, []wire.Message{mb, pong}, []string{"merkleblock", "merkleblock", "pong"}},
		{"Stall passes pongs before the first stalled", Stall(wire.CmdTx, wire.CmdMerkleBlock),
			[]wire.Message{pong, ping, mb, pong, tx, pong, ping}, []string{"pong", "ping", "ping"}},
		{"Stall of nothing sent", Stall(wire.CmdCFilter), []wire.Message{tx, pong}, []string{"tx", "pong"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := commands(tt.edit, tt.in...); !slices.Equal(got, tt.want) {
				t.Errorf("edit(%v) = %v, want %v", commands(Keep, tt.in...), got, tt.want)
			}
		})
	}
}
