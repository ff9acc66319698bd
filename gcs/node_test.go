package gcs

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
	"github.com/chainsieve/chainsieve/testvectors/livenode"
)

// Integration tests against real nodes (docs/integration.md): the basic
// filters of a regtest chain with real spends, built here, must equal the
// node's over RPC and P2P, and a wallet's Query over them must find exactly
// its blocks. They are skipped under -short.

type startFunc func(t testing.TB, mining address.Address, args ...string) *livenode.Node

func TestNodeBtcd(t *testing.T) {
	t.Parallel()
	testNode(t, livenode.StartBtcd)
}

// TestNodeLitecoind compares with Litecoin Core, a Bitcoin Core code base
// (getblockfilter, and BIP157 over P2P).
func TestNodeLitecoind(t *testing.T) {
	t.Parallel()
	testNode(t, livenode.StartLitecoind)
}

const (
	// nodeTimeout bounds a whole node test once the node runs.
	nodeTimeout = 2 * time.Minute
	// messageTimeout bounds each wait for a P2P message.
	messageTimeout = 10 * time.Second
	// cfheadersSplit is where the filter headers are fetched in two runs,
	// so that the second must chain from our header at this height.
	cfheadersSplit = 100
)

// testNode mines [traffic] and checks, for every block from genesis:
//
//   - BuildBasic and the filter header chained from it equal the node's
//     (getcfilter and getcfilterheader, or getblockfilter);
//   - the filter headers the node sends with getcfheaders (two runs, the
//     second from height cfheadersSplit+1) chain from our header before
//     the run and agree with ours at every height (CFHeaders,
//     VerifyHeaders with our headers as checkpoints);
//   - every cfilter from getcfilters passes FromCFilter with the filter
//     hash its verified cfheaders committed to, and equals ours;
//   - a Query of the wallet's scripts over those filters finds every block
//     with a wallet transaction, and in it every script the transaction
//     pays or spends; every other script or block it matches is a false
//     positive whose hashed value collides with one of the block's real
//     elements.
func testNode(t *testing.T, start startFunc) {
	w := livenode.NewWallet("gcs node test", regtest)
	others := livenode.NewWallet("gcs node test: others", regtest)
	n := start(t, others.NewAddress(livenode.P2PKH).Address)
	ctx, cancel := context.WithTimeout(t.Context(), nodeTimeout)
	defer cancel()
	began := time.Now()
	traffic(ctx, t, n, w, others)
	blocks, spent := chainBlocks(ctx, t, n)
	filters, headers := ourFilters(t, blocks, spent)
	compareRPC(ctx, t, n, blocks, filters, headers)

	p := livenode.ConnectPeer(t, n.P2PAddr)
	tip := uint32(len(blocks) - 1)
	split, stop := blocks[cfheadersSplit].BlockHash(), blocks[tip].BlockHash()
	hashes := cfHeaders(ctx, t, p, 0, split, headers)
	hashes = append(hashes, cfHeaders(ctx, t, p, cfheadersSplit+1, stop, headers)...)
	fetched := cfFilters(ctx, t, p, blocks, hashes, filters)

	q := checkQuery(t, w, blocks, spent, fetched)
	var elements int
	for _, f := range filters {
		elements += f.Len()
	}
	t.Logf("%s: %d blocks, %d filter elements: filters and headers equal over RPC, %d headers verified over P2P, %d cfilters verified",
		n.Name, len(blocks), elements, len(hashes), len(fetched))
	t.Logf("%s: Query of %d wallet scripts matched %d blocks: %d of %d with wallet transactions (%d only spending from it), "+
		"%d false-positive blocks, %d false-positive scripts",
		n.Name, len(w.Addresses()), q.matched, q.walletFound, q.walletBlocks, q.spendsOnly, q.falseBlocks, q.falseScripts)
	if q.spendsOnly == 0 {
		t.Errorf("no block only spends from the wallet: the spent scripts are not tested")
	}
	t.Logf("%s: mining and checks took %v", n.Name, time.Since(began).Round(time.Millisecond))
}

