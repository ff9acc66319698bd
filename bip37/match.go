package bip37

import (
	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// MatchTx reports whether tx is relevant to the filter, and updates the
// filter as the flags ask, exactly as Bitcoin Core's
// CBloomFilter::IsRelevantAndUpdate. txid must be tx's txid (the hash
// without witness, tx.TxHash()); it is taken as an argument so that a caller
// holding it already hashes nothing. In order:
//
//  1. A filter that matches everything matches tx.
//  2. The txid matches.
//  3. Every output is scanned, even after a match: the first non-empty data
//     push of its script that the filter contains matches, and then, under
//     [UpdateAll], the outpoint (txid, index) is inserted; under
//     [UpdateP2PubKeyOnly] only for pay-to-pubkey and bare multisig outputs.
//     Empty pushes (OP_0) never match, and a script that fails to parse is
//     read up to the bad opcode.
//  4. Otherwise each input matches by its previous outpoint or by a
//     non-empty data push of its signature script.
//
// Witnesses are never read, so a spend from a segwit output matches only
// through its outpoint: see [Filter.AddOutPoint] and [UpdateAll].
func (f *Filter) MatchTx(tx *wire.MsgTx, txid chainhash.Hash) bool {
	if len(f.data) == 0 {
		return true
	}
	found := f.Contains(txid[:])
	for i, out := range tx.TxOut {
		if f.containsPush(out.PkScript) {
			found = true
			f.update(out.PkScript, txid, uint32(i))
		}
	}
	if found {
		return true
	}
	for _, in := range tx.TxIn {
		if f.containsOutPoint(&in.PreviousOutPoint) || f.containsPush(in.SignatureScript) {
			return true
		}
	}
	return false
}

// containsPush reports whether the filter contains a non-empty data push of
// script, reading it up to its end or its first malformed push. Direct
// pushes, which carry the keys, hashes and signatures filters match, and
// opcodes that push nothing are read inline; nextOp, too large to inline,
// reads the PUSHDATA forms and finds the errors.
func (f *Filter) containsPush(script []byte) bool {
	for len(script) > 0 {
		var data []byte
		if n := int(script[0]); n < opPushData1 && n < len(script) {
			data, script = script[1:1+n], script[1+n:]
		} else if n > opPushData4 {
			script = script[1:]
			continue
		} else {
			var ok bool
			if _, data, script, ok = nextOp(script); !ok {
				return false
			}
		}
		if len(data) > 0 && f.Contains(data) {
			return true
		}
	}
	return false
}

// update inserts the outpoint of a matching output if the flags ask for it.
func (f *Filter) update(script []byte, txid chainhash.Hash, index uint32) {
	switch f.flags & UpdateMask {
	case UpdateAll:
	case UpdateP2PubKeyOnly:
		if !isPayToPubKey(script) && !isMultisig(script) {
			return
		}
	default:
		return
	}
	f.AddOutPoint(wire.OutPoint{Hash: txid, Index: index})
}
