package verify

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
	"github.com/chainsieve/chainsieve/bip37"
	"github.com/chainsieve/chainsieve/testvectors"
)

func checkMurmur3(data []byte) ([]Result, error) {
	f, err := testvectors.ParseMurmur3(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Vectors))
	for i, v := range f.Vectors {
		name := fmt.Sprintf("seed %08x data %q", uint32(v.Seed), v.Data.String())
		got := bip37.MurmurHash3(uint32(v.Seed), v.Data)
		var err error
		if got != uint32(v.Expected) {
			err = fmt.Errorf("MurmurHash3 = %08x, want %08x", got, uint32(v.Expected))
		}
		out[i] = result(name, err, fmt.Sprintf("MurmurHash3 = %08x", got))
	}
	return out, nil
}

func checkBIP37Filter(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37Filter(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Vectors))
	for i, v := range f.Vectors {
		detail, err := checkFilterVector(v)
		out[i] = result(v.Name, err, detail)
	}
	return out, nil
}

// checkFilterVector builds the filter, compares its filterload bytes and
// parameters, decodes the expected bytes back, then tests membership before
// and after clearing.
func checkFilterVector(v testvectors.BIP37FilterVector) (string, error) {
	f, err := bip37.New(v.Elements, v.FPRate, v.Tweak, bip37.Flags(v.Flags))
	if err != nil {
		return "", err
	}
	if v.ExpectedSizeBytes != 0 && f.Size() != v.ExpectedSizeBytes {
		return "", fmt.Errorf("New(%d, %v) size = %d bytes, want %d", v.Elements, v.FPRate, f.Size(), v.ExpectedSizeBytes)
	}
	if v.ExpectedHashFuncs != 0 && f.HashFuncs() != v.ExpectedHashFuncs {
		return "", fmt.Errorf("New(%d, %v) hash functions = %d, want %d", v.Elements, v.FPRate, f.HashFuncs(), v.ExpectedHashFuncs)
	}
	for _, e := range v.Inserts {
		f.Add(e)
	}
	got, _ := f.MarshalBinary()
	if !bytes.Equal(got, v.ExpectedFilterload) {
		return "", fmt.Errorf("filterload = %x, want %x", got, []byte(v.ExpectedFilterload))
	}
	var back bip37.Filter
	if err := back.UnmarshalBinary(v.ExpectedFilterload); err != nil {
		return "", fmt.Errorf("decoding the expected filterload: %v", err)
	}
	if again, _ := back.MarshalBinary(); !bytes.Equal(again, v.ExpectedFilterload) {
		return "", fmt.Errorf("decoded filterload re-encodes as %x", again)
	}
	if err := checkContains(f, v.ContainsTrue, true, ""); err != nil {
		return "", err
	}
	if err := checkContains(f, v.ContainsFalse, false, ""); err != nil {
		return "", err
	}
	f.Reset()
	if err := checkContains(f, v.AfterClearContainsFalse, false, " after Reset"); err != nil {
		return "", err
	}
	return fmt.Sprintf("filterload %x (%d bytes, %d hash functions) after %d inserts; %d present, %d absent, %d absent after clear",
		got, f.Size(), f.HashFuncs(), len(v.Inserts), len(v.ContainsTrue), len(v.ContainsFalse), len(v.AfterClearContainsFalse)), nil
}

func checkContains(f *bip37.Filter, elems []testvectors.Hex, want bool, when string) error {
	for _, e := range elems {
		if got := f.Contains(e); got != want {
			return fmt.Errorf("Contains(%x)%s = %v, want %v", []byte(e), when, got, want)
		}
	}
	return nil
}

func checkBIP37Match(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37Match(data)
	if err != nil {
		return nil, err
	}
	txs, err := matchTxs(f)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Vectors))
	for i, v := range f.Vectors {
		detail, err := checkMatchVector(f.Filter, v, txs)
		out[i] = result(v.Name, err, detail)
	}
	return out, nil
}