// ourFilters builds every block's basic filter and chains the headers from
// the zero hash before genesis.
func ourFilters(t *testing.T, blocks []*wire.MsgBlock, spent [][][]byte) ([]Filter, []chainhash.Hash) {
	t.Helper()
	var b Builder
	filters := make([]Filter, len(blocks))
	headers := make([]chainhash.Hash, len(blocks))
	var prev chainhash.Hash
	for h, block := range blocks {
		f, err := b.BuildBasic(block, spent[h])
		if err != nil {
			t.Fatal(err)
		}
		filters[h] = f
		headers[h] = f.Header(prev)
		prev = headers[h]
	}
	return filters, headers
}

// compareRPC compares our filters and headers with the node's.
func compareRPC(ctx context.Context, t *testing.T, n *livenode.Node, blocks []*wire.MsgBlock, filters []Filter, headers []chainhash.Hash) {
	t.Helper()
	for h, b := range blocks {
		raw, header, err := n.BasicFilter(ctx, b.BlockHash())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(filters[h].Bytes(), raw) {
			t.Errorf("BuildBasic(block %d) = %x, want the node's %x", h, filters[h].Bytes(), raw)
		}
		if headers[h] != header {
			t.Errorf("filter header of block %d = %v, want the node's %v", h, headers[h], header)
		}
	}
}

// cfHeaders fetches the filter headers from height start to the block stop
// with getcfheaders and verifies them against ours. It returns the filter
// hashes they commit to.
func cfHeaders(ctx context.Context, t *testing.T, p *livenode.Peer, start uint32, stop chainhash.Hash, ours []chainhash.Hash) []chainhash.Hash {
	t.Helper()
	if err := p.Send(ctx, wire.NewMsgGetCFHeaders(wire.GCSFilterRegular, start, &stop)); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, messageTimeout)
	defer cancel()
	msg, err := livenode.Await[*wire.MsgCFHeaders](rctx, p)
	if err != nil {
		t.Fatalf("getcfheaders from %d: %v", start, err)
	}
	var prev chainhash.Hash // before genesis
	if start > 0 {
		prev = ours[start-1]
	}
	if msg.StopHash != stop || msg.PrevFilterHeader != prev {
		t.Fatalf("cfheaders from %d: stop %v after %v, want %v after our %v", start, msg.StopHash, msg.PrevFilterHeader, stop, prev)
	}
	run, err := CFHeaders(nil, msg)
	if err != nil {
		t.Fatal(err)
	}
	checkpoints := make([]Checkpoint, len(ours))
	for h, header := range ours {
		checkpoints[h] = Checkpoint{Height: uint32(h), Header: header}
	}
	checked, err := VerifyHeaders(start, run, checkpoints...)
	if err != nil || checked != len(run) {
		t.Fatalf("VerifyHeaders(%d, %d headers from cfheaders) = %d, %v, want all verified", start, len(run), checked, err)
	}
	hashes := make([]chainhash.Hash, len(msg.FilterHashes))
	for i, h := range msg.FilterHashes {
		hashes[i] = *h // CFHeaders rejected nil
	}
	return hashes
}

// cfFilters fetches every block's filter with getcfilters and decodes each
// with FromCFilter against the filter hash of the verified cfheaders.
func cfFilters(ctx context.Context, t *testing.T, p *livenode.Peer, blocks []*wire.MsgBlock, hashes []chainhash.Hash, ours []Filter) []Filter {
	t.Helper()
	if len(hashes) != len(blocks) {
		t.Fatalf("cfheaders gave %d filter hashes for %d blocks", len(hashes), len(blocks))
	}
	stop := blocks[len(blocks)-1].BlockHash()
	if err := p.Send(ctx, wire.NewMsgGetCFilters(wire.GCSFilterRegular, 0, &stop)); err != nil {
		t.Fatal(err)
	}
	var got []Filter
	for len(got) < len(blocks) {
		h := len(got)
		rctx, cancel := context.WithTimeout(ctx, messageTimeout)
		msg, err := livenode.Await[*wire.MsgCFilter](rctx, p)
		cancel()
		if err != nil {
			t.Fatalf("cfilter %d of %d: %v", h, len(blocks), err)
		}
		if want := blocks[h].BlockHash(); msg.BlockHash != want {
			t.Fatalf("cfilter %d is for block %v, want %v", h, msg.BlockHash, want)
		}
		f, err := FromCFilter(msg, hashes[h])
		if err != nil {
			t.Fatalf("FromCFilter(cfilter of block %d) = %v", h, err)
		}
		if !bytes.Equal(f.Bytes(), ours[h].Bytes()) {
			t.Errorf("cfilter of block %d = %x, want %x", h, f.Bytes(), ours[h].Bytes())
		}
		got = append(got, f)
	}
	return got
}

