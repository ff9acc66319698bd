package livenode

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/chaincfg/v2"
	"github.com/btcsuite/btcd/peer"
	"github.com/btcsuite/btcd/wire/v2"
)

const (
	// peerQueue is how many received messages wait for the test before
	// the connection stops reading.
	peerQueue = 256
	// handshakeTimeout bounds the dial plus version/verack exchange.
	handshakeTimeout = 30 * time.Second
)

// Peer is an outbound P2P connection to a node on 127.0.0.1, made with
// btcd's peer package (which answers pings itself) and wire/v2 messages.
// Every message received after the handshake is queued for
// [Peer.Receive]; the version and verack of the handshake are not.
// The embedded [peer.Peer] gives the negotiated protocol version and the
// remote's services.
type Peer struct {
	*peer.Peer
	in   chan wire.Message
	done chan struct{} // closed at cleanup, releasing a blocked reader
}

// ConnectPeer connects to the node listening on addr, which must be a
// loopback address, and completes the version/verack handshake within 30
// seconds; it fails the test otherwise. It advertises no services and asks
// the node not to relay transactions until a BIP37 filter is loaded.
// btcd's stall detection is off, so a request the node ignores ends in the
// caller's timeout rather than a disconnection. The connection is closed
// when the test ends.
func ConnectPeer(t testing.TB, addr string) *Peer {
	t.Helper()
	if err := checkLoopback(addr); err != nil {
		t.Fatal(err)
	}
	p := &Peer{in: make(chan wire.Message, peerQueue), done: make(chan struct{})}
	verack := make(chan struct{})
	var once sync.Once
	cfg := &peer.Config{
		UserAgentName:       "chainsieve-livenode",
		UserAgentVersion:    "0.1.0",
		ChainParams:         &chaincfg.RegressionNetParams,
		DisableRelayTx:      true,
		DisableStallHandler: true,
		Listeners: peer.MessageListeners{
			OnRead:   p.onRead,
			OnVerAck: func(*peer.Peer, *wire.MsgVerAck) { once.Do(func() { close(verack) }) },
		},
	}
	var err error
	if p.Peer, err = peer.NewOutboundPeer(cfg, addr); err != nil {
		t.Fatalf("livenode: peer %s: %v", addr, err)
	}
	conn, err := net.DialTimeout("tcp", addr, handshakeTimeout)
	if err != nil {
		t.Fatalf("livenode: dial %s: %v", addr, err)
	}
	p.AssociateConnection(conn)
	t.Cleanup(p.close)
	select {
	case <-verack:
		return p
	case <-p.Done():
		t.Fatalf("livenode: %s disconnected during the handshake", addr)
	case <-time.After(handshakeTimeout):
		t.Fatalf("livenode: no verack from %s within %v", addr, handshakeTimeout)
	}
	return nil
}

// onRead queues every message after the handshake. It blocks the reading
// goroutine while the queue is full, until the test ends.
func (p *Peer) onRead(_ *peer.Peer, _ int, msg wire.Message, err error) {
	if err != nil || msg == nil {
		return
	}
	switch msg.(type) {
	case *wire.MsgVersion, *wire.MsgVerAck:
		return
	}
	select {
	case p.in <- msg:
	case <-p.done:
	}
}

// close disconnects and waits a bounded time for the peer's goroutines.
func (p *Peer) close() {
	close(p.done)
	p.Disconnect()
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
	}
}

// Send queues msg and waits until it was written to the connection.
func (p *Peer) Send(ctx context.Context, msg wire.Message) error {
	if !p.Connected() {
		return fmt.Errorf("livenode: send %s to %s: disconnected", msg.Command(), p.Addr())
	}
	sent := make(chan struct{}, 1)
	p.QueueMessage(msg, sent)
	select {
	case <-sent:
		return nil
	case <-p.Done():
		return fmt.Errorf("livenode: send %s to %s: disconnected", msg.Command(), p.Addr())
	case <-ctx.Done():
		return fmt.Errorf("livenode: send %s to %s: %w", msg.Command(), p.Addr(), ctx.Err())
	}
}

// Receive returns the next message from the node. It fails when ctx ends
// or the node disconnected and every queued message was received.
func (p *Peer) Receive(ctx context.Context) (wire.Message, error) {
	select {
	case msg := <-p.in:
		return msg, nil
	default:
	}
	select {
	case msg := <-p.in:
		return msg, nil
	case <-p.Done():
		return nil, fmt.Errorf("livenode: receive from %s: disconnected", p.Addr())
	case <-ctx.Done():
		return nil, fmt.Errorf("livenode: receive from %s: %w", p.Addr(), ctx.Err())
	}
}

// Await receives messages until one of type M arrives and returns it,
// dropping the others (pings, inventory announcements). It fails like
// [Peer.Receive].
func Await[M wire.Message](ctx context.Context, p *Peer) (M, error) {
	for {
		msg, err := p.Receive(ctx)
		if err != nil {
			var zero M
			return zero, err
		}
		if m, ok := msg.(M); ok {
			return m, nil
		}
	}
}
