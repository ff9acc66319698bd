package spv

import (
	"errors"
	"fmt"
	"maps"

	"github.com/btcsuite/btcd/peer"
	"github.com/btcsuite/btcd/wire/v2"
)

// Traffic counts what a session sent and received, the version handshake
// included. Bytes are whole messages as on the wire: the 24-byte header
// and the payload.
type Traffic struct {
	BytesSent, BytesReceived uint64
	// RoundTrips counts requests whose answer the client waited for
	// ([Session.Request]); messages that expect none are not counted.
	RoundTrips int
	// Sent and Received count messages and bytes by command; unknown
	// commands are counted under "unknown".
	Sent, Received map[string]Count
}

// Count is a number of messages and their bytes.
type Count struct {
	Messages int
	Bytes    uint64
}

func newTraffic() Traffic {
	return Traffic{Sent: make(map[string]Count), Received: make(map[string]Count)}
}

// Traffic returns a snapshot of the session's counters.
func (s *Session) Traffic() Traffic {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.traffic
	t.Sent, t.Received = maps.Clone(t.Sent), maps.Clone(t.Received)
	return t
}

func command(msg wire.Message) string {
	if msg == nil {
		return "unknown"
	}
	return msg.Command()
}

func (s *Session) onWrite(_ *peer.Peer, n int, msg wire.Message, _ error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traffic.BytesSent += uint64(n)
	c := s.traffic.Sent[command(msg)]
	s.traffic.Sent[command(msg)] = Count{c.Messages + 1, c.Bytes + uint64(n)}
}

// onRead runs on the peer's reading goroutine for every message. It
// counts it, drops the peer on a malformed one, and queues replies,
// blocking the connection while the queue is full.
func (s *Session) onRead(p *peer.Peer, n int, msg wire.Message, err error) {
	if !s.count(n, msg, err) {
		return
	}
	var merr *wire.MessageError
	switch {
	case err == nil:
	case errors.Is(err, wire.ErrUnknownMessage):
		return // newer protocol messages (sendcmpct, …): Core sends them, we need none
	case errors.As(err, &merr):
		// btcd's peer tolerates malformed messages from 127.0.0.1 in
		// regtest (for its own tests); a light client never does.
		s.fail(fmt.Errorf("spv: peer %s sent a malformed message: %v: %w", s.addr, err, ErrMisbehaving))
		p.Disconnect()
		return
	default:
		return // the connection ended; the session reports it
	}
	if !s.wanted(msg) {
		return
	}
	select {
	case s.in <- msg:
	case <-s.closed:
	}
}

// count adds a read to the counters; false if nothing was read.
func (s *Session) count(n int, msg wire.Message, err error) bool {
	if n == 0 && err != nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.traffic.BytesReceived += uint64(n)
	c := s.traffic.Received[command(msg)]
	s.traffic.Received[command(msg)] = Count{c.Messages + 1, c.Bytes + uint64(n)}
	return true
}

// wanted reports whether msg may answer a request: pongs to our pings, the
// messages light-client requests are answered with, and getdata for a
// transaction a Broadcast announced. Block announcements (inv, headers no
// request owes) are kept for Announced. The rest (addr, ping, getheaders,
// feefilter, …) answers nothing we ask.
func (s *Session) wanted(msg wire.Message) bool {
	switch m := msg.(type) {
	case *wire.MsgPong:
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, ok := s.pending[m.Nonce]; !ok {
			return false
		}
		delete(s.pending, m.Nonce)
		s.settle(m.Nonce)
		return true
	case *wire.MsgHeaders:
		return s.isReply(m)
	case *wire.MsgInv:
		s.announceInv(m)
		return false
	case *wire.MsgCFHeaders, *wire.MsgCFilter, *wire.MsgCFCheckpt,
		*wire.MsgBlock, *wire.MsgMerkleBlock, *wire.MsgTx, *wire.MsgNotFound, *wire.MsgReject:
		return true
	case *wire.MsgGetData:
		return s.awaited(m)
	}
	return false
}
