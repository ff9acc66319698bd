package bip37

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// The fast paths (two probes per pass over the bytes, outpoints hashed from
// their fields, probes in growing groups, pushes read inline) are compared
// here with refFilter, a deliberately naive model of Core's
// CBloomFilter: one MurmurHash3 and one % per hash function, Core's GetOp.
// Unlike the comparisons with btcd, nothing is excluded: every filter size,
// hash count, fill, flag byte and script, malformed or not.

type refFilter struct {
	data      []byte
	hashFuncs uint32
	tweak     uint32
	flags     Flags
}

func (r *refFilter) hash(i uint32, key []byte) uint32 {
	return MurmurHash3(i*0xFBA4C795+r.tweak, key) % (uint32(len(r.data)) * 8)
}

func (r *refFilter) insert(key []byte) {
	if len(r.data) == 0 {
		return
	}
	for i := range r.hashFuncs {
		n := r.hash(i, key)
		r.data[n>>3] |= 1 << (7 & n)
	}
}

func (r *refFilter) contains(key []byte) bool {
	if len(r.data) == 0 {
		return true
	}
	for i := range r.hashFuncs {
		n := r.hash(i, key)
		if r.data[n>>3]&(1<<(7&n)) == 0 {
			return false
		}
	}
	return true
}

func refOutPoint(h chainhash.Hash, index uint32) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), h[:]...), index)
}

// isRelevantAndUpdate is CBloomFilter::IsRelevantAndUpdate.
func (r *refFilter) isRelevantAndUpdate(tx *wire.MsgTx) bool {
	found := false
	if len(r.data) == 0 {
		return true
	}
	hash := tx.TxHash()
	if r.contains(hash[:]) {
		found = true
	}
	for i, out := range tx.TxOut {
		for pc := out.PkScript; len(pc) > 0; {
			data, rest, ok := refGetOp(pc)
			if !ok {
				break
			}
			pc = rest
			if len(data) != 0 && r.contains(data) {
				found = true
				switch r.flags & UpdateMask {
				case UpdateAll:
					r.insert(refOutPoint(hash, uint32(i)))
				case UpdateP2PubKeyOnly:
					if isPayToPubKey(out.PkScript) || isMultisig(out.PkScript) {
						r.insert(refOutPoint(hash, uint32(i)))
					}
				}
				break
			}
		}
	}
	if found {
		return true
	}
	for _, in := range tx.TxIn {
		if r.contains(refOutPoint(in.PreviousOutPoint.Hash, in.PreviousOutPoint.Index)) {
			return true
		}
		for pc := in.SignatureScript; len(pc) > 0; {
			data, rest, ok := refGetOp(pc)
			if !ok {
				break
			}
			pc = rest
			if len(data) != 0 && r.contains(data) {
				return true
			}
		}
	}
	return false
}

// refGetOp is Core's GetScriptOp, returning the pushed data and the rest.
func refGetOp(pc []byte) (data, rest []byte, ok bool) {
	if len(pc) < 1 {
		return nil, nil, false
	}
	opcode, pc := pc[0], pc[1:]
	if opcode > opPushData4 {
		return nil, pc, true
	}
	var size int
	switch opcode {
	case opPushData1:
		if len(pc) < 1 {
			return nil, nil, false
		}
		size, pc = int(pc[0]), pc[1:]
	case opPushData2:
		if len(pc) < 2 {
			return nil, nil, false
		}
		size, pc = int(binary.LittleEndian.Uint16(pc)), pc[2:]
	case opPushData4:
		if len(pc) < 4 {
			return nil, nil, false
		}
		size, pc = int(binary.LittleEndian.Uint32(pc)), pc[4:]
	default:
		size = int(opcode)
	}
	if len(pc) < size {
		return nil, nil, false
	}
	return pc[:size], pc[size:], true
}

// refAndOurs returns a random filter twice: as refFilter and as Filter.
// Sizes run from empty to a few hundred bytes, hash counts over every
// group boundary of the fast paths, fills from empty to nearly full.
func refAndOurs(r *rand.Rand) (*refFilter, *Filter) {
	ks := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 19, 50}
	data := make([]byte, []int{0, 1, 3, 8, 35, 100, 600}[r.IntN(7)])
	fill := []float64{0, 0.02, 0.1, 0.3, 0.5, 0.8}[r.IntN(6)]
	for i := range data {
		for b := range 8 {
			if r.Float64() < fill {
				data[i] |= 1 << b
			}
		}
	}
	ref := &refFilter{data: data, hashFuncs: ks[r.IntN(len(ks))], tweak: r.Uint32(), flags: Flags(r.Uint32N(256))}
	ours, err := Load(data, ref.hashFuncs, ref.tweak, ref.flags)
	if err != nil {
		panic(err)
	}
	return ref, ours
}

// randomElement returns bytes of a length around every boundary of the
// fast paths: blocks of 4 and 16, shortElement, maxPremixed.
func randomElement(r *rand.Rand) []byte {
	n := []int{0, 1, 3, 4, 15, 16, 17, 20, 32, 33, 36, 65, 72, 80, 81, 520, 521, 600}[r.IntN(18)]
	return randomBytes(r, n)
}

