package bip37

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/btcsuite/btcd/address/v2"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/gcs/spv"
	"github.com/chainsieve/chainsieve/testvectors/livenode"
	"github.com/chainsieve/chainsieve/testvectors/spvtest"
)

// Integration tests against real nodes (docs/integration.md): a light wallet
// scans a regtest chain with BIP37 over P2P, and every answer is checked with
// this package. They are skipped under -short.

// nodeKind is a node to test against and the network its header chain
// follows.
type nodeKind struct {
	start   spvtest.Start
	network *spv.Network
}

func TestNodeBtcd(t *testing.T) {
	t.Parallel()
	testNode(t, nodeKind{livenode.StartBtcd, spv.Regtest})
}

// TestNodeLitecoind runs the scan against Litecoin Core, a Bitcoin Core code
// base, where every merkle block must equal ours byte for byte.
func TestNodeLitecoind(t *testing.T) {
	t.Parallel()
	testNode(t, nodeKind{livenode.StartLitecoind, spvtest.LitecoinRegtest})
}

const (
	// nodeTimeout bounds a whole node test once the node runs.
	nodeTimeout = 2 * time.Minute
	// messageTimeout bounds each wait for a P2P message: the protocol has
	// no end marker, so a missing transaction shows up as this timeout.
	messageTimeout = 10 * time.Second
	// walletFPRate is the wallet filter's false-positive rate: high enough
	// that the unrelated traffic gives false positives to explain.
	walletFPRate = 0.002
	// maxTweak bounds the search for a tweak in walletFilter.
	maxTweak = 1000
)

// testNode mines [traffic], loads the wallet's filter into the node with
// filterload, asks for every block after the wallet's birth as a filtered
// block with one getdata, and checks what comes back:
//
//   - every merkle block verifies ([Collector]) and its header is the one at
//     its height in the header chain package spv syncs with getheaders
//     (linked from genesis, with regtest proof of work and difficulty);
//   - the tx messages are exactly those the merkle blocks prove (a ping
//     after the last one is answered before anything else arrives);
//   - every wallet transaction after birth is found; every other one found
//     is a false positive that MatchTx confirms on the filter as the node
//     held it, through an element that is not the wallet's;
//   - NewMerkleBlock over the same block, with our copy of the filter
//     updated block by block as the node updates its own (UpdateAll),
//     gives the node's merkle block byte for byte.
func testNode(t *testing.T, k nodeKind) {
	w := livenode.NewWallet("bip37 node test", regtest)
	others := livenode.NewWallet("bip37 node test: others", regtest)
	n := k.start(t, others.NewAddress(livenode.P2PKH).Address)
	ctx, cancel := context.WithTimeout(t.Context(), nodeTimeout)
	defer cancel()
	began := time.Now()
	born, coins := traffic(ctx, t, n, w, others)
	blocks, err := n.Blocks(ctx, born+1)
	if err != nil {
		t.Fatal(err)
	}
	f, tweak := walletFilter(t, w, coins, blocks)

	chain := headerChain(ctx, t, n, k.network)
	if chain.Height() != w.Tip() {
		t.Fatalf("getheaders from genesis: %d headers, want %d", chain.Height(), w.Tip())
	}
	p := livenode.ConnectPeer(t, n.P2PAddr)
	got := filteredBlocks(ctx, t, p, f, blocks)
	s := checkScan(t, w, f, born, coins, chain, blocks, got)
	t.Logf("%s: filter of %d bytes, %d hash functions, tweak %d, UpdateAll, %d addresses and %d outpoints",
		n.Name, f.Size(), f.HashFuncs(), tweak, len(w.Addresses()), len(coins))
	t.Logf("%s: %d filtered blocks (heights %d-%d), %d merkle blocks verified against %d headers, "+
		"%d of %d wallet transactions found, %d false positives, %d of %d merkle blocks byte-equal to NewMerkleBlock",
		n.Name, len(got), born+1, w.Tip(), s.verified, chain.Height(), s.found, s.want, len(s.falsePositives), s.equal, len(got))
	for _, kind := range []string{"an address element", "an outpoint held at birth", "an outpoint UpdateAll inserted"} {
		t.Logf("%s: %d wallet transactions matched by %s", n.Name, s.how[kind], kind)
		if s.how[kind] == 0 {
			t.Errorf("no wallet transaction matched by %s: the scan does not test it", kind)
		}
	}
	for _, fp := range s.falsePositives {
		t.Logf("%s: false positive %s", n.Name, fp)
	}
	t.Logf("%s: mining and checks took %v", n.Name, time.Since(began).Round(time.Millisecond))
}

