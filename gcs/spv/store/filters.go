package store

import (
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
)

// AppendFilters writes the filter headers of heights first, first+1, … .
// On a store without filter headers first becomes FilterBase; otherwise it
// must follow FilterTip. They may not pass the header tip; they are
// durable after [Store.Commit].
func (s *Store) AppendFilters(first int32, headers []chainhash.Hash) error {
	if err := s.writable(); err != nil {
		return err
	}
	if len(headers) == 0 {
		return nil
	}
	if s.cur.FilterTip < s.cur.FilterBase { // none yet: start anywhere in the chain
		if first < s.cur.Base {
			return fmt.Errorf("store: filter headers from %d, below the headers' base %d", first, s.cur.Base)
		}
		s.cur.FilterBase, s.cur.FilterTip = first, first-1
	}
	last := first + int32(len(headers)) - 1
	switch {
	case first != s.cur.FilterTip+1:
		return fmt.Errorf("store: filter headers from %d, but the store's end at %d", first, s.cur.FilterTip)
	case last > s.cur.Tip:
		return fmt.Errorf("store: filter headers to %d, past the header tip %d", last, s.cur.Tip)
	}
	buf := s.scratch(len(headers) * filterRec)
	for i := range headers {
		rec := buf[i*filterRec : (i+1)*filterRec]
		copy(rec, headers[i][:])
		seal(rec, first+int32(i))
	}
	if _, err := s.filters.WriteAt(buf, int64(first-s.cur.FilterBase)*filterRec); err != nil {
		return s.fail(s.ioErr("write", filtersFile, err))
	}
	s.cur.FilterTip, s.cur.TipFilter, s.dirty = last, headers[len(headers)-1], true
	return nil
}

// FilterHeaders appends to dst the filter headers at heights lo to hi.
func (s *Store) FilterHeaders(dst []chainhash.Hash, lo, hi int32) ([]chainhash.Hash, error) {
	recs, err := s.records(s.filters, filtersFile, filterRec, s.cur.FilterBase, s.cur.FilterTip, lo, hi)
	for i := 0; err == nil && i < len(recs); i += filterRec {
		dst = append(dst, chainhash.Hash(recs[i:i+filterSize]))
	}
	return dst, err
}

// TruncateFilters lowers the filter tip to tip; FilterBase-1 removes them
// all, after which the next AppendFilters may start anywhere.
func (s *Store) TruncateFilters(tip int32) error {
	if err := s.writable(); err != nil {
		return err
	}
	if tip < s.cur.FilterBase-1 || tip > s.cur.FilterTip {
		return fmt.Errorf("store: truncate filter headers to %d outside %d to %d", tip, s.cur.FilterBase-1, s.cur.FilterTip)
	}
	if tip == s.cur.FilterTip {
		return nil
	}
	if err := s.lowerFilters(tip); err != nil {
		return err
	}
	s.dirty = true
	if tip < s.committed.FilterTip {
		if err := s.Commit(); err != nil {
			return err
		}
	}
	return s.truncateFiles()
}

// lowerFilters sets the current filter tip to tip.
func (s *Store) lowerFilters(tip int32) error {
	var last chainhash.Hash
	if tip >= s.cur.FilterBase {
		hs, err := s.FilterHeaders(nil, tip, tip)
		if err != nil {
			return err
		}
		last = hs[0]
	}
	s.cur.FilterTip, s.cur.TipFilter = tip, last
	return nil
}

// recoverFilters reconciles the filters file with the state and the
// header tip.
func (s *Store) recoverFilters() error {
	n, err := s.count(s.filters, filtersFile, filterRec)
	if err != nil {
		return err
	}
	want := int64(s.cur.FilterTip - s.cur.FilterBase + 1)
	switch {
	case n > want:
		s.note("dropped %d uncommitted filter headers above %d", n-want, s.cur.FilterTip)
	case n < want:
		s.note("filter headers end at %d, below the committed tip %d", s.cur.FilterBase+int32(n)-1, s.cur.FilterTip)
		s.cur.FilterTip = s.cur.FilterBase + int32(n) - 1
	}
	if s.cur.FilterTip > s.cur.Tip {
		s.note("filter headers lowered from %d to the header tip %d", s.cur.FilterTip, s.cur.Tip)
		s.cur.FilterTip = s.cur.Tip
	}
	if err := s.checkFilterTail(); err != nil {
		return err
	}
	return s.truncate(s.filters, filtersFile, int64(s.cur.FilterTip+1-s.cur.FilterBase)*filterRec)
}

// checkFilterTail lowers the filter tip below the first of the last
// tailCheck records that fails its checksum.
func (s *Store) checkFilterTail() error {
	lo := max(s.cur.FilterBase, s.cur.FilterTip-tailCheck+1)
	if s.cur.FilterTip < lo {
		s.cur.TipFilter = chainhash.Hash{}
		return nil
	}
	buf := s.scratch(int(s.cur.FilterTip-lo+1) * filterRec)
	if _, err := s.filters.ReadAt(buf, int64(lo-s.cur.FilterBase)*filterRec); err != nil {
		return s.ioErr("read", filtersFile, err)
	}
	for h := lo; h <= s.cur.FilterTip; h++ {
		if !intact(buf[(h-lo)*filterRec:(h-lo+1)*filterRec], h) {
			s.note("filter header %d is torn: filter tip lowered from %d to %d", h, s.cur.FilterTip, h-1)
			s.cur.FilterTip = h - 1
			break
		}
	}
	s.cur.TipFilter = chainhash.Hash{}
	if s.cur.FilterTip >= lo {
		s.cur.TipFilter = chainhash.Hash(buf[(s.cur.FilterTip-lo)*filterRec:][:filterSize])
	}
	return nil
}
