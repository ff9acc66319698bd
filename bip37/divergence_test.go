package bip37

import (
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2"
	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/wire/v2"
)

// Each test here pins one place where btcd's btcutil/bloom departs from
// Bitcoin Core and this package follows Core. docs/bip37.md lists them.

// Core computes the hash count as (unsigned)(vData.size()*8 / nElements *
// LN2): the division is between integers, so 32 bits for 7 elements is 4
// bits each, times ln 2 is 2.77, truncated to 2. btcd divides in floating
// point: 4.57·ln 2 = 3.17, so 3. Filters still interoperate (each carries
// its count), but btcd does not rebuild Core's bytes from Core's parameters.
func TestDivergenceHashFuncCount(t *testing.T) {
	ours, _ := New(7, 0.1, 0, UpdateNone)
	theirs := bloom.NewFilter(7, 0, 0.1, wire.BloomUpdateNone).MsgFilterLoad()
	if ours.Size() != 4 || len(theirs.Filter) != 4 || ours.HashFuncs() != 2 || theirs.HashFuncs != 3 {
		t.Errorf("New(7, 0.1) = %d bytes, %d functions, btcd %d bytes, %d functions, want 4, 2 and 4, 3",
			ours.Size(), ours.HashFuncs(), len(theirs.Filter), theirs.HashFuncs)
	}
}

// Core takes nFPRate as given. btcd clamps it to [1e-9, 1], so it can never
// derive more than 29 hash functions, and it turns rates outside (0, 1] into
// filters instead of errors.
func TestDivergenceFPRateClamp(t *testing.T) {
	ours, _ := New(1000, 1e-15, 0, UpdateNone)
	theirs := bloom.NewFilter(1000, 0, 1e-15, wire.BloomUpdateNone).MsgFilterLoad()
	if ours.Size() != 8985 || ours.HashFuncs() != 49 || len(theirs.Filter) != 5391 || theirs.HashFuncs != 29 {
		t.Errorf("New(1000, 1e-15) = %d bytes, %d functions, btcd %d, %d, want 8985, 49 and 5391, 29",
			ours.Size(), ours.HashFuncs(), len(theirs.Filter), theirs.HashFuncs)
	}
	for _, p := range []float64{0, -1, 2} {
		_, err := New(1000, p, 0, UpdateNone)
		theirs := bloom.NewFilter(1000, 0, p, wire.BloomUpdateNone).MsgFilterLoad()
		if err == nil {
			t.Errorf("New(1000, %v) = nil error, want one (btcd builds %d bytes)", p, len(theirs.Filter))
		}
	}
}

// Core: a filter without data matches every element and every transaction
// (the guard added for CVE-2013-5700, explicit since PR #18806); one with
// data but no hash functions contains every element, since no probe fails.
// btcd (PR #2397) makes both match nothing.
func TestDivergenceMatchAllFilters(t *testing.T) {
	tx := newTx(prevOut, nil, p2pkh)
	for _, c := range []struct {
		data []byte
		k    uint32
	}{{nil, 0}, {nil, 10}, {[]byte{0xff, 0x00}, 0}} {
		ours, _ := Load(c.data, c.k, 0, UpdateAll)
		theirs := bloom.LoadFilter(wire.NewMsgFilterLoad(c.data, c.k, 0, wire.BloomUpdateAll))
		if !ours.Contains([]byte("x")) || !ours.MatchTx(tx, tx.TxHash()) {
			t.Errorf("%d bytes, %d functions: Contains or MatchTx = false, want true", len(c.data), c.k)
		}
		if theirs.Matches([]byte("x")) || theirs.MatchTxAndUpdate(btcutil.NewTx(tx)) {
			t.Errorf("%d bytes, %d functions: btcd matched; this divergence has closed", len(c.data), c.k)
		}
	}
}

// Core tests only pushes with data (data.size() != 0). btcd's PushedData
// yields an empty element for OP_0, so once the filter contains the empty
// string (a filteradd of nothing, or a false positive) btcd matches every
// segwit v0 output and Core matches none of them.
func TestDivergenceEmptyPush(t *testing.T) {
	tx := newTx(prevOut, nil, p2wpkh)
	ours, _ := New(10, 1e-6, 0, UpdateAll)
	theirs := bloom.NewFilter(10, 0, 1e-6, wire.BloomUpdateAll)
	ours.Add(nil)
	theirs.Add(nil)
	if ours.MatchTx(tx, tx.TxHash()) || !theirs.MatchTxAndUpdate(btcutil.NewTx(tx)) {
		t.Errorf("P2WPKH output with \"\" in the filter: MatchTx = true or btcd false, want false and true")
	}
}

