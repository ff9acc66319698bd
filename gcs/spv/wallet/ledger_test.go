package wallet

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Scripts of the test wallet (A, B, C) and of someone else (X).
var (
	scriptA = []byte{0x00, 0x14, 0xaa}
	scriptB = []byte{0x00, 0x14, 0xbb}
	scriptC = []byte{0x00, 0x14, 0xcc}
	scriptX = []byte{0x00, 0x14, 0xee}
)

func owns(s []byte) bool {
	return string(s) == string(scriptA) || string(s) == string(scriptB) || string(s) == string(scriptC)
}

type out struct {
	value  int64
	script []byte
}

func pay(from []wire.OutPoint, outs ...out) *wire.MsgTx {
	tx := wire.NewMsgTx(2)
	for _, op := range from {
		tx.AddTxIn(wire.NewTxIn(&op, nil, nil))
	}
	for _, o := range outs {
		tx.AddTxOut(wire.NewTxOut(o.value, o.script))
	}
	return tx
}

func coinbase(height int32, outs ...out) *wire.MsgTx {
	tx := pay([]wire.OutPoint{{Index: wire.MaxPrevOutIndex}}, outs...)
	tx.TxIn[0].SignatureScript = []byte{4, byte(height), byte(height >> 8), 0, 0}
	return tx
}

func op(tx *wire.MsgTx, i uint32) wire.OutPoint { return wire.OutPoint{Hash: tx.TxHash(), Index: i} }

// block returns block height of branch br ('a', 'b'), its hash made up.
func block(height int32, br byte) Block {
	return Block{Height: height, Hash: chainhash.DoubleHashH([]byte{br, byte(height), byte(height >> 8)})}
}

var (
	// recv pays A 5000 from a coin of someone else.
	recv = pay([]wire.OutPoint{{Hash: chainhash.Hash{1}}}, out{5000, scriptA})
	// spend pays X 3000 from recv, change 1900 to B.
	spend = pay([]wire.OutPoint{op(recv, 0)}, out{3000, scriptX}, out{1900, scriptB})
	// spendAlt double spends recv's coin to X alone.
	spendAlt = pay([]wire.OutPoint{op(recv, 0)}, out{4900, scriptX})
	// child spends spend's change to C.
	child = pay([]wire.OutPoint{op(spend, 1)}, out{1800, scriptC})
	// cb is a coinbase paying C 50 BTC.
	cb = coinbase(1, out{50_0000_0000, scriptC})
	// stranger neither pays nor spends the wallet.
	stranger = pay([]wire.OutPoint{{Hash: chainhash.Hash{2}}}, out{7, scriptX})
)

var names = map[chainhash.Hash]string{recv.TxHash(): "recv", spend.TxHash(): "spend",
	spendAlt.TxHash(): "spendAlt", child.TxHash(): "child", cb.TxHash(): "cb", stranger.TxHash(): "stranger"}

// step is one operation on the ledger and what must hold after it.
type step struct {
	do      string // connect, disconnect, send, remove
	b       Block
	txs     []*wire.MsgTx
	update  string // summary of the Update: +added ^confirmed ~unconfirmed -removed
	err     string // substring of the expected error
	minConf int32
	balance Balance
	unspent string // "recv:0 spend:1*": * marks a coin an unconfirmed tx spends
}

func summary(up Update) string {
	var parts []string
	list := func(what string, ids []chainhash.Hash) {
		for _, id := range ids {
			parts = append(parts, what+names[id])
		}
	}
	for _, tx := range up.Added {
		parts = append(parts, "+"+names[tx.ID])
	}
	list("^", up.Confirmed)
	list("~", up.Unconfirmed)
	list("-", up.Removed)
	return strings.Join(parts, " ")
}

