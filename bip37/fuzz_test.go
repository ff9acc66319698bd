package bip37

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/btcsuite/btcd/btcutil/v2/bloom"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/testvectors"
)

// The fuzz targets compare with btcd where it implements the same thing.
// Their seed corpora run in every go test; fuzz each for longer with, e.g.,
//
//	go test -run '^$' -fuzz '^FuzzMerkleBlock$' -fuzztime 5m ./bip37

// FuzzFilterLoad decodes filterload payloads: whatever is accepted encodes
// back to the same bytes and is accepted by btcd with the same fields;
// whatever btcd accepts whole is accepted.
func FuzzFilterLoad(f *testing.F) {
	for _, v := range filterVectors(f) {
		f.Add([]byte(v.ExpectedFilterload))
	}
	f.Add([]byte{})
	f.Add(unhex(f, "fda18c"))
	f.Add(unhex(f, "0100330000000000000000"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ours Filter
		err := ours.UnmarshalBinary(b)
		var theirs wire.MsgFilterLoad
		r := bytes.NewReader(b)
		btcdOK := theirs.BtcDecode(r, wire.ProtocolVersion, wire.BaseEncoding) == nil && r.Len() == 0
		if err != nil {
			if btcdOK {
				t.Fatalf("UnmarshalBinary(%x) = %v; btcd decodes it", b, err)
			}
			return
		}
		if !btcdOK {
			t.Fatalf("UnmarshalBinary(%x) = nil; btcd rejects it", b)
		}
		if got := mustMarshal(t, &ours); !bytes.Equal(got, b) {
			t.Fatalf("MarshalBinary() = %x, decoded from %x", got, b)
		}
		if !bytes.Equal(wireFilterLoad(t, ours.MsgFilterLoad()), b) || theirs.HashFuncs != ours.HashFuncs() || theirs.Tweak != ours.Tweak() {
			t.Fatalf("fields differ from btcd's decoding of %x", b)
		}
	})
}

// FuzzMerkleBlock decodes merkleblock payloads and verifies them: no panic,
// accepted bytes encode back unchanged, btcd agrees on what decodes, and a
// verified block's matches are in strictly increasing block order.
func FuzzMerkleBlock(f *testing.F) {
	for _, b := range merkleVectorBlocks(f) {
		f.Add(b)
		f.Add(b[:len(b)-1])
	}
	f.Add(make([]byte, 80))
	f.Fuzz(func(t *testing.T, b []byte) {
		msg, err := DecodeMerkleBlock(b)
		var theirs wire.MsgMerkleBlock
		r := bytes.NewReader(b)
		btcdOK := theirs.BtcDecode(r, wire.ProtocolVersion, wire.BaseEncoding) == nil && r.Len() == 0
		if err != nil {
			if btcdOK {
				t.Fatalf("DecodeMerkleBlock(%x) = %v; btcd decodes it", b, err)
			}
			return
		}
		if !btcdOK && len(msg.Flags) <= 50000 {
			t.Fatalf("DecodeMerkleBlock(%x) = nil error; btcd rejects it", b)
		}
		if got := AppendMerkleBlock(nil, msg); !bytes.Equal(got, b) {
			t.Fatalf("AppendMerkleBlock() = %x, decoded from %x", got, b)
		}
		matches, err := VerifyMerkleBlock(msg)
		checkVerified(t, msg.Transactions, matches, err)
	})
}

// FuzzPartialTree decodes serialised partial merkle trees and extracts them.
func FuzzPartialTree(f *testing.F) {
	for _, b := range merkleVectorBlocks(f) {
		f.Add(b[headerSize:])
	}
	f.Add(unhex(f, "0100000001"+"00000000000000000000000000000000000000000000000000000000000000ff"+"0101"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var tree PartialTree
		if err := tree.UnmarshalBinary(b); err != nil {
			return
		}
		if got := mustMarshalTree(t, &tree); !bytes.Equal(got, b) {
			t.Fatalf("MarshalBinary() = %x, decoded from %x", got, b)
		}
		_, matches, err := tree.Extract()
		checkVerified(t, tree.Transactions, matches, err)
	})
}

func checkVerified(t *testing.T, n uint32, matches []Match, err error) {
	if err != nil {
		return
	}
	for i, m := range matches {
		if m.Index >= n || (i > 0 && m.Index <= matches[i-1].Index) {
			t.Fatalf("match %d at index %d of %d transactions, after %v", i, m.Index, n, matches[:i])
		}
	}
}