// walletFilter returns the filter the wallet loads: NewWalletFilter of all
// its addresses (a wallet scans with its lookahead) and of the coins it held
// at birth, with UpdateAll so that the node inserts the outpoints of later
// payments. Segwit spends of the coins held at birth match only through
// those outpoints; later spends through the ones the node inserts.
//
// The tweak is the first from 1 for which a dry run over blocks gives at
// least one false positive (so that the scan explains some) and never puts
// the empty element in the filter. That keeps btcd's divergences out of the
// comparison: btcd tests the empty OP_0 push of every segwit v0 output,
// which Core skips, so the two would differ only once the filter contained
// it. Its other divergences cannot apply: the filter has data (btcd matches
// nothing on an empty one) and flags 1 (btcd does not mask reserved bits).
func walletFilter(t *testing.T, w *livenode.Wallet, coins []livenode.Coin, blocks []*wire.MsgBlock) (*Filter, uint32) {
	t.Helper()
	var addrs []address.Address
	for _, a := range w.Addresses() {
		addrs = append(addrs, a.Address)
	}
	var outpoints []wire.OutPoint
	for _, c := range coins {
		outpoints = append(outpoints, c.OutPoint)
	}
	for tweak := uint32(1); tweak <= maxTweak; tweak++ {
		f, err := NewWalletFilter(addrs, outpoints, walletFPRate, tweak, UpdateAll)
		if err != nil {
			t.Fatal(err)
		}
		dry, falsePositives := f.Clone(), 0
		for _, b := range blocks {
			_, matches := NewMerkleBlock(b, dry)
			for _, m := range matches {
				if w.Tx(m.TxID) == nil {
					falsePositives++
				}
			}
		}
		if falsePositives > 0 && !dry.Contains(nil) {
			return f, tweak
		}
	}
	t.Fatalf("no tweak up to %d gives a false positive without the empty element", maxTweak)
	return nil, 0
}

// nodeBlock is a merkle block as the node sent it, and as the Collector
// verified it and paired it with its transactions.
type nodeBlock struct {
	msg   *wire.MsgMerkleBlock
	block *FilteredBlock
}

// filteredBlocks loads f into the node and asks for blocks as filtered
// blocks with one getdata. It collects one merkle block per block and the
// transactions each proves, then checks that nothing else follows.
func filteredBlocks(ctx context.Context, t *testing.T, p *livenode.Peer, f *Filter, blocks []*wire.MsgBlock) []nodeBlock {
	t.Helper()
	getdata := wire.NewMsgGetData()
	for _, b := range blocks {
		hash := b.BlockHash()
		if err := getdata.AddInvVect(wire.NewInvVect(wire.InvTypeFilteredBlock, &hash)); err != nil {
			t.Fatal(err)
		}
	}
	for _, msg := range []wire.Message{f.MsgFilterLoad(), getdata} {
		if err := p.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	var c Collector
	var got []nodeBlock
	var last *wire.MsgMerkleBlock
	for len(got) < len(blocks) {
		msg, err := receive(ctx, p)
		if err != nil {
			t.Fatalf("after %d of %d filtered blocks: %v; transactions still missing: %v", len(got), len(blocks), err, c.Missing())
		}
		var fb *FilteredBlock
		switch m := msg.(type) {
		case *wire.MsgMerkleBlock:
			last = m
			fb, err = c.MerkleBlock(m)
		case *wire.MsgTx:
			fb, err = c.Tx(m)
		default:
			continue
		}
		if err != nil {
			t.Fatalf("filtered block %d of %d: %v", len(got)+1, len(blocks), err)
		}
		if fb != nil {
			got = append(got, nodeBlock{last, fb})
		}
	}
	settle(ctx, t, p)
	return got
}

// receive returns the node's next message, waiting at most messageTimeout.
func receive(ctx context.Context, p *livenode.Peer) (wire.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, messageTimeout)
	defer cancel()
	return p.Receive(ctx)
}