func coins(l *Ledger) string {
	var parts []string
	for _, c := range l.Unspent() {
		s := fmt.Sprintf("%s:%d", names[c.OutPoint.Hash], c.OutPoint.Index)
		if c.Spent() {
			s += "*"
		}
		parts = append(parts, s)
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func TestLedger(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
	}{
		{"receive then spend", []step{
			{do: "connect", b: block(101, 'a'), txs: []*wire.MsgTx{stranger, recv}, update: "+recv",
				balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(102, 'a'), update: "", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(103, 'a'), txs: []*wire.MsgTx{spend}, update: "+spend",
				balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(104, 'a'), minConf: 3, balance: Balance{Shallow: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(105, 'a'), minConf: 3, balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
		}},
		{"reorg removes a spend", []step{
			{do: "connect", b: block(101, 'a'), txs: []*wire.MsgTx{recv}, update: "+recv", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{spend}, update: "+spend", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(103, 'a'), balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "disconnect", b: block(103, 'a'), update: "", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			// The spend leaves the chain: the coin it spent counts as
			// confirmed again, the spend and its change are pending.
			{do: "disconnect", b: block(102, 'a'), update: "~spend",
				balance: Balance{Confirmed: 5000, Outgoing: 5000, Incoming: 1900}, unspent: "recv:0* spend:1"},
			{do: "connect", b: block(102, 'b'), update: "", balance: Balance{Confirmed: 5000, Outgoing: 5000, Incoming: 1900}, unspent: "recv:0* spend:1"},
			{do: "connect", b: block(103, 'b'), update: "", balance: Balance{Confirmed: 5000, Outgoing: 5000, Incoming: 1900}, unspent: "recv:0* spend:1"},
			{do: "remove", txs: []*wire.MsgTx{spend}, update: "-spend", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
		}},
		{"reorg removes a receive, the new branch confirms it again", []step{
			{do: "connect", b: block(101, 'a')},
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{recv}, update: "+recv", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "disconnect", b: block(102, 'a'), update: "~recv", balance: Balance{Incoming: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(102, 'b'), update: "", balance: Balance{Incoming: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(103, 'b'), txs: []*wire.MsgTx{recv}, update: "^recv", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "connect", b: block(104, 'b'), minConf: 3, balance: Balance{Shallow: 5000}, unspent: "recv:0"},
		}},
		{"reorg removes a receive for good", []step{
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{recv}, update: "+recv", balance: Balance{Confirmed: 5000}, unspent: "recv:0"},
			{do: "disconnect", b: block(102, 'a'), update: "~recv", balance: Balance{Incoming: 5000}, unspent: "recv:0"},
			{do: "remove", txs: []*wire.MsgTx{recv}, update: "-recv", balance: Balance{}, unspent: ""},
		}},
		{"a double spend on the new branch drops the old spend and its child", []step{
			{do: "connect", b: block(101, 'a'), txs: []*wire.MsgTx{recv}},
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{spend}},
			{do: "send", txs: []*wire.MsgTx{child}, update: "+child",
				balance: Balance{Confirmed: 1900, Outgoing: 1900, Incoming: 1800}, unspent: "child:0 spend:1*"},
			{do: "disconnect", b: block(102, 'a'), update: "~spend",
				balance: Balance{Confirmed: 5000, Outgoing: 5000, Incoming: 1800}, unspent: "child:0 recv:0* spend:1*"},
			{do: "connect", b: block(102, 'b'), txs: []*wire.MsgTx{spendAlt}, update: "+spendAlt -child -spend", balance: Balance{}, unspent: ""},
		}},
		{"a sent transaction replaces an unconfirmed one and confirms", []step{
			{do: "connect", b: block(101, 'a'), txs: []*wire.MsgTx{recv}},
			{do: "send", txs: []*wire.MsgTx{spend}, update: "+spend", balance: Balance{Confirmed: 5000, Outgoing: 5000, Incoming: 1900}, unspent: "recv:0* spend:1"},
			{do: "send", txs: []*wire.MsgTx{spendAlt}, update: "+spendAlt -spend", balance: Balance{Confirmed: 5000, Outgoing: 5000}, unspent: "recv:0*"},
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{spendAlt}, update: "^spendAlt", balance: Balance{}, unspent: ""},
			{do: "send", txs: []*wire.MsgTx{spend}, err: "spends already"},
			{do: "send", txs: []*wire.MsgTx{stranger}, err: "neither pays nor spends"},
		}},
		{"coinbase maturity", []step{
			{do: "connect", b: block(1, 'a'), txs: []*wire.MsgTx{cb}, update: "+cb", balance: Balance{Immature: 50_0000_0000}, unspent: "cb:0"},
			{do: "connect", b: block(99, 'a'), balance: Balance{Immature: 50_0000_0000}, unspent: "cb:0"},
			{do: "connect", b: block(100, 'a'), balance: Balance{Confirmed: 50_0000_0000}, unspent: "cb:0"},
		}},
		{"a rescan connects an earlier receive after its spend", []step{
			{do: "connect", b: block(110, 'a'), txs: []*wire.MsgTx{spend}, update: "+spend", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(105, 'a'), txs: []*wire.MsgTx{recv}, update: "+recv", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(110, 'a'), txs: []*wire.MsgTx{spend}, update: "", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
		}},
		{"inconsistent feeding is refused", []step{
			{do: "connect", b: block(101, 'a'), txs: []*wire.MsgTx{recv}},
			{do: "connect", b: block(101, 'b'), err: "disconnect it first"},
			{do: "connect", b: block(102, 'a'), txs: []*wire.MsgTx{recv}, err: "in block 101 already"},
			{do: "disconnect", b: block(101, 'b'), err: "not"},
			{do: "disconnect", b: block(103, 'a'), err: "the tip is 101"},
			{do: "connect", b: block(-1, 'a'), err: "height -1"},
			{do: "remove", txs: []*wire.MsgTx{recv}, err: "confirmed in block 101"},
			{do: "remove", txs: []*wire.MsgTx{spend}, err: "no transaction"},
			{do: "connect", b: block(103, 'a'), txs: []*wire.MsgTx{spend}, update: "+spend", balance: Balance{Confirmed: 1900}, unspent: "spend:1"},
			{do: "connect", b: block(104, 'a'), txs: []*wire.MsgTx{spendAlt}, err: "spends already"},
		}},
	}
	for _, tt := range tests {
		l := NewLedger(owns)
		for i, st := range tt.steps {
			up, err := apply(l, st)
			where := fmt.Sprintf("%s, step %d (%s %d)", tt.name, i, st.do, st.b.Height)
			if st.err != "" {
				if err == nil || !strings.Contains(err.Error(), st.err) {
					t.Errorf("%s: error %v, want one saying %q", where, err, st.err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if st.update == "" && st.unspent == "" && st.balance == (Balance{}) {
				continue // a step that only sets the scene
			}
			if st.update != "" && summary(up) != st.update || st.update == "" && st.unspent != "" && summary(up) != "" {
				t.Errorf("%s: update %q, want %q", where, summary(up), st.update)
			}
			if got := l.Balance(st.minConf); got != st.balance {
				t.Errorf("%s: Balance(%d) = %+v, want %+v", where, st.minConf, got, st.balance)
			}
			if got := coins(l); got != st.unspent {
				t.Errorf("%s: Unspent() = %q, want %q", where, got, st.unspent)
			}
		}
	}
}

func apply(l *Ledger, st step) (Update, error) {
	switch st.do {
	case "connect":
		return l.Connect(st.b, st.txs)
	case "disconnect":
		return l.Disconnect(st.b)
	case "send":
		return l.AddUnconfirmed(st.txs[0])
	case "remove":
		gone, err := l.Remove(st.txs[0].TxHash())
		return Update{Removed: gone}, err
	}
	panic("unknown step " + st.do)
}

// TestLedgerOwnershipGrows checks that outputs of held transactions count
// once the watch list grows to include their script.
func TestLedgerOwnershipGrows(t *testing.T) {
	mine := map[string]bool{string(scriptA): true}
	l := NewLedger(func(s []byte) bool { return mine[string(s)] })
	both := pay([]wire.OutPoint{{Hash: chainhash.Hash{3}}}, out{10, scriptA}, out{20, scriptB})
	if _, err := l.Connect(block(5, 'a'), []*wire.MsgTx{both}); err != nil {
		t.Fatal(err)
	}
	if b := l.Balance(1); b.Confirmed != 10 {
		t.Errorf("Balance = %+v, want 10 confirmed", b)
	}
	mine[string(scriptB)] = true
	if b := l.Balance(1); b.Confirmed != 30 {
		t.Errorf("after B joins the watch list, Balance = %+v, want 30 confirmed", b)
	}
	txs := l.Txs()
	if len(txs) != 1 || txs[0].Height != 5 || txs[0].Coinbase {
		t.Errorf("Txs() = %+v", txs)
	}
}