// FuzzContains loads the same bits into both libraries and compares
// membership and insertion (btcd's filters without bits or hash functions
// match nothing, a documented divergence).
func FuzzContains(f *testing.F) {
	f.Add([]byte{0x61, 0x4e, 0x9b}, uint8(5), uint32(0), []byte("abc"))
	f.Add(make([]byte, 35), uint8(19), uint32(2147483649), []byte{})
	f.Add(bytes.Repeat([]byte{0xff}, 600), uint8(50), uint32(7), bytes.Repeat([]byte{1}, 600))
	f.Fuzz(func(t *testing.T, data []byte, k uint8, tweak uint32, elem []byte) {
		data = data[:min(len(data), MaxFilterSize)]
		ours, err := Load(data, uint32(k%(MaxHashFuncs+1)), tweak, UpdateNone)
		if err != nil {
			t.Fatal(err)
		}
		theirs := bloom.LoadFilter(ours.MsgFilterLoad())
		if ours.MatchesAll() {
			if !ours.Contains(elem) {
				t.Fatalf("a filter that matches everything does not contain %x", elem)
			}
			return
		}
		if got, want := ours.Contains(elem), theirs.Matches(elem); got != want {
			t.Fatalf("Contains(%x) = %v, btcd %v", elem, got, want)
		}
		ours.Add(elem)
		theirs.Add(elem)
		if got, want := mustMarshal(t, ours), wireFilterLoad(t, theirs.MsgFilterLoad()); !bytes.Equal(got, want) {
			t.Fatalf("after Add(%x): %x, btcd %x", elem, got, want)
		}
	})
}

// FuzzMatchTx decodes a transaction, inserts elements picked from it, and
// matches it twice (the second time after any update) with both libraries,
// unless it hits a documented divergence.
func FuzzMatchTx(f *testing.F) {
	for _, tx := range matchVectorTxs(f) {
		for flags := range uint8(3) {
			f.Add(tx, []byte{0, 3, 7}, uint32(0), flags)
		}
	}
	f.Fuzz(func(t *testing.T, raw []byte, picks []byte, tweak uint32, flags uint8) {
		var tx wire.MsgTx
		if tx.Deserialize(bytes.NewReader(raw)) != nil {
			return
		}
		ours, _ := New(10, 1e-6, tweak, Flags(flags))
		theirs := bloom.LoadFilter(ours.MsgFilterLoad())
		elems := txElements(&tx)
		for _, p := range picks {
			if len(elems) > 0 {
				e := elems[int(p)%len(elems)]
				ours.Add(e)
				theirs.Add(e)
			}
		}
		compareMatching(t, ours, theirs, []*wire.MsgTx{&tx, &tx})
	})
}

// txElements lists what a wallet might insert for tx: its txid, its inputs'
// outpoints and every push of its scripts.
func txElements(tx *wire.MsgTx) [][]byte {
	txid := tx.TxHash()
	out := [][]byte{txid[:]}
	for _, in := range tx.TxIn {
		out = append(out, outPointSlice(in.PreviousOutPoint))
		out = appendPushes(out, in.SignatureScript)
	}
	for _, o := range tx.TxOut {
		out = appendPushes(out, o.PkScript)
	}
	return out
}

func appendPushes(out [][]byte, s []byte) [][]byte {
	for len(s) > 0 {
		_, data, rest, ok := nextOp(s)
		if !ok {
			break
		}
		if len(data) > 0 {
			out = append(out, data)
		}
		s = rest
	}
	return out
}

// FuzzParams compares the derived sizes with btcd's for the rates btcd does
// not clamp: sizes agree, and hash counts differ only by Core's integer
// division.
func FuzzParams(f *testing.F) {
	f.Add(uint32(7), 0.1)
	f.Add(uint32(3), 0.01)
	f.Add(uint32(144000), 1e-4)
	f.Add(uint32(0), 0.5)
	f.Fuzz(func(t *testing.T, n uint32, p float64) {
		size, k, err := Params(n, p)
		if err != nil {
			return
		}
		if size < 1 || size > MaxFilterSize || k < 1 || k > MaxHashFuncs {
			t.Fatalf("Params(%d, %v) = %d, %d outside the limits", n, p, size, k)
		}
		if p < 1e-9 || math.IsNaN(p) {
			return
		}
		theirs := bloom.NewFilter(n, 0, p, wire.BloomUpdateNone).MsgFilterLoad()
		if len(theirs.Filter) != size || k > theirs.HashFuncs || (k != theirs.HashFuncs && uint64(size)*8%uint64(n) == 0) {
			t.Fatalf("Params(%d, %v) = %d, %d, btcd %d, %d", n, p, size, k, len(theirs.Filter), theirs.HashFuncs)
		}
	})
}

func mustMarshalTree(t *testing.T, tree *PartialTree) []byte {
	b, err := tree.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func filterVectors(f *testing.F) []testvectors.BIP37FilterVector {
	data, _ := testvectors.Read("bip37/filter_serialize.json")
	file, err := testvectors.ParseBIP37Filter(data)
	if err != nil {
		f.Fatal(err)
	}
	return file.Vectors
}

func merkleVectorBlocks(f *testing.F) [][]byte {
	data, _ := testvectors.Read("bip37/merkle_blocks.json")
	file, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, v := range file.Vectors {
		for _, s := range v.Steps {
			out = append(out, slices.Clip(s.ExpectedMerkleBlock), slices.Clip(s.DerivedMerkleBlock))
		}
	}
	return slices.DeleteFunc(out, func(b []byte) bool { return len(b) == 0 })
}

func matchVectorTxs(f *testing.F) [][]byte {
	data, _ := testvectors.Read("bip37/bloom_match.json")
	file, err := testvectors.ParseBIP37Match(data)
	if err != nil {
		f.Fatal(err)
	}
	return [][]byte{file.Tx, file.SpendingTx}
}