// settle sends a ping and reads up to its pong. A node answers a peer's
// messages in order, so whatever it sent for the getdata came before the
// pong: a merkle block or tx message there is more than was promised.
func settle(ctx context.Context, t *testing.T, p *livenode.Peer) {
	t.Helper()
	const nonce = 0xb1937
	if err := p.Send(ctx, wire.NewMsgPing(nonce)); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := receive(ctx, p)
		if err != nil {
			t.Fatalf("waiting for pong %x: %v", nonce, err)
		}
		switch m := msg.(type) {
		case *wire.MsgPong:
			if m.Nonce == nonce {
				return
			}
		case *wire.MsgMerkleBlock, *wire.MsgTx:
			t.Errorf("%s message after the last promised transaction", m.Command())
		}
	}
}

// scan is what checkScan counted.
type scan struct {
	verified, equal int            // merkle blocks on the header chain; equal to ours
	found, want     int            // wallet transactions after birth
	how             map[string]int // wallet transactions by the kind of element that matched
	falsePositives  []string       // explanations
}

// scanCheck holds what checkScan knows while it walks the blocks.
type scanCheck struct {
	t      *testing.T
	w      *livenode.Wallet
	wallet map[string]bool         // the wallet's elements: address elements and outpoints
	birth  map[wire.OutPoint]bool  // the outpoints the wallet held at birth
	proven map[chainhash.Hash]bool // every transaction a merkle block proved so far
	scan
}

// checkScan checks the node's filtered blocks against the header chain,
// the wallet and NewMerkleBlock; got[i] answers blocks[i], at height
// born+1+i, and the wallet held coins at born.
func checkScan(t *testing.T, w *livenode.Wallet, f *Filter, born int32, coins []livenode.Coin, chain *spv.Chain, blocks []*wire.MsgBlock, got []nodeBlock) scan {
	t.Helper()
	c := scanCheck{t: t, w: w, wallet: walletElements(w), birth: map[wire.OutPoint]bool{},
		proven: map[chainhash.Hash]bool{}, scan: scan{how: map[string]int{}}}
	for _, coin := range coins {
		c.birth[coin.OutPoint] = true
	}
	mirror := f.Clone() // the node's copy of the filter, block by block
	for i, nb := range got {
		height, b := int(born)+1+i, blocks[i]
		want, err := chain.Hash(int32(height))
		if err != nil {
			t.Fatal(err)
		}
		if hash := nb.block.Header.BlockHash(); hash != want || hash != b.BlockHash() {
			t.Errorf("merkle block at height %d: header %v, header chain has %v, getblock %v",
				height, hash, want, b.BlockHash())
			continue
		}
		c.verified++
		before := mirror.Clone()
		ours, matches := NewMerkleBlock(b, mirror)
		if bytes.Equal(AppendMerkleBlock(nil, ours), wireBytes(t, nb.msg)) {
			c.equal++
		} else {
			t.Errorf("NewMerkleBlock(block %d) = %x, want the node's %x", height, AppendMerkleBlock(nil, ours), wireBytes(t, nb.msg))
		}
		if !slices.Equal(matches, nb.block.Matches) {
			t.Errorf("NewMerkleBlock(block %d) matches %v, the node's prove %v", height, matches, nb.block.Matches)
		}
		for _, tx := range nb.block.Txs {
			c.proven[tx.TxHash()] = true
		}
		c.explain(before, b, height)
	}
	for _, tx := range w.Txs() {
		if tx.Height <= born {
			continue
		}
		c.want++
		if c.proven[tx.ID] {
			c.found++
		} else {
			t.Errorf("wallet transaction %v at height %d: not in any filtered block", tx.ID, tx.Height)
		}
	}
	return c.scan
}

// explain walks block b with f as the node held it before the block, and
// explains each transaction the node proved by the first element of it
// that f contains, in Core's order. A wallet transaction is tallied by
// that element's kind. Any other is a false positive: MatchTx must match
// it and the element must not be the wallet's.
func (c *scanCheck) explain(f *Filter, b *wire.MsgBlock, height int) {
	c.t.Helper()
	for _, tx := range b.Transactions {
		txid := tx.TxHash()
		if !c.proven[txid] {
			f.MatchTx(tx, txid)
			continue
		}
		e := firstContained(f, tx, txid)
		switch {
		case c.w.Tx(txid) != nil:
			c.how[e.kind(c.wallet, c.birth)]++
		case !f.Clone().MatchTx(tx, txid) || e.elem == nil:
			c.t.Errorf("false positive %v at height %d: MatchTx = false on the node's filter", txid, height)
		case c.wallet[string(e.elem)]:
			c.t.Errorf("false positive %v at height %d: %s %x is the wallet's", txid, height, e.where, e.elem)
		default:
			c.falsePositives = append(c.falsePositives, fmt.Sprintf("%v at height %d: %s", txid, height, e.describe(c.proven, c.w)))
		}
		f.MatchTx(tx, txid)
	}
}