// Core reads a script with GetOp until the first malformed operation, having
// tested the pushes before it. btcd's PushedData fails for the whole script,
// so a push before a truncated PUSHDATA1 matches in Core and not in btcd.
func TestDivergenceParseError(t *testing.T) {
	sig := []byte{0x03, 's', 'i', 'g', 0x4c}
	tx := newTx(prevOut, sig, p2pkh)
	ours, _ := New(10, 1e-6, 0, UpdateNone)
	theirs := bloom.NewFilter(10, 0, 1e-6, wire.BloomUpdateNone)
	ours.Add([]byte("sig"))
	theirs.Add([]byte("sig"))
	if !ours.MatchTx(tx, tx.TxHash()) || theirs.MatchTxAndUpdate(btcutil.NewTx(tx)) {
		t.Errorf("push before a truncated PUSHDATA1: MatchTx = false or btcd true, want true and false")
	}
}

// Core compares nFlags & BLOOM_UPDATE_MASK (3), ignoring the reserved bits.
// btcd switches on the whole byte, so flags 5 (reserved bit 2 plus
// UPDATE_ALL) update the filter in Core and not in btcd.
func TestDivergenceUnmaskedFlags(t *testing.T) {
	tx := newTx(prevOut, nil, p2pkh)
	op := wire.OutPoint{Hash: tx.TxHash(), Index: 0}
	ours, _ := New(10, 1e-6, 0, 5)
	theirs := bloom.NewFilter(10, 0, 1e-6, 5)
	ours.Add(hash160)
	theirs.Add(hash160)
	ours.MatchTx(tx, tx.TxHash())
	theirs.MatchTxAndUpdate(btcutil.NewTx(tx))
	if !ours.ContainsOutPoint(op) || theirs.MatchesOutPoint(&op) {
		t.Errorf("flags 5: outpoint inserted %v, btcd %v, want true and false", ours.ContainsOutPoint(op), theirs.MatchesOutPoint(&op))
	}
}

// Under UPDATE_P2PUBKEY_ONLY, Core asks its Solver whether the output is
// PUBKEY or MULTISIG. Its multisig template stops reading keys at the first
// push that is not a key of valid size and takes that push as n; btcd counts
// every push as a key. Current Core also accepts n from 17 to 20 as a
// one-byte push, where btcd wants OP_1…OP_16.
func TestDivergenceMultisigTemplate(t *testing.T) {
	badKey := append([]byte{0x05}, pubKey[1:]...)
	tests := []struct {
		name   string
		script []byte
		insert []byte
		core   bool
	}{
		{"a 33-byte push with header 05 as a key", append(append([]byte{0x51, 0x21}, badKey...), 0x51, 0xae), badKey, false},
		{"17 keys with n pushed as 0x11", append(append([]byte{0x51}, repeat(append([]byte{0x21}, pubKey...), 17)...), 0x01, 0x11, 0xae), pubKey, true},
	}
	for _, tt := range tests {
		tx := newTx(prevOut, nil, tt.script)
		op := wire.OutPoint{Hash: tx.TxHash(), Index: 0}
		ours, _ := New(10, 1e-6, 0, UpdateP2PubKeyOnly)
		theirs := bloom.NewFilter(10, 0, 1e-6, wire.BloomUpdateP2PubkeyOnly)
		ours.Add(tt.insert)
		theirs.Add(tt.insert)
		ours.MatchTx(tx, tx.TxHash())
		theirs.MatchTxAndUpdate(btcutil.NewTx(tx))
		if ours.ContainsOutPoint(op) != tt.core || theirs.MatchesOutPoint(&op) == tt.core {
			t.Errorf("%s: outpoint inserted %v, btcd %v, want %v and %v", tt.name,
				ours.ContainsOutPoint(op), theirs.MatchesOutPoint(&op), tt.core, !tt.core)
		}
	}
}

func repeat(b []byte, n int) []byte { return []byte(strings.Repeat(string(b), n)) }