// randomPushScript returns a script of pushes drawn from elems and random
// ones, in every push form, with non-push opcodes between them and, once
// in eight, a push running past the end.
func randomPushScript(r *rand.Rand, elems [][]byte) []byte {
	var s []byte
	for range r.IntN(5) {
		e := randomElement(r)
		if r.IntN(4) == 0 {
			e = elems[r.IntN(len(elems))]
		}
		switch {
		case r.IntN(4) == 0:
			s = append(s, 0x76+byte(r.IntN(0x30))) // a non-push opcode
		case len(e) < opPushData1 && r.IntN(2) == 0:
			s = append(append(s, byte(len(e))), e...)
		case len(e) <= 0xff && r.IntN(2) == 0:
			s = append(append(s, opPushData1, byte(len(e))), e...)
		case len(e) <= 0xffff && r.IntN(2) == 0:
			s = append(binary.LittleEndian.AppendUint16(append(s, opPushData2), uint16(len(e))), e...)
		default:
			s = append(binary.LittleEndian.AppendUint32(append(s, opPushData4), uint32(len(e))), e...)
		}
	}
	if r.IntN(8) == 0 {
		s = append(s, byte(1+r.IntN(0x4e)))
	}
	return s
}

// randomRefTxs returns transactions whose scripts push elements of elems
// and spend outpoints of earlier ones, and random transactions.
func randomRefTxs(r *rand.Rand, n int, elems [][]byte) []*wire.MsgTx {
	return randomTxChain(r, n, 3, func() []byte { return randomPushScript(r, elems) })
}

// TestContainsMatchesReference tests elements of every length boundary
// against random filters of every hash-count boundary, then inserts them.
func TestContainsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 3000 {
		ref, ours := refAndOurs(r)
		e := randomElement(r)
		if got, want := ours.Contains(e), ref.contains(e); got != want {
			t.Fatalf("Contains(%d bytes) = %v, reference %v (%d bytes, %d functions)", len(e), got, want, len(ref.data), ref.hashFuncs)
		}
		op := wire.OutPoint{Hash: chainhash.Hash(randomBytes(r, 32)), Index: r.Uint32()}
		if got, want := ours.ContainsOutPoint(op), ref.contains(refOutPoint(op.Hash, op.Index)); got != want {
			t.Fatalf("ContainsOutPoint = %v, reference %v (%d bytes, %d functions)", got, want, len(ref.data), ref.hashFuncs)
		}
		ours.Add(e)
		ref.insert(e)
		if !bytes.Equal(ours.data, ref.data) {
			t.Fatalf("after Add(%d bytes): %x, reference %x", len(e), ours.data, ref.data)
		}
	}
}

// TestMatchTxMatchesReference runs chains of random transactions through
// random filters holding some of their elements, comparing each decision
// and the filter after it.
func TestMatchTxMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	compared, matched := 0, 0
	for range 400 {
		ref, ours := refAndOurs(r)
		elems := make([][]byte, 8)
		for i := range elems {
			elems[i] = randomElement(r)
		}
		ref.insert(elems[0])
		ours.Add(elems[0])
		m := compareWithReference(t, ref, ours, randomRefTxs(r, 15, elems))
		compared, matched = compared+15, matched+m
	}
	t.Logf("compared %d transactions, %d matching", compared, matched)
	if matched < compared/5 || matched > compared*4/5 {
		t.Errorf("%d of %d transactions matched, want a fifth to four fifths", matched, compared)
	}
}

// compareWithReference matches txs in order with both filters and returns
// how many matched.
func compareWithReference(t *testing.T, ref *refFilter, ours *Filter, txs []*wire.MsgTx) (matched int) {
	t.Helper()
	for i, tx := range txs {
		got, want := ours.MatchTx(tx, tx.TxHash()), ref.isRelevantAndUpdate(tx)
		if got != want {
			t.Fatalf("tx %d: MatchTx = %v, reference %v (%d bytes, %d functions, flags %#x)", i, got, want, len(ref.data), ref.hashFuncs, ref.flags)
		}
		if !bytes.Equal(ours.data, ref.data) {
			t.Fatalf("tx %d: filter after MatchTx = %x, reference %x", i, ours.data, ref.data)
		}
		if got {
			matched++
		}
	}
	return matched
}

// FuzzMatchTxReference matches a decoded transaction twice against a filter
// built from the fuzzer's bytes, holding elements picked from the
// transaction, and compares with the reference.
func FuzzMatchTxReference(f *testing.F) {
	for _, tx := range matchVectorTxs(f) {
		f.Add(tx, []byte{0xff, 0x10, 0x42}, uint8(11), uint32(0), uint8(UpdateAll), []byte{0, 3})
		f.Add(tx, make([]byte, 35), uint8(3), uint32(7), uint8(UpdateP2PubKeyOnly), []byte{1, 5, 9})
	}
	f.Fuzz(func(t *testing.T, raw, data []byte, k uint8, tweak uint32, flags uint8, picks []byte) {
		var tx wire.MsgTx
		if tx.Deserialize(bytes.NewReader(raw)) != nil {
			return
		}
		data = data[:min(len(data), MaxFilterSize)]
		ours, err := Load(data, uint32(k%(MaxHashFuncs+1)), tweak, Flags(flags))
		if err != nil {
			t.Fatal(err)
		}
		ref := &refFilter{data: append([]byte(nil), data...), hashFuncs: ours.HashFuncs(), tweak: tweak, flags: Flags(flags)}
		elems := txElements(&tx)
		for _, p := range picks {
			e := elems[int(p)%len(elems)]
			ours.Add(e)
			ref.insert(e)
		}
		compareWithReference(t, ref, ours, []*wire.MsgTx{&tx, &tx})
	})
}
