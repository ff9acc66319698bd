package gcs

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/gcs/builder"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// chain builds n random basic filters, their btcd headers chained from zero,
// and the matching cfheaders and cfilter messages.
func chain(t *testing.T, r *rand.Rand, n int) ([]chainhash.Hash, *wire.MsgCFHeaders, []*wire.MsgCFilter) {
	t.Helper()
	msg := &wire.MsgCFHeaders{FilterType: wire.GCSFilterRegular}
	var headers []chainhash.Hash
	var filters []*wire.MsgCFilter
	var prev chainhash.Hash
	for range n {
		block, prevScripts := randomBlock(r)
		f, err := builder.BuildBasicFilter(block, prevScripts)
		if err != nil {
			t.Fatal(err)
		}
		hash, _ := builder.GetFilterHash(f)
		prev, _ = builder.MakeHeaderForFilter(f, prev)
		headers = append(headers, prev)
		msg.AddCFHash(&hash)
		msg.StopHash = block.BlockHash()
		filters = append(filters, wire.NewMsgCFilter(wire.GCSFilterRegular, ptr(block.BlockHash()), btcdBytes(t, f)))
	}
	return headers, msg, filters
}

func TestCFHeadersAgainstBtcd(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	want, msg, filters := chain(t, r, 50)
	got, err := CFHeaders(nil, msg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("CFHeaders()[%d] = %s, btcd %s", i, got[i], want[i])
		}
	}
	hashes := make([]chainhash.Hash, len(msg.FilterHashes))
	for i, h := range msg.FilterHashes {
		hashes[i] = *h
	}
	if again := AppendHeaders(nil, chainhash.Hash{}, hashes); again[len(again)-1] != want[len(want)-1] {
		t.Errorf("AppendHeaders last = %s, want %s", again[len(again)-1], want[len(want)-1])
	}
	for i, m := range filters {
		f, err := FromCFilter(m, *msg.FilterHashes[i])
		if err != nil {
			t.Fatal(err)
		}
		prev := chainhash.Hash{}
		if i > 0 {
			prev = want[i-1]
		}
		if f.Header(prev) != want[i] {
			t.Fatalf("filter %d: Header = %s, want %s", i, f.Header(prev), want[i])
		}
		next := (i + 1) % len(filters)
		if _, err := FromCFilter(m, *msg.FilterHashes[next]); err == nil && !bytes.Equal(m.Data, filters[next].Data) {
			t.Fatalf("FromCFilter accepted filter %d under another filter's hash", i)
		}
	}
}

func TestVerifyHeaders(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	headers, _, _ := chain(t, r, 10)
	const start = 1000
	good := []Checkpoint{{Height: 1000, Header: headers[0]}, {Height: 1009, Header: headers[9]}, {Height: 2000, Header: headers[3]}}
	if n, err := VerifyHeaders(start, headers, good...); n != 2 || err != nil {
		t.Errorf("VerifyHeaders(good) = %d, %v; want 2 checked, nil", n, err)
	}
	bad := Checkpoint{Height: 1005, Header: headers[4]}
	n, err := VerifyHeaders(start, headers, append(good, bad)...)
	if err == nil || n != 2 || !strings.Contains(err.Error(), "height 1005") {
		t.Errorf("VerifyHeaders(bad at 1005) = %d, %v; want an error naming height 1005", n, err)
	}
	if n, err := VerifyHeaders(start, headers, Checkpoint{Height: 999}); n != 0 || err != nil {
		t.Errorf("VerifyHeaders(checkpoint before the run) = %d, %v; want 0, nil", n, err)
	}
}

func TestMessagesRejected(t *testing.T) {
	other := wire.FilterType(1)
	if _, err := CFHeaders(nil, &wire.MsgCFHeaders{FilterType: other}); err == nil {
		t.Error("CFHeaders accepted filter type 1")
	}
	if _, err := CFHeaders(nil, &wire.MsgCFHeaders{FilterHashes: []*chainhash.Hash{nil}}); err == nil {
		t.Error("CFHeaders accepted a nil filter hash")
	}
	if _, err := FromCFilter(&wire.MsgCFilter{FilterType: other, Data: []byte{0}}, FilterHash([]byte{0})); err == nil {
		t.Error("FromCFilter accepted filter type 1")
	}
	if _, err := FromCFilter(&wire.MsgCFilter{Data: []byte{0}}, chainhash.Hash{}); err == nil {
		t.Error("FromCFilter accepted a filter whose hash differs")
	}
	cps, err := CFCheckpoints(&wire.MsgCFCheckpt{FilterHeaders: []*chainhash.Hash{{1}, {2}}})
	if err != nil || len(cps) != 2 || cps[0].Height != 1000 || cps[1].Height != 2000 || cps[1].Header != (chainhash.Hash{2}) {
		t.Errorf("CFCheckpoints = %v, %v; want headers at 1000 and 2000", cps, err)
	}
	if _, err := CFCheckpoints(&wire.MsgCFCheckpt{FilterType: other}); err == nil {
		t.Error("CFCheckpoints accepted filter type 1")
	}
}

