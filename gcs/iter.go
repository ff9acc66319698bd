package gcs

import "github.com/chainsieve/chainsieve/core/bitio"

// iterator decodes a filter's values one at a time.
type iterator struct {
	r    bitio.Reader
	p    uint
	left uint32
	v    uint64
}

func (f *Filter) iter() iterator {
	it := iterator{p: uint(f.p), left: f.n}
	it.r.Reset(f.body)
	return it
}

// next returns the next value, or false after the last.
func (it *iterator) next() (uint64, bool) {
	if it.left == 0 {
		return 0, false
	}
	it.left--
	it.v += it.r.ReadRice(it.p)
	return it.v, true
}

// err returns the error of a malformed filter from DecodeUnchecked.
func (it *iterator) err() error { return it.r.Err() }
