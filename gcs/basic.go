package gcs

import (
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// opReturn is the opcode whose leading presence makes an output provably
// unspendable, and excluded from basic filters.
const opReturn = 0x6a

// BasicKey returns the SipHash key of a block's basic filter: the first 16
// bytes of the block hash in internal byte order. In the display (RPC) hex of
// the hash these are the last 32 digits, byte-reversed.
func BasicKey(blockHash chainhash.Hash) Key {
	return Key(blockHash[:KeySize])
}

// BasicElements appends the items of a block's BIP158 basic filter to dst:
// every output script except empty ones and those whose first byte is
// OP_RETURN, then every non-empty script spent by an input of a transaction
// after the coinbase. prevOutScripts holds those spent scripts in input order
// (the OP_RETURN rule does not apply to them, as in Bitcoin Core and btcd).
// Witness data is never an item. Repeats are kept for [Build] to remove; the
// appended slices alias the block and prevOutScripts.
func BasicElements(dst [][]byte, block *wire.MsgBlock, prevOutScripts [][]byte) ([][]byte, error) {
	inputs := 0
	for _, tx := range block.Transactions[min(1, len(block.Transactions)):] {
		inputs += len(tx.TxIn)
	}
	if inputs != len(prevOutScripts) {
		return dst, fmt.Errorf("gcs: block %s has %d inputs after its coinbase, but %d spent scripts were given",
			block.BlockHash(), inputs, len(prevOutScripts))
	}
	for _, tx := range block.Transactions {
		for _, out := range tx.TxOut {
			if s := out.PkScript; len(s) > 0 && s[0] != opReturn {
				dst = append(dst, s)
			}
		}
	}
	for _, s := range prevOutScripts {
		if len(s) > 0 {
			dst = append(dst, s)
		}
	}
	return dst, nil
}

// BuildBasic returns the BIP158 basic filter of block, given the scripts its
// non-coinbase inputs spend in input order (see [BasicElements]).
func BuildBasic(block *wire.MsgBlock, prevOutScripts [][]byte) (Filter, error) {
	var b Builder
	return b.BuildBasic(block, prevOutScripts)
}

// BuildBasic is [BuildBasic] with b's scratch space.
func (b *Builder) BuildBasic(block *wire.MsgBlock, prevOutScripts [][]byte) (Filter, error) {
	elements, err := BasicElements(b.elements[:0], block, prevOutScripts)
	b.elements = elements
	if err != nil {
		return Filter{}, err
	}
	f, err := b.Build(Params{P: BasicP, M: BasicM}, BasicKey(block.BlockHash()), elements)
	clear(b.elements) // drop the references to the block
	return f, err
}

// CheckBasic builds the basic filter of block (see [BuildBasic]) and
// compares it with want, the basic filter a peer served or a file published
// for the block: what a node holding the spent scripts, or a test of a
// vector, does to check a filter byte for byte. It returns the filter it
// built, also when that differs from want; the error then names the block
// and the first byte that differs.
func CheckBasic(block *wire.MsgBlock, prevOutScripts [][]byte, want []byte) (Filter, error) {
	f, err := BuildBasic(block, prevOutScripts)
	if err != nil {
		return Filter{}, err
	}
	got := f.Bytes()
	if i := firstDifference(got, want); i >= 0 {
		return f, fmt.Errorf("gcs: block %s: the basic filter built from the block (%d bytes) differs from the one given (%d bytes) at byte %d",
			block.BlockHash(), len(got), len(want), i)
	}
	return f, nil
}

// firstDifference returns the offset of the first byte at which a and b
// differ, the shorter length if one is a prefix of the other, or -1 if they
// are equal.
func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// DecodeBasic decodes the basic filter of the block with hash blockHash
// (internal order), as strictly as [Decode].
func DecodeBasic(blockHash chainhash.Hash, data []byte) (Filter, error) {
	return Decode(Params{P: BasicP, M: BasicM}, BasicKey(blockHash), data)
}
