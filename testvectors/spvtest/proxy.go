package spvtest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// Edit rewrites a message the node sends: it returns the messages the
// client gets instead, none to drop it. Edits run on one goroutine per
// connection, in the order the node sends.
type Edit func(msg wire.Message) []wire.Message

// Proxy relays P2P connections made to Addr to a node, passing every
// message the node sends through an [Edit]: a peer that lies, stalls or
// sends malformed messages, with a real node's chain behind it. What the
// client sends reaches the node unchanged.
type Proxy struct {
	Addr string // 127.0.0.1:port, for the client to dial

	node  string
	magic wire.BitcoinNet
	edit  Edit
	ln    net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	conns []net.Conn
}

// NewProxy starts a proxy in front of the node at node (a loopback
// address) on network n. It stops when the test ends.
func NewProxy(t testing.TB, node string, n *spv.Network, edit Edit) *Proxy {
	t.Helper()
	if err := checkLoopback(node); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: ln.Addr().String(), node: node, magic: n.Params.Net, edit: edit, ln: ln}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.node)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		p.wg.Add(2)
		go func() { defer p.wg.Done(); io.Copy(up, c); up.Close() }()
		go func() { defer p.wg.Done(); p.relay(c, up); c.Close() }()
	}
}

func (p *Proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// relay copies the node's messages to the client through the edit, until
// either side closes.
func (p *Proxy) relay(client io.Writer, node io.Reader) {
	for {
		frame, err := readFrame(node)
		if err != nil {
			return
		}
		_, msg, _, err := wire.ReadMessageWithEncodingN(bytes.NewReader(frame), wire.ProtocolVersion, p.magic, wire.WitnessEncoding)
		if err != nil || p.edit == nil {
			// Commands wire does not know (sendcmpct, …) pass unchanged.
			if _, err := client.Write(frame); err != nil {
				return
			}
			continue
		}
		for _, out := range p.edit(msg) {
			if err := p.write(client, out); err != nil {
				return
			}
		}
	}
}

func (p *Proxy) write(w io.Writer, msg wire.Message) error {
	if raw, ok := msg.(Raw); ok {
		_, err := w.Write(raw)
		return err
	}
	_, err := wire.WriteMessageWithEncodingN(w, msg, wire.ProtocolVersion, p.magic, wire.WitnessEncoding)
	return err
}

// readFrame reads one whole message: the 24-byte header (magic, command,
// length, checksum) and the payload.
func readFrame(r io.Reader) ([]byte, error) {
	frame := make([]byte, 24)
	if _, err := io.ReadFull(r, frame); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(frame[16:20])
	if n > wire.MaxMessagePayload {
		return nil, errors.New("spvtest: message too long")
	}
	frame = append(frame, make([]byte, n)...)
	_, err := io.ReadFull(r, frame[24:])
	return frame, err
}

// Raw is a message an [Edit] returns to have the proxy send these exact
// bytes, header included: a malformed message, for example.
type Raw []byte

func (Raw) BtcDecode(io.Reader, uint32, wire.MessageEncoding) error {
	return errors.New("spvtest: Raw is not decoded")
}
func (r Raw) BtcEncode(w io.Writer, _ uint32, _ wire.MessageEncoding) error {
	_, err := w.Write(r)
	return err
}
func (Raw) Command() string                { return "raw" }
func (Raw) MaxPayloadLength(uint32) uint32 { return wire.MaxMessagePayload }

// BadChecksum returns msg encoded for network n with its checksum broken.
func BadChecksum(msg wire.Message, n *spv.Network) Raw {
	var buf bytes.Buffer
	wire.WriteMessageWithEncodingN(&buf, msg, wire.ProtocolVersion, n.Params.Net, wire.WitnessEncoding)
	b := buf.Bytes()
	b[20] ^= 0xff
	return Raw(b)
}
