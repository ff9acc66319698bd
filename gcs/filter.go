package gcs

import (
	"errors"
	"math"

	"github.com/chainsieve/chainsieve/core/bitio"
)

// ErrCorrupt is wrapped by every error that reports a malformed encoding.
var ErrCorrupt = errors.New("gcs: corrupt filter")

// Filter is an encoded Golomb-coded set with the key and parameters needed to
// query it. It refers to its encoding without copying it: the bytes given to
// [Decode] must not change while the Filter is in use. A Filter is never
// modified after it is made, so it is safe for concurrent queries. The zero
// Filter is empty and matches nothing.
type Filter struct {
	key  Key
	p    uint8
	m    uint64
	n    uint32
	enc  []byte // CompactSize N ‖ Golomb-Rice codes
	body []byte // the codes: enc after its CompactSize
}

// Decode parses a filter encoded as CompactSize N ‖ Golomb-Rice codes, with the
// strictness of Bitcoin Core's decoder: N must be a canonical CompactSize below
// 2^32, exactly N codes must decode, and no byte may follow the one that holds
// the last code's final bit. The padding bits of that byte are not checked,
// as Core does not check them. Errors wrap [ErrCorrupt] and give the byte or
// bit offset. Decode reads every code once and allocates nothing but an error.
func Decode(p Params, key Key, data []byte) (Filter, error) {
	f, err := DecodeUnchecked(p, key, data)
	if err == nil {
		err = f.validate()
	}
	if err != nil {
		return Filter{}, err
	}
	return f, nil
}

// DecodeUnchecked parses the CompactSize N of a filter whose bytes were
// already verified, typically by their BIP157 filter hash against a header
// chain, or by an earlier [Decode]. It checks only that N codes of at least
// P+1 bits each fit in the data, which bounds the work of every query. If the
// codes are nonetheless malformed, a query that decodes into the damage
// reports a possible match: for a light client a false positive costs a block
// download, while a false negative would hide a payment.
func DecodeUnchecked(p Params, key Key, data []byte) (Filter, error) {
	if err := p.check(); err != nil {
		return Filter{}, err
	}
	n, size, err := readCompactSize(data)
	if err != nil {
		return Filter{}, err
	}
	if n > math.MaxUint32 {
		return Filter{}, corruptf("N = %d at byte 0, want below 2^32", n)
	}
	body := data[size:]
	if min := n * uint64(p.P+1); min > uint64(len(body))*8 {
		return Filter{}, corruptf("N = %d codes need at least %d bits, but %d bytes follow the CompactSize at byte %d",
			n, min, len(body), size)
	}
	return Filter{key: key, p: p.P, m: p.M, n: uint32(n), enc: data, body: body}, nil
}

// validate decodes every code, Core's decode check.
func (f *Filter) validate() error {
	var d decoder
	d.reset(f)
	for c := d.next(); len(c) > 0; c = d.next() {
	}
	if d.r.Err() != nil {
		return f.truncation()
	}
	end := len(f.enc) - len(f.body) + int(d.r.Offset()+7)/8 // bytes holding N and the codes
	if extra := len(f.enc) - end; extra != 0 {
		return corruptf("excess data: %d trailing bytes after the %d bytes that hold N and its %d codes", extra, end, f.n)
	}
	return nil
}

// truncation names the first code that runs past the end: the cold path of
// validate, decoding one code at a time.
func (f *Filter) truncation() error {
	var r bitio.Reader
	r.Reset(f.body)
	for i := range f.n {
		if r.ReadRice(uint(f.p)); r.Err() != nil {
			return corruptf("code %d of %d is truncated: %v", i+1, f.n, r.Err())
		}
	}
	return nil
}

// Len returns N, the number of distinct items in the set (BIP158's N, at
// most 2^32-1). Like [Set.Len] and [Query.Len] it counts with an int.
func (f *Filter) Len() int { return int(f.n) }

// Params returns the filter's P and M.
func (f *Filter) Params() Params { return Params{P: f.p, M: f.m} }

// Key returns the SipHash key the set was built with.
func (f *Filter) Key() Key { return f.key }

// F returns N·M, the range [0, F) that items hash into.
func (f *Filter) F() uint64 { return uint64(f.n) * f.m }

// Bytes returns the encoding, CompactSize N included: the bytes a BIP157
// filter hash covers. The slice is shared with the Filter, not copied.
func (f *Filter) Bytes() []byte { return f.enc }

// Values appends the N hashed values of the set to dst in ascending order.
// Equal values appear as often as distinct items produced them. It returns an
// error only for a malformed filter from [DecodeUnchecked].
func (f *Filter) Values(dst []uint64) ([]uint64, error) {
	dst = growUint64(dst, int(f.n))
	var d decoder
	d.reset(f)
	var v uint64
	for c := d.next(); len(c) > 0; c = d.next() {
		for _, delta := range c {
			v += delta
			dst = append(dst, v)
		}
	}
	if err := d.r.Err(); err != nil {
		return dst, corruptf("%v", err)
	}
	return dst, nil
}

// growUint64 makes room for n more elements in s.
func growUint64(s []uint64, n int) []uint64 {
	if cap(s)-len(s) < n {
		s = append(make([]uint64, 0, len(s)+n), s...)
	}
	return s
}