// matchTx is a decoded transaction of a match file with its txid.
type matchTx struct {
	tx   *wire.MsgTx
	txid chainhash.Hash
}

// matchTxs decodes the file's transactions and checks their txids.
func matchTxs(f *testvectors.BIP37MatchFile) (map[string]matchTx, error) {
	txs := map[string]matchTx{}
	for _, c := range []struct {
		name string
		raw  []byte
		txid testvectors.DisplayHash
	}{{"tx", f.Tx, f.TxID}, {"spending_tx", f.SpendingTx, f.SpendingTxID}} {
		if len(c.raw) == 0 {
			continue
		}
		tx, err := decodeTx(c.raw)
		if err != nil {
			return nil, fmt.Errorf("verify: %s: %w", c.name, err)
		}
		txid := tx.TxHash()
		if c.txid != (testvectors.DisplayHash{}) && txid != chainhash.Hash(c.txid) {
			return nil, fmt.Errorf("verify: %s has txid %s, the file says %s", c.name, txid, c.txid)
		}
		txs[c.name] = matchTx{tx, txid}
	}
	return txs, nil
}

func decodeTx(raw []byte) (*wire.MsgTx, error) {
	var tx wire.MsgTx
	r := bytes.NewReader(raw)
	if err := tx.Deserialize(r); err != nil {
		return nil, err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%d bytes after the transaction", r.Len())
	}
	return &tx, nil
}

func checkMatchVector(p testvectors.BIP37Params, v testvectors.BIP37MatchVector, txs map[string]matchTx) (string, error) {
	f, err := bip37.New(p.Elements, p.FPRate, p.Tweak, bip37.Flags(p.Flags))
	if err != nil {
		return "", err
	}
	if err := insert(f, v.Insert); err != nil {
		return "", err
	}
	var got []string
	for _, e := range v.ExpectInOrder {
		t, ok := txs[e.Tx]
		if !ok {
			return "", fmt.Errorf("the file has no %s", e.Tx)
		}
		if m := f.MatchTx(t.tx, t.txid); m != e.Match {
			return "", fmt.Errorf("MatchTx(%s) = %v, want %v", e.Tx, m, e.Match)
		}
		got = append(got, fmt.Sprintf("%s %v", e.Tx, e.Match))
	}
	return fmt.Sprintf("insert %s %x; MatchTx: %s", v.Insert.As, []byte(v.Insert.Element), strings.Join(got, ", ")), nil
}

// insert adds an element through the API its kind calls for, so that the
// byte orders of AddHash and AddOutPoint are checked against the file's
// display form as well as its raw bytes.
func insert(f *bip37.Filter, in testvectors.BIP37Insert) error {
	switch {
	case in.As == "txid" && in.Display != "":
		h, err := chainhash.NewHashFromStr(in.Display)
		if err != nil {
			return fmt.Errorf("txid %q: %v", in.Display, err)
		}
		if !bytes.Equal(h[:], in.Element) {
			return fmt.Errorf("txid %s is %x in internal order, the file says %x", in.Display, h[:], []byte(in.Element))
		}
		f.AddHash(*h)
	case in.As == "outpoint" && in.Display != "":
		op, err := wire.NewOutPointFromString(in.Display)
		if err != nil {
			return fmt.Errorf("outpoint %q: %v", in.Display, err)
		}
		if b := outPointBytes(*op); !bytes.Equal(b, in.Element) {
			return fmt.Errorf("outpoint %s serialises as %x, the file says %x", in.Display, b, []byte(in.Element))
		}
		f.AddOutPoint(*op)
	default:
		f.Add(in.Element)
	}
	return nil
}

func outPointBytes(op wire.OutPoint) []byte {
	b := append([]byte(nil), op.Hash[:]...)
	return append(b, byte(op.Index), byte(op.Index>>8), byte(op.Index>>16), byte(op.Index>>24))
}

