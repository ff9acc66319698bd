package ethlogs

import (
	"bytes"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/trie"
)

// ReceiptsRoot returns the root of the receipts trie of rs, as a header's
// receiptsRoot commits to it: go-ethereum's DeriveSha over a stack trie.
// Only the consensus fields count: type, status or post-state, cumulative
// gas, bloom and logs (address, topics, data).
func ReceiptsRoot(rs types.Receipts) common.Hash {
	return types.DeriveSha(rs, trie.NewStackTrie(nil))
}

// VerifyReceipts checks a block's receipts, as eth_getBlockReceipts returns
// them, against its header, which must already be trusted (see
// [VerifyChain]):
//
//   - the receipts trie root equals h.ReceiptHash, so no receipt or log was
//     dropped, added, reordered or altered;
//   - each receipt's bloom equals the bloom of its logs;
//   - the union of those blooms equals h.Bloom, so that a scan that skipped
//     blocks on their bloom missed nothing.
//
// Errors are [*BlockError] naming the block. On chains whose blooms are
// known to be wrong, use bloom-untrusted mode: test every block, not the
// candidates, and check with [VerifyReceiptsRoot] instead.
func VerifyReceipts(h *types.Header, rs types.Receipts) error {
	if err := VerifyReceiptsRoot(h, rs); err != nil {
		return err
	}
	return VerifyReceiptBlooms(h, rs)
}

// VerifyReceiptBlooms is the second half of [VerifyReceipts], for receipts
// whose root is proven already ([DecodeProvenReceipts]): each receipt's
// bloom is the bloom of its logs, and their union is h.Bloom.
func VerifyReceiptBlooms(h *types.Header, rs types.Receipts) error {
	var all Bloom
	for i, r := range rs {
		b := ReceiptBloom(r)
		if b != *FromGeth(&r.Bloom) {
			return blockError(numberOf(h), h.Hash(), ErrReceiptBloom, "receipt %d (%d logs) carries %d bits, its logs give %d", i, len(r.Logs), FromGeth(&r.Bloom).Count(), b.Count())
		}
		all.Or(&b)
	}
	if all != *FromGeth(&h.Bloom) {
		return blockError(numberOf(h), h.Hash(), ErrHeaderBloom, "header has %d bits set, the logs give %d, first difference at byte %d", FromGeth(&h.Bloom).Count(), all.Count(), firstDifference(&all, FromGeth(&h.Bloom)))
	}
	return nil
}

// VerifyReceiptsRoot checks only that the receipts trie root equals
// h.ReceiptHash: bloom-untrusted mode, for chains whose header blooms have
// been wrong (a zero bloom over logs on Polygon PoS, all-ones on Filecoin).
// The receipts and logs are then proven; the blooms are not used.
func VerifyReceiptsRoot(h *types.Header, rs types.Receipts) error {
	if err := checkNulls(rs); err != nil {
		return blockError(numberOf(h), h.Hash(), ErrReceipt, "%v", err)
	}
	if root := ReceiptsRoot(rs); root != h.ReceiptHash {
		return blockError(numberOf(h), h.Hash(), ErrReceiptsRoot, "%d receipts give %s, the header commits to %s", len(rs), root, h.ReceiptHash)
	}
	return nil
}

// checkNulls rejects the null receipts and logs a JSON answer can hold.
func checkNulls(rs types.Receipts) error {
	for i, r := range rs {
		if r == nil {
			return fmt.Errorf("receipt %d is null", i)
		}
		for j, l := range r.Logs {
			if l == nil {
				return fmt.Errorf("receipt %d: log %d is null", i, j)
			}
		}
	}
	return nil
}

func firstDifference(a, b *Bloom) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// Logs fills in the fields of every log in rs that the receipts root does
// not commit to, from header h and the receipts' order, and returns the logs
// in log-index order: block number, hash and time; transaction index;
// block-wide log index; removed = false. Values a node sent for these fields
// are overwritten. rs must have passed [VerifyReceipts] or
// [VerifyReceiptsRoot]. Each log's TxHash is copied from its receipt as given:
// proving it needs the block's transactions against h.TxHash.
func Logs(h *types.Header, rs types.Receipts) []*types.Log {
	return LogsOf(h, h.Hash(), rs)
}

// LogsOf is [Logs] for a header whose hash the caller holds already (the
// Keccak-256 of the bytes it was decoded from), which spares encoding and
// hashing it again. hash must be h's.
func LogsOf(h *types.Header, hash common.Hash, rs types.Receipts) []*types.Log {
	number := numberOf(h)
	n := 0
	for _, r := range rs {
		n += len(r.Logs)
	}
	logs := make([]*types.Log, 0, n)
	for i, r := range rs {
		r.BlockHash, r.BlockNumber, r.TransactionIndex = hash, h.Number, uint(i)
		for _, l := range r.Logs {
			l.BlockNumber, l.BlockHash, l.BlockTimestamp = number, hash, h.Time
			l.TxHash, l.TxIndex, l.Index, l.Removed = r.TxHash, uint(i), uint(len(logs)), false
			logs = append(logs, l)
		}
	}
	return logs
}