// wireBytes returns msg as btcd's wire package encodes it: the bytes the
// node sent, as they decode losslessly. It must equal our encoding.
func wireBytes(t *testing.T, msg *wire.MsgMerkleBlock) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := msg.BtcEncode(&buf, wire.ProtocolVersion, wire.BaseEncoding); err != nil {
		t.Fatal(err)
	}
	if ours := AppendMerkleBlock(nil, msg); !bytes.Equal(ours, buf.Bytes()) {
		t.Errorf("AppendMerkleBlock(%v) = %x, want btcd's encoding %x", msg.Header.BlockHash(), ours, buf.Bytes())
	}
	return buf.Bytes()
}

// walletElements returns what the wallet's filter holds for it: the element
// of each address and the outpoint of each output that paid it.
func walletElements(w *livenode.Wallet) map[string]bool {
	elems := map[string]bool{}
	for _, a := range w.Addresses() {
		e, err := AddressElement(a.Address)
		if err != nil {
			panic(err)
		}
		elems[string(e)] = true
	}
	for _, tx := range w.Txs() {
		for i, a := range tx.Pays {
			if a != nil {
				op := outPointBytes(wire.OutPoint{Hash: tx.ID, Index: uint32(i)})
				elems[string(op[:])] = true
			}
		}
	}
	return elems
}

// contained is the element of a transaction by which a filter matches it.
type contained struct {
	where string         // "txid", "output 1 push", "input 0 outpoint", ...
	elem  []byte         // nil if the filter contains none
	prev  *wire.OutPoint // the outpoint, for an input outpoint
}

// firstContained returns the first element of tx that f contains, in the
// order of Core's IsRelevantAndUpdate.
func firstContained(f *Filter, tx *wire.MsgTx, txid chainhash.Hash) contained {
	if f.Contains(txid[:]) {
		return contained{where: "txid", elem: txid[:]}
	}
	for i, out := range tx.TxOut {
		if d := containedPush(f, out.PkScript); d != nil {
			return contained{where: fmt.Sprintf("output %d push", i), elem: d}
		}
	}
	for i, in := range tx.TxIn {
		if op := outPointBytes(in.PreviousOutPoint); f.Contains(op[:]) {
			return contained{where: fmt.Sprintf("input %d outpoint", i), elem: op[:], prev: &in.PreviousOutPoint}
		}
		if d := containedPush(f, in.SignatureScript); d != nil {
			return contained{where: fmt.Sprintf("input %d signature script push", i), elem: d}
		}
	}
	return contained{}
}

// containedPush returns the first non-empty push of script that f contains.
func containedPush(f *Filter, script []byte) []byte {
	for len(script) > 0 {
		_, data, rest, ok := nextOp(script)
		if !ok {
			return nil
		}
		if len(data) > 0 && f.Contains(data) {
			return data
		}
		script = rest
	}
	return nil
}

// kind names how a wallet transaction matched.
func (c contained) kind(wallet map[string]bool, birth map[wire.OutPoint]bool) string {
	switch {
	case c.prev != nil && birth[*c.prev]:
		return "an outpoint held at birth"
	case c.prev != nil && wallet[string(c.elem)]:
		return "an outpoint UpdateAll inserted"
	case c.prev == nil && wallet[string(c.elem)]:
		return "an address element"
	}
	return c.where + " (not the wallet's)"
}

// describe says how a false positive matched.
func (c contained) describe(proven map[chainhash.Hash]bool, w *livenode.Wallet) string {
	switch {
	case c.elem == nil:
		return "no element the filter contains"
	case c.where == "txid":
		return "its txid (a Bloom collision)"
	case c.prev != nil && proven[c.prev.Hash] && w.Tx(c.prev.Hash) == nil:
		return fmt.Sprintf("%s %v, which spends a false positive", c.where, *c.prev)
	case c.prev != nil:
		return fmt.Sprintf("%s %v (a Bloom collision)", c.where, *c.prev)
	}
	return fmt.Sprintf("%s %x (a Bloom collision)", c.where, c.elem)
}