func checkBIP37MerkleBlock(data []byte) ([]Result, error) {
	f, err := testvectors.ParseBIP37MerkleBlock(data)
	if err != nil {
		return nil, err
	}
	out := make([]Result, len(f.Vectors))
	for i, v := range f.Vectors {
		detail, err := checkMerkleVector(v)
		out[i] = result(v.Name, err, detail)
	}
	return out, nil
}

// checkMerkleVector runs the steps on one filter: each builds the merkle
// block, compares matches and bytes, then decodes and verifies the expected
// bytes as a client would.
func checkMerkleVector(v testvectors.BIP37MerkleBlockVector) (string, error) {
	var block wire.MsgBlock
	if err := block.Deserialize(bytes.NewReader(v.Block)); err != nil {
		return "", fmt.Errorf("block: %v", err)
	}
	if h := block.BlockHash(); v.BlockHash != (testvectors.DisplayHash{}) && h != chainhash.Hash(v.BlockHash) {
		return "", fmt.Errorf("block hash %s, the file says %s", h, v.BlockHash)
	}
	if v.TxCount != 0 && len(block.Transactions) != v.TxCount {
		return "", fmt.Errorf("block has %d transactions, the file says %d", len(block.Transactions), v.TxCount)
	}
	f, err := bip37.New(v.Filter.Elements, v.Filter.FPRate, v.Filter.Tweak, bip37.Flags(v.Filter.Flags))
	if err != nil {
		return "", err
	}
	var steps []string
	for i, s := range v.Steps {
		d, err := checkMerkleStep(&block, f, s)
		if err != nil {
			return "", fmt.Errorf("step %d: %v", i+1, err)
		}
		steps = append(steps, fmt.Sprintf("step %d: %s", i+1, d))
	}
	return strings.Join(steps, "; "), nil
}

func checkMerkleStep(block *wire.MsgBlock, f *bip37.Filter, s testvectors.BIP37MerkleStep) (string, error) {
	for _, in := range s.Insert {
		if err := insert(f, in); err != nil {
			return "", err
		}
	}
	msg, matches := bip37.NewMerkleBlock(block, f)
	if err := sameMatches("NewMerkleBlock", matches, s.ExpectedMatched); err != nil {
		return "", err
	}
	want, source := s.ExpectedMerkleBlock, "published"
	if len(want) == 0 {
		want, source = s.DerivedMerkleBlock, "derived"
	}
	got := bip37.AppendMerkleBlock(nil, msg)
	if len(want) > 0 && !bytes.Equal(got, want) {
		return "", fmt.Errorf("merkleblock = %x, want %s %x", got, source, []byte(want))
	}
	if len(want) == 0 {
		want, source = got, "built"
	}
	decoded, err := bip37.DecodeMerkleBlock(want)
	if err != nil {
		return "", err
	}
	verified, err := bip37.VerifyMerkleBlock(decoded)
	if err != nil {
		return "", err
	}
	if err := sameMatches("VerifyMerkleBlock", verified, s.ExpectedMatched); err != nil {
		return "", err
	}
	return fmt.Sprintf("matched %s; %d-byte merkleblock equals the %s bytes and verifies", indices(matches), len(got), source), nil
}

func sameMatches(what string, got []bip37.Match, want []testvectors.MatchedTx) error {
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].Index == want[i].Index && got[i].TxID == chainhash.Hash(want[i].TxID)
	}
	if !ok {
		w := make([]bip37.Match, len(want))
		for i, m := range want {
			w[i] = bip37.Match{Index: m.Index, TxID: chainhash.Hash(m.TxID)}
		}
		return fmt.Errorf("%s matched %s, want %s", what, indices(got), indices(w))
	}
	return nil
}

func indices(ms []bip37.Match) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = fmt.Sprintf("%d:%s", m.Index, m.TxID)
	}
	return "[" + strings.Join(s, " ") + "]"
}
