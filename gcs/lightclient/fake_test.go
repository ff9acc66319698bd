package lightclient

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/blockchain"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs"
	"github.com/chainsieve/chainsieve/gcs/spv"
)

// fakeChain is a regtest chain built in memory for tests with scripted
// peers: real headers (proof of work at the regtest limit), blocks whose
// transactions pay and spend scripts (their signatures are not checked by
// a light client, so they carry none), and their BIP158 filters.
type fakeChain struct {
	blocks  []*wire.MsgBlock
	filters [][]byte
	scripts map[wire.OutPoint][]byte // every output, for the spent scripts of later blocks
}

// fakeStart is when the fake chains' timestamps begin: recent enough for
// a peer to count as current, and below the two-hour limit.
var fakeStart = time.Now().Add(-3 * time.Hour).Truncate(time.Second)

func newFakeChain(t testing.TB) *fakeChain {
	g := spv.Regtest.Params.GenesisBlock
	c := &fakeChain{scripts: make(map[wire.OutPoint][]byte)}
	c.push(t, g, nil)
	return c
}

// payment is an output of a fake transaction.
type payment struct {
	script []byte
	value  int64
}

// fakeTx is a transaction of a fake block: it spends from and pays to.
type fakeTx struct {
	from []wire.OutPoint
	to   []payment
}

// mine appends a block with a coinbase (tagged with tag, so that
// branches differ) and txs, and returns it.
func (c *fakeChain) mine(t testing.TB, tag byte, txs ...fakeTx) *wire.MsgBlock {
	t.Helper()
	h := int32(len(c.blocks))
	cb := wire.NewMsgTx(2)
	cb.AddTxIn(wire.NewTxIn(&wire.OutPoint{Index: wire.MaxPrevOutIndex}, []byte{4, byte(h), byte(h >> 8), byte(h >> 16), tag, 0}, nil))
	cb.AddTxOut(wire.NewTxOut(50e8, []byte{0x51, 0x20, tag, byte(h), 1, 2, 3})) // no wallet's
	b := &wire.MsgBlock{Transactions: []*wire.MsgTx{cb}}
	var spent [][]byte
	for _, ft := range txs {
		tx := wire.NewMsgTx(2)
		for _, op := range ft.from {
			tx.AddTxIn(wire.NewTxIn(&op, []byte{0x01, tag}, nil))
			s, ok := c.scripts[op]
			if !ok {
				t.Fatalf("fake block %d spends unknown %v", h, op)
			}
			spent = append(spent, s)
		}
		for _, p := range ft.to {
			tx.AddTxOut(wire.NewTxOut(p.value, p.script))
		}
		b.Transactions = append(b.Transactions, tx)
	}
	prev := c.blocks[h-1].Header
	b.Header = wire.BlockHeader{Version: 4, PrevBlock: prev.BlockHash(), MerkleRoot: merkle(b.Transactions),
		Timestamp: fakeStart.Add(time.Duration(h) * time.Second), Bits: spv.Regtest.Params.PowLimitBits}
	target := blockchain.CompactToBig(b.Header.Bits)
	for ; ; b.Header.Nonce++ {
		hash := b.Header.BlockHash()
		if blockchain.HashToBig(&hash).Cmp(target) <= 0 {
			break
		}
	}
	c.push(t, b, spent)
	return b
}

// push appends b, its filter and its outputs.
func (c *fakeChain) push(t testing.TB, b *wire.MsgBlock, spent [][]byte) {
	t.Helper()
	f, err := gcs.BuildBasic(b, spent)
	if err != nil {
		t.Fatal(err)
	}
	c.blocks = append(c.blocks, b)
	c.filters = append(c.filters, f.Bytes())
	for _, tx := range b.Transactions {
		for i, out := range tx.TxOut {
			c.scripts[wire.OutPoint{Hash: tx.TxHash(), Index: uint32(i)}] = out.PkScript
		}
	}
}

// fork returns a copy of the chain up to height h, to mine a competing
// branch on.
func (c *fakeChain) fork(h int32) *fakeChain {
	d := &fakeChain{blocks: append([]*wire.MsgBlock(nil), c.blocks[:h+1]...), filters: append([][]byte(nil), c.filters[:h+1]...),
		scripts: make(map[wire.OutPoint][]byte)}
	for op, s := range c.scripts {
		d.scripts[op] = s
	}
	return d
}

func (c *fakeChain) tip() int32 { return int32(len(c.blocks) - 1) }

func (c *fakeChain) hash(h int32) chainhash.Hash { return c.blocks[h].BlockHash() }

// height returns the height of the block with hash, -1 if not on c.
func (c *fakeChain) height(hash chainhash.Hash) int32 {
	for h, b := range c.blocks {
		if b.BlockHash() == hash {
			return int32(h)
		}
	}
	return -1
}