// TestBasicKeyOrder uses the testnet genesis block of the BIP158 vectors:
// its display hash ends in …8d77f4943, so its key, the first 16 bytes in
// internal order, starts 43 49 7f d7.
func TestBasicKeyOrder(t *testing.T) {
	const display = "000000000933ea01ad0ee984209779baaec3ced90fa3f408719526f8d77f4943"
	h, err := chainhash.NewHashFromStr(display)
	if err != nil {
		t.Fatal(err)
	}
	key := BasicKey(*h)
	if got := string(hexKey(key)); got != "43497fd7f826957108f4a30fd9cec3ae" {
		t.Errorf("BasicKey(%s) = %s, want the first 16 internal-order bytes 43497fd7…", display, got)
	}
}

func hexKey(k Key) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(k))
	for _, b := range k {
		out = append(out, digits[b>>4], digits[b&15])
	}
	return out
}

func TestBasicElements(t *testing.T) {
	tx0 := wire.NewMsgTx(1) // coinbase
	tx0.AddTxIn(&wire.TxIn{})
	tx0.AddTxOut(wire.NewTxOut(1, []byte{0x51}))
	tx0.AddTxOut(wire.NewTxOut(1, []byte{opReturn, 1, 2}))
	tx0.AddTxOut(wire.NewTxOut(1, nil))
	tx1 := wire.NewMsgTx(1)
	tx1.AddTxIn(&wire.TxIn{Witness: wire.TxWitness{{9, 9}}})
	tx1.AddTxIn(&wire.TxIn{})
	tx1.AddTxOut(wire.NewTxOut(1, []byte{0x00, opReturn}))
	block := wire.NewMsgBlock(&wire.BlockHeader{})
	block.AddTransaction(tx0)
	block.AddTransaction(tx1)
	got, err := BasicElements(nil, block, [][]byte{{opReturn, 7}, nil})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"\x51", "\x00\x6a", "\x6a\x07"}
	if len(got) != len(want) {
		t.Fatalf("BasicElements = %x, want %x", got, want)
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("BasicElements[%d] = %x, want %x", i, got[i], want[i])
		}
	}
	if _, err := BasicElements(nil, block, [][]byte{{1}}); err == nil || !strings.Contains(err.Error(), "2 inputs after its coinbase, but 1") {
		t.Errorf("BasicElements(one script for two inputs) = %v, want a count error", err)
	}
}

func TestCheckBasic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 0))
	block, scripts := randomBlock(r)
	for len(scripts) == 0 {
		block, scripts = randomBlock(r)
	}
	built, err := BuildBasic(block, scripts)
	if err != nil {
		t.Fatal(err)
	}
	good := built.Bytes()
	if f, err := CheckBasic(block, scripts, good); err != nil || !bytes.Equal(f.Bytes(), good) {
		t.Fatalf("CheckBasic(the block's own filter) = %x, %v, want it back and no error", f.Bytes(), err)
	}
	flipped := append([]byte(nil), good...)
	flipped[2] ^= 1
	for _, tt := range []struct {
		want []byte
		at   string
	}{
		{flipped, "at byte 2"},
		{good[:len(good)-1], fmt.Sprintf("at byte %d", len(good)-1)},
		{append(append([]byte(nil), good...), 0), fmt.Sprintf("at byte %d", len(good))},
	} {
		f, err := CheckBasic(block, scripts, tt.want)
		if err == nil || !strings.Contains(err.Error(), tt.at) || !strings.Contains(err.Error(), block.BlockHash().String()) {
			t.Errorf("CheckBasic(a filter differing %s) = %v, want an error naming the block and the byte", tt.at, err)
		}
		if !bytes.Equal(f.Bytes(), good) {
			t.Errorf("CheckBasic(a filter differing %s) returned %x, want the built filter %x", tt.at, f.Bytes(), good)
		}
	}
	if _, err := CheckBasic(block, scripts[1:], good); err == nil {
		t.Errorf("CheckBasic(one spent script short) = nil error")
	}
}
