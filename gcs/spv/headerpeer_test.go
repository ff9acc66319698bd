package spv_test

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// headerPeer is a P2P peer on 127.0.0.1 that serves a chain of headers
// with getheaders as btcd answers it (after the first locator hash it
// knows, up to 2,000 or the stop hash; with no locator, the stop hash's
// header alone): a header source for chains too long for a node to mine
// in a test.
type headerPeer struct {
	addr    string
	headers []wire.BlockHeader // from genesis: headers[h] is at height h
	height  map[chainhash.Hash]int32
	ln      net.Listener
	wg      sync.WaitGroup
}

func startHeaderPeer(t testing.TB, n *spv.Network, headers []wire.BlockHeader) *headerPeer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &headerPeer{addr: ln.Addr().String(), headers: headers, height: make(map[chainhash.Hash]int32, len(headers)), ln: ln}
	for i := range headers {
		p.height[headers[i].BlockHash()] = int32(i)
	}
	p.wg.Add(1)
	go p.accept(n)
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *headerPeer) accept(n *spv.Network) {
	defer p.wg.Done()
	var mu sync.Mutex
	var conns []net.Conn
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		mu.Lock()
		conns = append(conns, conn)
		mu.Unlock()
		p.wg.Add(1)
		go func() { defer p.wg.Done(); defer conn.Close(); p.serve(conn, n.Params.Net) }()
	}
}

// serve speaks the protocol by hand: btcd's peer package refuses an
// inbound peer whose version nonce this process sent, as the client's
// is.
func (p *headerPeer) serve(conn net.Conn, magic wire.BitcoinNet) {
	write := func(m wire.Message) error {
		_, err := wire.WriteMessageWithEncodingN(conn, m, wire.ProtocolVersion, magic, wire.WitnessEncoding)
		return err
	}
	tip := int32(len(p.headers) - 1)
	me := &wire.NetAddress{IP: net.IPv4(127, 0, 0, 1), Services: wire.SFNodeNetwork}
	ver := wire.NewMsgVersion(me, me, 1, tip)
	ver.Services = wire.SFNodeNetwork | wire.SFNodeWitness | wire.SFNodeCF
	for {
		_, msg, _, err := wire.ReadMessageWithEncodingN(conn, wire.ProtocolVersion, magic, wire.WitnessEncoding)
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *wire.MsgVersion:
			err = errors.Join(write(ver), write(wire.NewMsgVerAck()))
		case *wire.MsgPing:
			err = write(wire.NewMsgPong(m.Nonce))
		case *wire.MsgGetHeaders:
			err = write(p.answer(m))
		}
		if err != nil {
			return
		}
	}
}

func (p *headerPeer) answer(msg *wire.MsgGetHeaders) *wire.MsgHeaders {
	stop, hasStop := p.height[msg.HashStop]
	out := wire.NewMsgHeaders()
	if len(msg.BlockLocatorHashes) == 0 {
		if hasStop {
			out.AddBlockHeader(&p.headers[stop])
		}
		return out
	}
	from := int32(0)
	for _, h := range msg.BlockLocatorHashes {
		if at, ok := p.height[*h]; ok {
			from = at
			break
		}
	}
	end := min(int32(len(p.headers))-1, from+wire.MaxBlockHeadersPerMsg)
	if hasStop && stop > from {
		end = min(end, stop)
	}
	for h := from + 1; h <= end; h++ {
		out.AddBlockHeader(&p.headers[h])
	}
	return out
}

// regtestHeaders returns n+1 valid regtest headers from genesis, one
// second apart and ending an hour ago, with nonces found by trial (about
// two tries a header at the regtest limit).
func regtestHeaders(n int) []wire.BlockHeader {
	hs := make([]wire.BlockHeader, n+1)
	hs[0] = spv.Regtest.Params.GenesisBlock.Header
	start := time.Now().Add(-time.Hour - time.Duration(n)*time.Second).Truncate(time.Second)
	for i := 1; i <= n; i++ {
		hs[i] = regtestNext(&hs[i-1], start.Add(time.Duration(i)*time.Second))
	}
	return hs
}

// regtestNext returns a header after prev at ts whose hash meets the
// regtest limit.
func regtestNext(prev *wire.BlockHeader, ts time.Time) wire.BlockHeader {
	h := wire.BlockHeader{Version: 4, PrevBlock: prev.BlockHash(), Timestamp: ts, Bits: spv.Regtest.Params.PowLimitBits}
	h.MerkleRoot = chainhash.DoubleHashH(h.PrevBlock[:])
	target := blockchain.CompactToBig(h.Bits)
	for ; ; h.Nonce++ {
		hash := h.BlockHash()
		if blockchain.HashToBig(&hash).Cmp(target) <= 0 {
			return h
		}
	}
}
