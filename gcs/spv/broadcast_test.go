package spv

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// fakeNode is a scripted peer on 127.0.0.1 speaking the wire protocol
// directly (btcd's peer package would take our session for itself: both
// share one nonce cache in a process). It answers an inv with a getdata of
// type ask (none if zero), a transaction with reject (if set), a ping with
// a pong, one message after the other as nodes do; it ignores the first
// deaf invs, as btcd does with an inv that beats the new peer to its sync
// manager. What it receives goes to got and invs.
type fakeNode struct {
	addr string
	got  chan *wire.MsgTx
	invs chan *wire.MsgInv
}

func startFake(t *testing.T, ask wire.InvType, reject *wire.MsgReject, decoy bool, deaf int) *fakeNode {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeNode{addr: ln.Addr().String(), got: make(chan *wire.MsgTx, 4), invs: make(chan *wire.MsgInv, 4)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		f.serve(conn, ask, reject, decoy, deaf)
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
	})
	return f
}

func (f *fakeNode) serve(conn net.Conn, ask wire.InvType, reject *wire.MsgReject, decoy bool, deaf int) {
	magic := Regtest.Params.Net
	send := func(m wire.Message) error {
		_, err := wire.WriteMessageWithEncodingN(conn, m, wire.ProtocolVersion, magic, wire.WitnessEncoding)
		return err
	}
	for {
		_, msg, _, err := wire.ReadMessageWithEncodingN(conn, wire.ProtocolVersion, magic, wire.WitnessEncoding)
		if errors.Is(err, wire.ErrUnknownMessage) {
			continue
		}
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *wire.MsgVersion:
			me := wire.NewNetAddressIPPort(net.IPv4(127, 0, 0, 1), 18444, wire.SFNodeNetwork|wire.SFNodeWitness)
			v := wire.NewMsgVersion(me, &m.AddrMe, 0x5eed, 0)
			v.Services = wire.SFNodeNetwork | wire.SFNodeWitness
			err = errors.Join(send(v), send(wire.NewMsgVerAck()))
		case *wire.MsgPing:
			err = send(wire.NewMsgPong(m.Nonce))
		case *wire.MsgInv:
			select {
			case f.invs <- m:
			default: // counted up to its buffer; more never block the peer
			}
			if deaf > 0 {
				deaf--
				continue
			}
			if ask == 0 {
				continue
			}
			if decoy { // a request for something never announced first
				gd := wire.NewMsgGetData()
				gd.AddInvVect(wire.NewInvVect(ask, &chainhash.Hash{0xde, 0xc0}))
				err = send(gd)
			}
			gd := wire.NewMsgGetData()
			gd.AddInvVect(wire.NewInvVect(ask, &m.InvList[0].Hash))
			err = errors.Join(err, send(gd))
		case *wire.MsgTx:
			f.got <- m
			if reject != nil {
				r := *reject
				r.Hash = m.TxHash()
				err = send(&r)
			}
		}
		if err != nil {
			return
		}
	}
}

func dialFake(t *testing.T, f *fakeNode, advertise wire.ServiceFlag) *Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	s, err := Dial(ctx, f.addr, Config{Network: Regtest, Advertise: advertise, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// segwitTx and legacyTx are transactions to relay; their scripts need not
// verify, the fake node does not check them.
func segwitTx() *wire.MsgTx {
	tx := wire.NewMsgTx(2)
	in := wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{7}}, nil, wire.TxWitness{make([]byte, 71), make([]byte, 33)})
	tx.AddTxIn(in)
	tx.AddTxOut(wire.NewTxOut(1000, append([]byte{0, 20}, make([]byte, 20)...)))
	return tx
}

func legacyTx() *wire.MsgTx {
	tx := wire.NewMsgTx(1)
	tx.AddTxIn(wire.NewTxIn(&wire.OutPoint{Hash: chainhash.Hash{8}, Index: 1}, []byte{0x51}, nil))
	tx.AddTxOut(wire.NewTxOut(2000, []byte{0x51}))
	return tx
}

