package bip37

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/txscript/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Differential tests against btcd's btcutil/bloom, the Go reference, with
// the documented divergences (divergence_test.go) told apart.

// divergence names the documented divergence that matching tx against f
// may hit, or returns "" when Core's rules and btcd's must agree.
func divergence(f *Filter, tx *wire.MsgTx) string {
	if f.MatchesAll() {
		return "filter that matches everything"
	}
	if f.flags&^UpdateMask != 0 {
		return "reserved flag bits"
	}
	empty := f.Contains(nil)
	scripts := make([][]byte, 0, len(tx.TxIn)+len(tx.TxOut))
	for _, in := range tx.TxIn {
		scripts = append(scripts, in.SignatureScript)
	}
	for _, out := range tx.TxOut {
		scripts = append(scripts, out.PkScript)
		if f.flags&UpdateMask == UpdateP2PubKeyOnly && coreKeyTemplate(out.PkScript) != btcdKeyTemplate(out.PkScript) {
			return "multisig template"
		}
	}
	for _, s := range scripts {
		parses, hasEmpty := scanScript(s)
		if !parses {
			return "parse error"
		}
		if empty && hasEmpty {
			return "empty push"
		}
	}
	return ""
}

// scanScript reports whether script parses to its end and whether it has an
// empty push.
func scanScript(s []byte) (parses, empty bool) {
	for len(s) > 0 {
		op, data, rest, ok := nextOp(s)
		if !ok {
			return false, empty
		}
		empty = empty || (op <= opPushData4 && len(data) == 0)
		s = rest
	}
	return true, empty
}

func coreKeyTemplate(s []byte) bool { return isPayToPubKey(s) || isMultisig(s) }

func btcdKeyTemplate(s []byte) bool {
	c := txscript.GetScriptClass(s)
	return c == txscript.PubKeyTy || c == txscript.MultiSigTy
}

// compareMatching runs the transactions through both filters in order,
// comparing each decision and the filter bytes after it, until a
// transaction hits a documented divergence. It returns how many it compared
// and how many of those matched.
func compareMatching(t testing.TB, ours *Filter, theirs *bloom.Filter, txs []*wire.MsgTx) (compared, matched int) {
	t.Helper()
	for i, tx := range txs {
		if divergence(ours, tx) != "" {
			return i, matched
		}
		txid := tx.TxHash()
		got, want := ours.MatchTx(tx, txid), theirs.MatchTxAndUpdate(btcutil.NewTx(tx))
		if got != want {
			t.Fatalf("tx %d (%s): MatchTx = %v, btcd %v", i, txid, got, want)
		}
		if got {
			matched++
		}
		ob, _ := ours.MarshalBinary()
		if tb := wireFilterLoad(t, theirs.MsgFilterLoad()); !bytes.Equal(ob, tb) {
			t.Fatalf("tx %d: filter after MatchTx = %x, btcd %x", i, ob, tb)
		}
	}
	return len(txs), matched
}

// randomScript returns a standard output or input script, or once in 50
// random bytes.
func randomScript(r *rand.Rand, keys [][]byte) []byte {
	key := keys[r.IntN(len(keys))]
	h := key[:20]
	if r.IntN(50) == 0 {
		return randomBytes(r, r.IntN(40))
	}
	switch r.IntN(8) {
	case 0:
		return append(append([]byte{0x76, 0xa9, 0x14}, h...), 0x88, 0xac)
	case 1:
		return append(append([]byte{0xa9, 0x14}, h...), 0x87)
	case 2:
		return append([]byte{0x00, 0x14}, h...)
	case 3:
		return append([]byte{0x51, 0x20}, key[:32]...)
	case 4:
		return append(append([]byte{0x21}, key...), 0xac)
	case 5:
		other := keys[r.IntN(len(keys))]
		return append(append(append([]byte{0x51, 0x21}, key...), append([]byte{0x21}, other...)...), 0x52, 0xae)
	case 6: // a scriptSig: signature and key
		return append(append([]byte{0x47}, randomBytes(r, 0x47)...), append([]byte{0x21}, key...)...)
	}
	return append([]byte{0x6a, 0x08}, randomBytes(r, 8)...)
}

func randomKeys(r *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		keys[i] = append([]byte{2 + byte(r.IntN(2))}, randomBytes(r, 32)...)
	}
	return keys
}

// randomTxs returns a chain of transactions whose scripts are randomScript's
// over keys, each spending an output of an earlier one or a random outpoint.
func randomTxs(r *rand.Rand, n int, keys [][]byte) []*wire.MsgTx {
	return randomTxChain(r, n, 4, func() []byte { return randomScript(r, keys) })
}

// randomTxChain returns n transactions with scripts from script, each input
// spending an output of an earlier one or a random outpoint (index below
// maxIndex).
func randomTxChain(r *rand.Rand, n int, maxIndex uint32, script func() []byte) []*wire.MsgTx {
	var txs []*wire.MsgTx
	for range n {
		tx := wire.NewMsgTx(2)
		for range 1 + r.IntN(3) {
			prev := wire.OutPoint{Hash: chainhash.Hash(randomBytes(r, 32)), Index: r.Uint32N(maxIndex)}
			if len(txs) > 0 && r.IntN(2) == 0 {
				p := txs[r.IntN(len(txs))]
				prev = wire.OutPoint{Hash: p.TxHash(), Index: r.Uint32N(uint32(len(p.TxOut)))}
			}
			tx.AddTxIn(wire.NewTxIn(&prev, script(), nil))
		}
		for range 1 + r.IntN(3) {
			tx.AddTxOut(wire.NewTxOut(1, script()))
		}
		txs = append(txs, tx)
	}
	return txs
}

// TestMatchTxMatchesBTCD runs chains of random transactions through filters
// holding some of their keys and hashes, under every update mode.
func TestMatchTxMatchesBTCD(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	compared, matched := 0, 0
	for round := range 300 {
		keys := randomKeys(r, 6)
		txs := randomTxs(r, 20, keys)
		flags := Flags(round % 4)
		ours, _ := New(20, 1e-6, r.Uint32(), flags)
		theirs := bloom.NewFilter(20, ours.Tweak(), 1e-6, wire.BloomUpdateType(flags))
		for _, k := range keys[:2] {
			for _, e := range [][]byte{k, k[:20], k[:32]} {
				ours.Add(e)
				theirs.Add(e)
			}
		}
		h := txs[r.IntN(len(txs))].TxHash()
		ours.AddHash(h)
		theirs.AddHash(&h)
		c, m := compareMatching(t, ours, theirs, txs)
		compared, matched = compared+c, matched+m
	}
	t.Logf("compared %d transactions, %d matching", compared, matched)
	if compared < 3000 || matched < 1000 {
		t.Errorf("compared %d transactions, %d matching, want at least 3000 and 1000", compared, matched)
	}
}
