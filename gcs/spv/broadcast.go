package spv

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chainsieve/chainsieve/core/untrusted"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// DefaultRelayWait bounds the wait for a peer to ask for a broadcast
// transaction when the caller gives none. Bitcoin Core delays its request
// by 2 s or more for a peer it did not choose (its txrequest rules), which
// a light client always is.
const DefaultRelayWait = 10 * time.Second

// RelayOutcome is what a peer did with a transaction we announced.
type RelayOutcome int

// The outcomes of a broadcast to one peer.
const (
	// Silent: the peer did not ask for the transaction before the wait
	// ended. It may already have it (from another peer, or rejected it
	// before), or it ignores transactions from us.
	Silent RelayOutcome = iota
	// Requested: the peer asked for the transaction (getdata), received
	// it, and sent no reject for it.
	Requested
	// Rejected: the peer sent a BIP61 reject for it. btcd does; Bitcoin
	// Core stopped in v0.20, so its silence is not acceptance.
	Rejected
)

func (o RelayOutcome) String() string {
	switch o {
	case Silent:
		return "silent"
	case Requested:
		return "requested"
	case Rejected:
		return "rejected"
	}
	return fmt.Sprintf("RelayOutcome(%d)", int(o))
}

// Relay is one peer's answer to a broadcast.
type Relay struct {
	Peer    string
	Outcome RelayOutcome
	// Settled is true once the peer's verdict is in: it rejected the
	// transaction, or answered a ping sent after it. Peers handle a
	// connection's messages in order, so a peer that sends rejects (btcd)
	// and answered the ping without one accepted it into its mempool.
	Settled bool
	Code    wire.RejectCode // Rejected only
	Reason  string          // Rejected only: the peer's text, clipped and escaped
	Err     error           // the session failed before the outcome was known
}

// Broadcast relays tx to every session at once (see [Session.Broadcast])
// and returns their answers in the order of sessions.
func Broadcast(ctx context.Context, tx *wire.MsgTx, wait time.Duration, sessions ...*Session) []Relay {
	out := make([]Relay, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = s.Broadcast(ctx, tx, wait)
		}()
	}
	wg.Wait()
	return out
}

// Broadcast announces tx to the peer (inv with its txid; again after 1 s,
// 2 s, 4 s … while the peer stays silent), sends it when the peer asks
// for it (getdata), in the encoding asked for (with witness data for
// MSG_WITNESS_TX), then pings, and reports whether the peer
// rejected it before the pong. It waits at most wait (zero means
// [DefaultRelayWait]) for the request, then at most the session's timeout
// for the pong. A transaction with witness data needs a session that
// advertises wire.SFNodeWitness ([Config.Advertise]), or peers would ask
// for it stripped.
//
// It must not run beside other requests on the session.
func (s *Session) Broadcast(ctx context.Context, tx *wire.MsgTx, wait time.Duration) Relay {
	r := Relay{Peer: s.addr}
	id := tx.TxHash()
	if tx.HasWitness() && s.claims&wire.SFNodeWitness == 0 {
		r.Err = fmt.Errorf("spv: transaction %v has witness data, but the session to %s does not advertise NODE_WITNESS: peers would ask for it without", id, s.addr)
		return r
	}
	if wait <= 0 {
		wait = DefaultRelayWait
	}
	s.await(id, true)
	defer s.await(id, false)
	inv := wire.NewMsgInv()
	inv.AddInvVect(wire.NewInvVect(wire.InvTypeTx, &id))
	if r.Err = s.Send(ctx, inv); r.Err != nil {
		return r
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	// btcd drops an inv that reaches its sync manager before the new peer
	// does (right after the handshake), so the announcement is repeated
	// while the peer stays silent, at growing intervals. A peer that has
	// the transaction, or has asked for it already, ignores the repeat.
	again := firstReannounce
	reannounce := time.NewTimer(again)
	defer reannounce.Stop()
	var nonce uint64
	for {
		msg, err := s.nextOr(ctx, timer.C, reannounce.C)
		if err == errReannounce {
			if r.Outcome == Silent {
				if r.Err = s.Send(ctx, inv); r.Err != nil {
					return r
				}
				again *= 2
				reannounce.Reset(again)
			}
			continue
		}
		if err != nil {
			r.Err = err
			return r
		}
		switch m := msg.(type) {
		case nil: // the wait ended
			if r.Outcome == Requested {
				s.Drop(fmt.Errorf("spv: peer %s did not answer a ping within %v of receiving transaction %v: %w", s.addr, s.timeout, id, ErrStalled))
				r.Err = s.failed()
			}
			return r
		case *wire.MsgGetData:
			enc, ok := asks(m, id)
			if !ok || r.Outcome == Requested {
				continue
			}
			s.p.QueueMessageWithEncoding(tx, nil, enc)
			if nonce, r.Err = s.Request(ctx); r.Err != nil {
				return r
			}
			r.Outcome = Requested
			timer.Reset(s.timeout) // the peer owes the pong now
		case *wire.MsgReject:
			if m.Cmd == wire.CmdTx && m.Hash == id {
				r.Outcome, r.Settled, r.Code, r.Reason = Rejected, true, m.Code, untrusted.Text(m.Reason)
				return r
			}
		case *wire.MsgPong:
			if r.Outcome == Requested && m.Nonce == nonce {
				r.Settled = true
				return r
			}
		}
	}
}

// asks reports whether getdata m asks for transaction id, and in which
// encoding (BIP144: MSG_WITNESS_TX with witness data, MSG_TX without).
func asks(m *wire.MsgGetData, id chainhash.Hash) (wire.MessageEncoding, bool) {
	for _, iv := range m.InvList {
		if iv.Hash != id {
			continue
		}
		switch iv.Type {
		case wire.InvTypeWitnessTx:
			return wire.WitnessEncoding, true
		case wire.InvTypeTx:
			return wire.BaseEncoding, true
		}
	}
	return 0, false
}

// await marks transaction id as announced (on) or no longer (off), so
// that a getdata for it reaches the session's queue.
func (s *Session) await(id chainhash.Hash, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !on {
		delete(s.awaits, id)
		return
	}
	if s.awaits == nil {
		s.awaits = make(map[chainhash.Hash]struct{})
	}
	s.awaits[id] = struct{}{}
}

// awaited reports whether getdata m asks for a transaction a Broadcast
// awaits a request for.
func (s *Session) awaited(m *wire.MsgGetData) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, iv := range m.InvList {
		if _, ok := s.awaits[iv.Hash]; ok {
			return true
		}
	}
	return false
}

// firstReannounce is how long Broadcast waits for a request before it
// announces the transaction again; each later wait is twice the one before.
const firstReannounce = time.Second

// errReannounce is nextOr's signal that its second timer fired.
var errReannounce = errors.New("spv: announce again")

// next returns the next queued message, or nil once timeout fires. Unlike
// receive, the end of the wait is an answer (silence), not a stall.
func (s *Session) next(ctx context.Context, timeout <-chan time.Time) (wire.Message, error) {
	return s.nextOr(ctx, timeout, nil)
}

// nextOr is next with a second timer, reported as errReannounce.
func (s *Session) nextOr(ctx context.Context, timeout, again <-chan time.Time) (wire.Message, error) {
	select {
	case msg := <-s.in:
		return msg, nil
	default:
	}
	select {
	case <-again:
		return nil, errReannounce
	case msg := <-s.in:
		return msg, nil
	case <-s.p.Done():
		select {
		case msg := <-s.in:
			return msg, nil
		default:
			return nil, s.gone()
		}
	case <-timeout:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