func merkle(txs []*wire.MsgTx) chainhash.Hash {
	level := make([]chainhash.Hash, len(txs))
	for i, tx := range txs {
		level[i] = tx.TxHash()
	}
	for len(level) > 1 {
		if len(level)%2 == 1 {
			level = append(level, level[len(level)-1])
		}
		var next []chainhash.Hash
		for i := 0; i < len(level); i += 2 {
			next = append(next, chainhash.DoubleHashH(append(level[i][:], level[i+1][:]...)))
		}
		level = next
	}
	return level[0]
}

// fakePeer is a scripted BIP157 peer on 127.0.0.1 serving a fakeChain:
// headers, filter headers, filters and blocks, as btcd answers them, and
// announcements of new blocks (headers after sendheaders, inv before).
// lies replaces the filter of blocks by hash, its cfheaders committing to
// the replacement (a consistent lie); silent makes it ignore getcfheaders.
type fakePeer struct {
	addr string
	ln   net.Listener

	mu     sync.Mutex
	chain  *fakeChain
	lies   map[chainhash.Hash][]byte // filters replaced, cfheaders to match
	bad    map[chainhash.Hash][]byte // filters replaced, cfheaders honest
	silent bool
	stalls bool
	// switchTo becomes the peer's chain once it has answered a
	// getcfheaders, announced after the answer: a reorganisation between
	// two requests.
	switchTo *fakeChain
	noCF     bool // does not advertise compact filters
	conns    []*fakeConn
	wg       sync.WaitGroup
}

type fakeConn struct {
	conn        net.Conn
	wmu         sync.Mutex
	sendHeaders bool
}

func startFakePeer(t testing.TB, chain *fakeChain) *fakePeer {
	t.Helper()
	return listenFakePeer(t, chain, "127.0.0.1:0")
}

// listenFakePeer starts a fake peer listening on addr, a loopback address.
func listenFakePeer(t testing.TB, chain *fakeChain, addr string) *fakePeer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	p := &fakePeer{addr: ln.Addr().String(), ln: ln, chain: chain, lies: make(map[chainhash.Hash][]byte), bad: make(map[chainhash.Hash][]byte)}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *fakePeer) accept() {
	defer p.wg.Done()
	for {
		conn, err := p.ln.Accept()
		if err != nil {
			return
		}
		fc := &fakeConn{conn: conn}
		p.mu.Lock()
		p.conns = append(p.conns, fc)
		p.mu.Unlock()
		p.wg.Add(1)
		go func() { defer p.wg.Done(); defer conn.Close(); p.serve(fc) }()
	}
}

func (p *fakePeer) close() {
	p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.conn.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// lie makes the peer serve data as the filter of the block with hash,
// its cfheaders committing to it.
func (p *fakePeer) lie(hash chainhash.Hash, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lies[hash] = data
}

// badFilter makes the peer serve data as the filter of the block with
// hash, while its cfheaders commit to the true one.
func (p *fakePeer) badFilter(hash chainhash.Hash, data []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bad[hash] = data
}

// stall makes the peer answer nothing after the handshake, pings
// included.
func (p *fakePeer) stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalls = true
}

// withoutCF makes the peer advertise no compact filters.
func (p *fakePeer) withoutCF() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.noCF = true
}

// quiet makes the peer ignore getcfheaders, as btcd does while its tip is
// over a day old.
func (p *fakePeer) quiet() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.silent = true
}

// setChain replaces the peer's chain (extended, or a competing branch)
// and announces its tip to every connection.
func (p *fakePeer) setChain(c *fakeChain) {
	p.mu.Lock()
	p.chain = c
	conns := append([]*fakeConn(nil), p.conns...)
	tip := c.blocks[c.tip()].Header
	p.mu.Unlock()
	for _, fc := range conns {
		if fc.wantsHeaders() {
			h := wire.NewMsgHeaders()
			h.AddBlockHeader(&tip)
			fc.send(h)
		} else {
			inv := wire.NewMsgInv()
			hash := tip.BlockHash()
			inv.AddInvVect(wire.NewInvVect(wire.InvTypeBlock, &hash))
			fc.send(inv)
		}
	}
}

func (fc *fakeConn) wantsHeaders() bool {
	fc.wmu.Lock()
	defer fc.wmu.Unlock()
	return fc.sendHeaders
}

func (fc *fakeConn) send(m wire.Message) error {
	fc.wmu.Lock()
	defer fc.wmu.Unlock()
	_, err := wire.WriteMessageWithEncodingN(fc.conn, m, wire.ProtocolVersion, spv.Regtest.Params.Net, wire.WitnessEncoding)
	return err
}