func TestBroadcastFake(t *testing.T) {
	hostile := "bad\x1b[2J\x07" + strings.Repeat("A", 10_000) + "\u202e"
	tests := []struct {
		name      string
		ask       wire.InvType
		reject    *wire.MsgReject
		decoy     bool
		deaf      int
		tx        *wire.MsgTx
		advertise wire.ServiceFlag
		want      RelayOutcome
		settled   bool
		witness   bool // the node must receive the witness
		reason    string
		err       string
	}{
		{name: "accepted with witness", ask: wire.InvTypeWitnessTx, tx: segwitTx(), advertise: wire.SFNodeWitness,
			want: Requested, settled: true, witness: true},
		{name: "legacy, asked as MSG_TX", ask: wire.InvTypeTx, tx: legacyTx(), want: Requested, settled: true},
		{name: "a getdata for something else first", ask: wire.InvTypeTx, decoy: true, tx: legacyTx(), want: Requested, settled: true},
		{name: "rejected", ask: wire.InvTypeWitnessTx, tx: segwitTx(), advertise: wire.SFNodeWitness,
			reject: &wire.MsgReject{Cmd: wire.CmdTx, Code: wire.RejectInsufficientFee, Reason: hostile},
			want:   Rejected, settled: true, witness: true, reason: `bad\x1b[2J\a` + strings.Repeat("A", 188) + fmt.Sprintf("…(+%d bytes)", len(hostile)-8-188)}, // 200 characters printed,
		{name: "the first inv dropped", ask: wire.InvTypeTx, deaf: 1, tx: legacyTx(), want: Requested, settled: true},
		{name: "never asked", tx: legacyTx(), want: Silent},
		{name: "witness without NODE_WITNESS", ask: wire.InvTypeWitnessTx, tx: segwitTx(), want: Silent, err: "does not advertise NODE_WITNESS"},
	}
	for _, tt := range tests {
		f := startFake(t, tt.ask, tt.reject, tt.decoy, tt.deaf)
		s := dialFake(t, f, tt.advertise)
		wait := 300 * time.Millisecond
		if tt.deaf > 0 {
			wait = firstReannounce + wait
		}
		r := s.Broadcast(t.Context(), tt.tx, wait)
		if r.Outcome != tt.want || r.Settled != tt.settled || r.Reason != tt.reason || r.Peer != f.addr ||
			(tt.err == "") != (r.Err == nil) || r.Err != nil && !strings.Contains(r.Err.Error(), tt.err) {
			t.Errorf("%s: Broadcast() = %+v\nwant outcome %v, settled %v, reason %q, error %q", tt.name, r, tt.want, tt.settled, tt.reason, tt.err)
		}
		if tt.reject != nil && r.Code != tt.reject.Code {
			t.Errorf("%s: code %v, want %v", tt.name, r.Code, tt.reject.Code)
		}
		if tt.want == Silent {
			if tt.err != "" && len(f.invs) != 0 {
				t.Errorf("%s: the node got an inv", tt.name)
			}
			continue
		}
		if tt.deaf > 0 && len(f.invs) != tt.deaf+1 {
			t.Errorf("%s: the node got %d invs, want %d", tt.name, len(f.invs), tt.deaf+1)
		}
		got := <-f.got
		if got.TxHash() != tt.tx.TxHash() || got.HasWitness() != tt.witness || tt.witness && got.WitnessHash() != tt.tx.WitnessHash() {
			t.Errorf("%s: the node received %v (witness %v), want %v (witness %v)", tt.name, got.TxHash(), got.HasWitness(), tt.tx.TxHash(), tt.witness)
		}
	}
}

// TestBroadcastAll relays to an accepting and a rejecting peer at once.
func TestBroadcastAll(t *testing.T) {
	yes := startFake(t, wire.InvTypeTx, nil, false, 0)
	no := startFake(t, wire.InvTypeTx, &wire.MsgReject{Cmd: wire.CmdTx, Code: wire.RejectDuplicate, Reason: "txn-already-known"}, false, 0)
	rs := Broadcast(t.Context(), legacyTx(), time.Second, dialFake(t, yes, 0), dialFake(t, no, 0))
	if len(rs) != 2 || rs[0].Outcome != Requested || rs[1].Outcome != Rejected || rs[1].Reason != "txn-already-known" || rs[0].Peer != yes.addr {
		t.Errorf("Broadcast() = %+v", rs)
	}
}