// Filter appends to dst the logs that match q exactly (see [Query.Match]).
func (q *Query) Filter(dst, logs []*types.Log) []*types.Log {
	for _, l := range logs {
		if q.Match(l) {
			dst = append(dst, l)
		}
	}
	return dst
}

// MaxReceiptSize bounds one receipt's consensus encoding. A block's gas
// limit bounds real receipts far below it (a log costs at least 375 gas).
const MaxReceiptSize = 32 << 20

// MaxBlockTransactions bounds the transactions, and so the receipts, of a
// block read from a node, before a slice is grown for each: an answer of
// one-byte items (two hex digits each) would otherwise grow a 24-byte
// slice header per item, up to 24 times the answer's size. Gas bounds
// real blocks far below it (mainnet's 45M gas at 21,000 a transaction:
// 2,142).
const MaxBlockTransactions = 1 << 18

// DecodeReceipt decodes a receipt's consensus encoding, the value a receipts
// trie stores: a legacy RLP list, or a type byte (1 to 4) and the list. An
// encoding that does not re-encode to the same bytes is rejected, so that
// the receipts root derived from the result commits to exactly these bytes.
func DecodeReceipt(enc []byte) (*types.Receipt, error) {
	r, err := decodeReceipt(enc)
	if err != nil {
		return nil, fmt.Errorf("ethlogs: receipt: %w", err)
	}
	return r, nil
}

func decodeReceipt(enc []byte) (*types.Receipt, error) {
	if len(enc) > MaxReceiptSize {
		return nil, errorf(ErrReceipt, "%d bytes, at most %d", len(enc), MaxReceiptSize)
	}
	r := new(types.Receipt)
	if err := r.UnmarshalBinary(enc); err != nil {
		return nil, errorf(ErrReceipt, "%v", err)
	}
	again, err := r.MarshalBinary()
	if err != nil || !bytes.Equal(again, enc) {
		return nil, errorf(ErrReceipt, "not canonical (%d bytes re-encode to %d)", len(enc), len(again))
	}
	return r, nil
}

// DecodeProvenReceipts decodes a block's receipts from their consensus
// encodings, as debug_getRawReceipts answers, and proves them against h,
// which must be trusted: the trie of the encodings as received must have
// root h.ReceiptHash. The bytes being the ones the block commits to, they
// are decoded without the re-encoding [DecodeReceipts] checks each
// against, and the root is taken without re-encoding the receipts
// ([ReceiptsRoot]): two encodings of each receipt fewer. An encoding that
// does not decode is [ErrReceipt], a root that differs [ErrReceiptsRoot];
// both are [*BlockError]s naming the block.
func DecodeProvenReceipts(h *types.Header, encs [][]byte) (types.Receipts, error) {
	rs := make(types.Receipts, len(encs))
	for i, enc := range encs {
		if len(enc) > MaxReceiptSize {
			return nil, blockError(numberOf(h), common.Hash{}, ErrReceipt, "receipt %d: %d bytes, at most %d", i, len(enc), MaxReceiptSize)
		}
		rs[i] = new(types.Receipt)
		if err := rs[i].UnmarshalBinary(enc); err != nil {
			return nil, blockError(numberOf(h), common.Hash{}, ErrReceipt, "receipt %d: %v", i, err)
		}
	}
	if root := encodings(encs).root(); root != h.ReceiptHash {
		return nil, blockError(numberOf(h), common.Hash{}, ErrReceiptsRoot, "%d receipts give %s, the header commits to %s", len(rs), root, h.ReceiptHash)
	}
	return rs, nil
}

// encodings are the values of a receipts or transactions trie as
// received, keyed by index as the header's root commits to them.
type encodings [][]byte

func (e encodings) Len() int                           { return len(e) }
func (e encodings) EncodeIndex(i int, w *bytes.Buffer) { w.Write(e[i]) }

// root is the trie root of e, without encoding anything again.
func (e encodings) root() common.Hash { return types.DeriveSha(e, trie.NewStackTrie(nil)) }

// DecodeReceipts decodes a block's receipts in order; an error names the
// receipt's index.
func DecodeReceipts(encs [][]byte) (types.Receipts, error) {
	rs := make(types.Receipts, len(encs))
	for i, enc := range encs {
		r, err := decodeReceipt(enc)
		if err != nil {
			return nil, fmt.Errorf("ethlogs: receipt %d: %w", i, err)
		}
		rs[i] = r
	}
	return rs, nil
}