// query is what checkQuery counted.
type query struct {
	matched                   int // blocks the Query matched
	walletBlocks, walletFound int // blocks with wallet transactions; matched
	spendsOnly                int // matched wallet blocks that only spend from it
	falseBlocks, falseScripts int // false positives
}

// checkQuery runs a Query of the wallet's scripts over filters and checks
// each block's matches against the block's real contents.
func checkQuery(t *testing.T, w *livenode.Wallet, blocks []*wire.MsgBlock, spent [][][]byte, filters []Filter) query {
	t.Helper()
	var scripts [][]byte
	index := map[string]int{}
	for i, a := range w.Addresses() {
		scripts = append(scripts, a.Script)
		index[string(a.Script)] = i
	}
	involved := make([][]int, len(blocks)) // wallet scripts each block pays or spends
	paid := make([]bool, len(blocks))      // whether a block pays the wallet
	for _, tx := range w.Txs() {
		for _, a := range slices.Concat(tx.Pays, tx.Spends) {
			if a != nil {
				involved[tx.Height] = append(involved[tx.Height], index[string(a.Script)])
			}
		}
		paid[tx.Height] = paid[tx.Height] || slices.ContainsFunc(tx.Pays, func(a *livenode.Addr) bool { return a != nil })
	}
	var r query
	q := NewQuery(scripts)
	var got []int
	for h := range filters {
		f := &filters[h]
		got = q.Matches(got[:0], f)
		if any := q.MatchAny(f); any != (len(got) > 0) {
			t.Errorf("block %d: Query.MatchAny = %v, but Query.Matches = %v", h, any, got)
		}
		if len(got) > 0 {
			r.matched++
		}
		if len(involved[h]) > 0 {
			r.walletBlocks++
		}
		want := slices.Compact(slices.Sorted(slices.Values(involved[h])))
		for _, i := range want {
			if !slices.Contains(got, i) {
				t.Errorf("block %d: Query.Matches = %v, missing wallet script %d (%x)", h, got, i, scripts[i])
			}
		}
		if len(want) > 0 && len(got) > 0 {
			r.walletFound++
			if !paid[h] {
				r.spendsOnly++
			}
		}
		extra := 0
		for _, i := range got {
			if slices.Contains(want, i) {
				continue
			}
			extra++
			if why := collision(blocks[h], spent[h], f, scripts[i]); why != "" {
				t.Logf("block %d: false positive for wallet script %x: %s", h, scripts[i], why)
			} else {
				t.Errorf("block %d: Query.Matches reports wallet script %x, which no element of the block explains", h, scripts[i])
			}
		}
		r.falseScripts += extra
		if extra > 0 && len(want) == 0 {
			r.falseBlocks++
		}
	}
	return r
}

// collision explains why a filter matches script although no wallet
// transaction of block pays or spends it: the script is none of the block's
// basic filter elements, but its hashed value equals one's. It returns ""
// if there is no such element, or if the script is one of the elements (the
// wallet missed a transaction).
func collision(block *wire.MsgBlock, spent [][]byte, f *Filter, script []byte) string {
	var elements [][]byte
	for _, tx := range block.Transactions {
		for _, out := range tx.TxOut {
			if len(out.PkScript) > 0 && out.PkScript[0] != opReturn {
				elements = append(elements, out.PkScript)
			}
		}
	}
	elements = append(elements, spent...)
	if slices.ContainsFunc(elements, func(e []byte) bool { return bytes.Equal(e, script) }) {
		return ""
	}
	key, F := f.Key(), f.F()
	v := key.HashToRange(script, F)
	for _, e := range elements {
		if len(e) > 0 && key.HashToRange(e, F) == v {
			return fmt.Sprintf("hashes to %d like the element %x", v, e)
		}
	}
	return ""
}
