package gcs

import (
	"crypto/sha256"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// FilterHash returns the BIP157 filter hash of an encoded filter: the double
// SHA-256 of its bytes, CompactSize N included, in internal order.
func FilterHash(encoded []byte) chainhash.Hash {
	first := sha256.Sum256(encoded)
	return sha256.Sum256(first[:])
}

// FilterHeader returns the BIP157 filter header that commits to a filter with
// hash filterHash after prevHeader: the double SHA-256 of filterHash ‖
// prevHeader, all in internal order. The header before the genesis block's is
// all zeros.
func FilterHeader(filterHash, prevHeader chainhash.Hash) chainhash.Hash {
	var buf [2 * chainhash.HashSize]byte
	copy(buf[:], filterHash[:])
	copy(buf[chainhash.HashSize:], prevHeader[:])
	return FilterHash(buf[:])
}

// Hash returns the BIP157 filter hash of f's encoding.
func (f *Filter) Hash() chainhash.Hash { return FilterHash(f.enc) }

// Header returns f's BIP157 filter header after prevHeader.
func (f *Filter) Header(prevHeader chainhash.Hash) chainhash.Hash {
	return FilterHeader(f.Hash(), prevHeader)
}

// AppendHeaders appends to dst the filter headers of a run of filters, given
// their hashes in height order and the header before the first.
func AppendHeaders(dst []chainhash.Hash, prevHeader chainhash.Hash, filterHashes []chainhash.Hash) []chainhash.Hash {
	for _, h := range filterHashes {
		prevHeader = FilterHeader(h, prevHeader)
		dst = append(dst, prevHeader)
	}
	return dst
}

// CFHeaders appends to dst the basic filter headers a cfheaders message
// commits to: one per filter hash, chained from its PrevFilterHeader. The
// last is the header of the block msg.StopHash names; compare it, or any
// other, with a trusted value with [VerifyHeaders].
func CFHeaders(dst []chainhash.Hash, msg *wire.MsgCFHeaders) ([]chainhash.Hash, error) {
	if msg.FilterType != wire.GCSFilterRegular {
		return dst, fmt.Errorf("gcs: cfheaders for filter type %d, want %d (basic)", msg.FilterType, wire.GCSFilterRegular)
	}
	prev := msg.PrevFilterHeader
	for i, h := range msg.FilterHashes {
		if h == nil {
			return dst, fmt.Errorf("gcs: cfheaders ending at block %s: filter hash %d is missing", msg.StopHash, i)
		}
		prev = FilterHeader(*h, prev)
		dst = append(dst, prev)
	}
	return dst, nil
}

// Checkpoint is a filter header trusted at a height: hard-coded, or taken
// from the cfcheckpt replies of several peers that agree.
type Checkpoint struct {
	Height uint32
	Header chainhash.Hash // internal order
}

// CFCheckpoints returns the checkpoints a cfcheckpt message lists: the basic
// filter headers at heights 1000, 2000, … (wire.CFCheckptInterval).
func CFCheckpoints(msg *wire.MsgCFCheckpt) ([]Checkpoint, error) {
	if msg.FilterType != wire.GCSFilterRegular {
		return nil, fmt.Errorf("gcs: cfcheckpt for filter type %d, want %d (basic)", msg.FilterType, wire.GCSFilterRegular)
	}
	out := make([]Checkpoint, len(msg.FilterHeaders))
	for i, h := range msg.FilterHeaders {
		if h == nil {
			return nil, fmt.Errorf("gcs: cfcheckpt ending at block %s: header %d is missing", msg.StopHash, i)
		}
		out[i] = Checkpoint{Height: uint32(i+1) * wire.CFCheckptInterval, Header: *h}
	}
	return out, nil
}

// VerifyHeaders checks a run of filter headers, headers[i] being the one at
// height start+i, against every checkpoint whose height falls in the run, and
// returns the number it checked. Checkpoints outside the run are ignored, so
// a caller that needs one checked compares the count.
func VerifyHeaders(start uint32, headers []chainhash.Hash, checkpoints ...Checkpoint) (int, error) {
	checked := 0
	for _, c := range checkpoints {
		if c.Height < start || uint64(c.Height-start) >= uint64(len(headers)) {
			continue
		}
		if got := headers[c.Height-start]; got != c.Header {
			return checked, fmt.Errorf("gcs: filter header at height %d is %s, but the checkpoint has %s (display order)",
				c.Height, got, c.Header)
		}
		checked++
	}
	return checked, nil
}

// FromCFilter returns the basic filter a cfilter message carries once its
// filter hash equals filterHash, the hash a verified cfheaders run commits to
// for msg.BlockHash. Because the hash pins the bytes, the filter is decoded
// with [DecodeUnchecked].
func FromCFilter(msg *wire.MsgCFilter, filterHash chainhash.Hash) (Filter, error) {
	if msg.FilterType != wire.GCSFilterRegular {
		return Filter{}, fmt.Errorf("gcs: cfilter for block %s has filter type %d, want %d (basic)",
			msg.BlockHash, msg.FilterType, wire.GCSFilterRegular)
	}
	if got := FilterHash(msg.Data); got != filterHash {
		return Filter{}, fmt.Errorf("gcs: cfilter for block %s has filter hash %s, but its header chain commits to %s",
			msg.BlockHash, got, filterHash)
	}
	return DecodeUnchecked(Params{P: BasicP, M: BasicM}, BasicKey(msg.BlockHash), msg.Data)
}
