package spv

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/peer"
	"github.com/btcsuite/btcd/wire/v2"
)

// DefaultTimeout bounds the handshake and each wait for the peer when
// [Config.Timeout] is zero.
const DefaultTimeout = 30 * time.Second

// queueLen is how many replies wait for the caller before the connection
// stops reading: with wire's limit of 4 MB for the largest reply, a block,
// a peer cannot make the session buffer more than about 64 MB.
const queueLen = 16

// Config configures a [Session].
type Config struct {
	Network *Network

	// Services the peer must advertise, such as wire.SFNodeCF for BIP157
	// or wire.SFNodeBloom for BIP37. A peer without them is refused right
	// after the handshake.
	Services wire.ServiceFlag

	// Advertise are the services this client claims in its version
	// message; zero claims none. A wallet that broadcasts segwit
	// transactions advertises wire.SFNodeWitness, as Neutrino does: peers
	// then ask for transactions with their witnesses (BIP144).
	Advertise wire.ServiceFlag

	// Timeout bounds the handshake and every wait for a message the peer
	// owes; zero means [DefaultTimeout]. A peer that exceeds it is dropped
	// with an error wrapping [ErrStalled].
	Timeout time.Duration
}

// Session is a P2P connection to one Bitcoin peer, made with btcd's peer
// package (which answers the peer's pings) and wire/v2 messages. It asks
// the peer not to relay transactions, advertises no services, and counts
// every byte and message in both directions ([Session.Traffic]).
//
// A light client sends requests with [Session.Request] and reads the
// answers with [Session.Replies]; Request follows them with a ping, and
// because nodes answer a peer's messages in order, the pong marks the end
// of the answer. Block announcements (inv, and headers no request awaits)
// are kept apart for [Session.Announced]; other messages that answer
// nothing (addr, feefilter, …) are dropped on arrival. A malformed message, or a wait longer than the
// timeout, drops the peer.
//
// Requests and replies must come from one goroutine at a time.
type Session struct {
	p       *peer.Peer
	addr    string
	claims  wire.ServiceFlag // Config.Advertise
	timeout time.Duration
	in      chan wire.Message
	closed  chan struct{}
	once    sync.Once // closes the session
	verack  chan struct{}
	acked   sync.Once // closes verack

	mu      sync.Mutex
	failure error                       // why the session ended, if it did by our hand or a bad message
	pending map[uint64]struct{}         // nonces of our pings not yet answered
	awaits  map[chainhash.Hash]struct{} // transactions a Broadcast announced and awaits getdata for
	owes    []owed                      // requests in flight that owe headers replies
	traffic Traffic

	announced Announcement  // see Announced
	news      chan struct{} // holds a value while announced is not empty
}

// Dial connects to addr and completes the handshake (see [NewSession]).
func Dial(ctx context.Context, addr string, cfg Config) (*Session, error) {
	d := net.Dialer{Timeout: cfg.timeout()}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("spv: %w", err)
	}
	return NewSession(ctx, conn, cfg)
}

func (cfg Config) timeout() time.Duration {
	if cfg.Timeout > 0 {
		return cfg.Timeout
	}
	return DefaultTimeout
}

// NewSession runs the version handshake over conn and returns the session
// once the peer's verack arrived and the peer offers cfg.Services. On
// failure conn is closed.
func NewSession(ctx context.Context, conn net.Conn, cfg Config) (*Session, error) {
	if cfg.Network == nil {
		conn.Close()
		return nil, errors.New("spv: Config.Network is nil")
	}
	s := &Session{addr: conn.RemoteAddr().String(), timeout: cfg.timeout(), claims: cfg.Advertise,
		in: make(chan wire.Message, queueLen), closed: make(chan struct{}), verack: make(chan struct{}), news: make(chan struct{}, 1),
		pending: make(map[uint64]struct{}), traffic: newTraffic()}
	p, err := peer.NewOutboundPeer(&peer.Config{
		UserAgentName:       "chainsieve",
		UserAgentVersion:    "0.1.0",
		ChainParams:         cfg.Network.Params,
		Services:            cfg.Advertise,
		DisableRelayTx:      true,
		DisableStallHandler: true, // our own timeouts bound every wait
		Listeners: peer.MessageListeners{
			OnRead:   s.onRead,
			OnWrite:  s.onWrite,
			OnVerAck: func(*peer.Peer, *wire.MsgVerAck) { s.acked.Do(func() { close(s.verack) }) },
		},
	}, s.addr)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("spv: peer %s: %w", s.addr, err)
	}
	s.p = p
	p.AssociateConnection(conn)
	if err := s.handshake(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if have := p.Services(); have&cfg.Services != cfg.Services {
		s.Close()
		return nil, fmt.Errorf("spv: peer %s offers services %v, without %v", s.addr, have, cfg.Services&^have)
	}
	return s, nil
}