func (p *fakePeer) serve(fc *fakeConn) {
	magic := spv.Regtest.Params.Net
	for {
		_, msg, _, err := wire.ReadMessageWithEncodingN(fc.conn, wire.ProtocolVersion, magic, wire.WitnessEncoding)
		if errors.Is(err, wire.ErrUnknownMessage) {
			continue
		}
		if err != nil {
			return
		}
		p.mu.Lock()
		c, lies, bad, silent, stalls, noCF := p.chain, p.lies, p.bad, p.silent, p.stalls, p.noCF
		p.mu.Unlock()
		var out []wire.Message
		var next *fakeChain // a branch to switch to once out is sent
		if _, ok := msg.(*wire.MsgVersion); stalls && !ok {
			continue
		}
		switch m := msg.(type) {
		case *wire.MsgVersion:
			me := wire.NewNetAddressIPPort(net.IPv4(127, 0, 0, 1), 18444, 0)
			v := wire.NewMsgVersion(me, &m.AddrMe, 0x5eed, c.tip())
			v.Services = wire.SFNodeNetwork | wire.SFNodeWitness | wire.SFNodeCF | wire.SFNodeBloom
			if noCF {
				v.Services &^= wire.SFNodeCF
			}
			out = []wire.Message{v, wire.NewMsgVerAck()}
		case *wire.MsgSendHeaders:
			fc.wmu.Lock()
			fc.sendHeaders = true
			fc.wmu.Unlock()
		case *wire.MsgPing:
			out = []wire.Message{wire.NewMsgPong(m.Nonce)}
		case *wire.MsgGetHeaders:
			out = []wire.Message{c.headers(m)}
		case *wire.MsgGetCFHeaders:
			if r := c.cfheaders(m, lies); r != nil && !silent {
				out = []wire.Message{r}
			}
			p.mu.Lock()
			next, p.switchTo = p.switchTo, nil
			p.mu.Unlock()
		case *wire.MsgGetCFilters:
			out = c.cfilters(m, lies, bad)
		case *wire.MsgGetData:
			for _, iv := range m.InvList {
				if h := c.height(iv.Hash); h >= 0 && iv.Type == wire.InvTypeBlock {
					out = append(out, c.blocks[h])
				}
			}
		}
		for _, m := range out {
			if fc.send(m) != nil {
				return
			}
		}
		if next != nil {
			p.setChain(next)
		}
	}
}

// headers answers getheaders as btcd does.
func (c *fakeChain) headers(m *wire.MsgGetHeaders) *wire.MsgHeaders {
	from := int32(0)
	for _, l := range m.BlockLocatorHashes {
		if h := c.height(*l); h >= 0 {
			from = h
			break
		}
	}
	out := wire.NewMsgHeaders()
	for h := from + 1; h <= c.tip() && len(out.Headers) < wire.MaxBlockHeadersPerMsg; h++ {
		out.AddBlockHeader(&c.blocks[h].Header)
		if c.hash(h) == m.HashStop {
			break
		}
	}
	return out
}

// filter returns the filter the peer serves for block h.
func (c *fakeChain) filter(h int32, lies map[chainhash.Hash][]byte) []byte {
	if data, ok := lies[c.hash(h)]; ok {
		return data
	}
	return c.filters[h]
}

// cfheaders answers getcfheaders, nil for a stop hash not on the chain.
func (c *fakeChain) cfheaders(m *wire.MsgGetCFHeaders, lies map[chainhash.Hash][]byte) *wire.MsgCFHeaders {
	stop := c.height(m.StopHash)
	if stop < 0 || int32(m.StartHeight) > stop {
		return nil
	}
	out := &wire.MsgCFHeaders{FilterType: wire.GCSFilterRegular, StopHash: m.StopHash}
	var prev chainhash.Hash
	for h := int32(0); h <= stop; h++ {
		if h == int32(m.StartHeight) {
			out.PrevFilterHeader = prev
		}
		fh := gcs.FilterHash(c.filter(h, lies))
		prev = gcs.FilterHeader(fh, prev)
		if h >= int32(m.StartHeight) {
			out.AddCFHash(&fh)
		}
	}
	return out
}

func (c *fakeChain) cfilters(m *wire.MsgGetCFilters, lies, bad map[chainhash.Hash][]byte) []wire.Message {
	stop := c.height(m.StopHash)
	var out []wire.Message
	for h := int32(m.StartHeight); h <= stop; h++ {
		data := c.filter(h, lies)
		if b, ok := bad[c.hash(h)]; ok {
			data = b
		}
		out = append(out, wire.NewMsgCFilter(wire.GCSFilterRegular, ptr(c.hash(h)), data))
	}
	return out
}

func ptr(h chainhash.Hash) *chainhash.Hash { return &h }

// walletAddr returns a regtest P2WPKH address of test key i, and its
// script.
func walletAddr(t testing.TB, i byte) (address.Address, []byte) {
	t.Helper()
	a, err := address.NewAddressWitnessPubKeyHash(bytes.Repeat([]byte{i}, 20), spv.Regtest.Params)
	if err != nil {
		t.Fatal(err)
	}
	return a, append([]byte{0x00, 0x14}, bytes.Repeat([]byte{i}, 20)...)
}

func (p *fakePeer) String() string { return fmt.Sprintf("fake peer %s", p.addr) }