func (s *Session) handshake(ctx context.Context) error {
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case <-s.verack:
		return nil
	case <-s.p.Done():
		if err := s.failed(); err != nil {
			return err
		}
		return fmt.Errorf("spv: peer %s ended the handshake (wrong network, or it refused us)", s.addr)
	case <-t.C:
		return fmt.Errorf("spv: peer %s: no verack within %v: %w", s.addr, s.timeout, ErrStalled)
	case <-ctx.Done():
		return fmt.Errorf("spv: handshake with %s: %w", s.addr, ctx.Err())
	}
}

// Addr returns the peer's address.
func (s *Session) Addr() string { return s.addr }

// Services returns the services the peer advertised.
func (s *Session) Services() wire.ServiceFlag { return s.p.Services() }

// UserAgent returns the peer's user agent.
func (s *Session) UserAgent() string { return s.p.UserAgent() }

// StartHeight returns the height of the best block the peer announced in
// its version message.
func (s *Session) StartHeight() int32 { return s.p.StartingHeight() }

// Done returns a channel closed once the connection has ended, by either
// side; [Session.Err] then says why.
func (s *Session) Done() <-chan struct{} { return s.p.Done() }

// Err returns why the session ended: the error it was dropped for, or
// that the peer closed the connection; nil while it is open.
func (s *Session) Err() error {
	select {
	case <-s.p.Done():
		return s.gone()
	default:
		return s.failed()
	}
}

// Close disconnects and waits a bounded time for btcd's peer goroutines.
func (s *Session) Close() error {
	s.once.Do(func() {
		close(s.closed)
		s.p.Disconnect()
		select {
		case <-s.p.Done():
		case <-time.After(5 * time.Second):
		}
	})
	return nil
}

// Drop closes the session for err, which later calls return. Scans call it
// when the peer's data fails verification.
func (s *Session) Drop(err error) {
	s.fail(err)
	s.Close()
}

// fail records the first reason the session ends.
func (s *Session) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failure == nil {
		s.failure = err
	}
}

func (s *Session) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failure
}

// Send queues msg, a message that expects no answer (filterload), and
// waits until it was written.
func (s *Session) Send(ctx context.Context, msg wire.Message) error {
	done := make(chan struct{}, 1)
	s.p.QueueMessage(msg, done)
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	select {
	case <-done:
		return nil
	case <-s.p.Done():
		return s.gone()
	case <-t.C:
		s.Drop(fmt.Errorf("spv: sending %s to %s took over %v: %w", msg.Command(), s.addr, s.timeout, ErrStalled))
		return s.failed()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Request sends msgs, then a ping, and counts one round trip. It returns
// the ping's nonce for [Session.Replies].
func (s *Session) Request(ctx context.Context, msgs ...wire.Message) (uint64, error) {
	nonce := rand.Uint64()
	s.mu.Lock()
	s.pending[nonce] = struct{}{}
	s.owe(nonce, msgs) // before the reply can come
	s.traffic.RoundTrips++
	s.mu.Unlock()
	for _, m := range msgs {
		s.p.QueueMessage(m, nil)
	}
	return nonce, s.Send(ctx, wire.NewMsgPing(nonce))
}

// Replies calls handle with each message the peer sends in answer to the
// request that nonce ends, until the pong to that ping arrives. It stops
// at handle's first error. Each wait is bounded by the session's timeout.
func (s *Session) Replies(ctx context.Context, nonce uint64, handle func(wire.Message) error) error {
	for {
		msg, err := s.receive(ctx)
		if err != nil {
			return err
		}
		if pong, ok := msg.(*wire.MsgPong); ok {
			if pong.Nonce == nonce {
				return nil
			}
			continue // the pong of an earlier, abandoned request
		}
		if err := handle(msg); err != nil {
			return err
		}
	}
}

// receive returns the next queued reply, waiting at most the timeout.
func (s *Session) receive(ctx context.Context) (wire.Message, error) {
	select {
	case msg := <-s.in:
		return msg, nil
	default:
	}
	t := time.NewTimer(s.timeout)
	defer t.Stop()
	msg, err := s.next(ctx, t.C)
	if msg == nil && err == nil {
		s.Drop(fmt.Errorf("spv: peer %s sent nothing it owed for %v: %w", s.addr, s.timeout, ErrStalled))
		return nil, s.failed()
	}
	return msg, err
}

// gone returns why the connection ended.
func (s *Session) gone() error {
	if err := s.failed(); err != nil {
		return err
	}
	return fmt.Errorf("spv: peer %s closed the connection", s.addr)
}
