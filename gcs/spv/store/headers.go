package store

import (
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Append writes headers after the tip. The first must link to the tip
// (unless the store has none yet) and each to the one before; they are
// durable after [Store.Commit].
func (s *Store) Append(headers []wire.BlockHeader) error {
	if err := s.writable(); err != nil {
		return err
	}
	if len(headers) == 0 {
		return nil
	}
	buf := s.scratch(len(headers) * headerRec)
	prev, h := s.cur.TipHash, s.cur.Tip
	for i := range headers {
		h++
		rec := buf[i*headerRec : (i+1)*headerRec]
		if h > s.cur.Base && headers[i].PrevBlock != prev {
			return fmt.Errorf("store: header %d follows %s, the store's %d is %s", h, headers[i].PrevBlock, h-1, prev)
		}
		putHeader(rec, &headers[i])
		seal(rec, h)
		prev = chainhash.DoubleHashH(rec[:headerSize])
	}
	off := int64(s.cur.Tip+1-s.cur.Base) * headerRec
	if _, err := s.headers.WriteAt(buf, off); err != nil {
		return s.fail(s.ioErr("write", headersFile, err))
	}
	s.cur.Tip, s.cur.TipHash, s.dirty = h, prev, true
	return nil
}

// Header returns the header at height and its hash.
func (s *Store) Header(height int32) (wire.BlockHeader, chainhash.Hash, error) {
	rec, err := s.records(s.headers, headersFile, headerRec, s.cur.Base, s.cur.Tip, height, height)
	if err != nil {
		return wire.BlockHeader{}, chainhash.Hash{}, err
	}
	return getHeader(rec), chainhash.DoubleHashH(rec[:headerSize]), nil
}

// Headers appends to dst the headers at heights lo to hi, read at once.
func (s *Store) Headers(dst []wire.BlockHeader, lo, hi int32) ([]wire.BlockHeader, error) {
	recs, err := s.records(s.headers, headersFile, headerRec, s.cur.Base, s.cur.Tip, lo, hi)
	for i := 0; err == nil && i < len(recs); i += headerRec {
		dst = append(dst, getHeader(recs[i:]))
	}
	return dst, err
}

// Hashes appends to dst the block hashes at heights lo to hi.
func (s *Store) Hashes(dst []chainhash.Hash, lo, hi int32) ([]chainhash.Hash, error) {
	recs, err := s.records(s.headers, headersFile, headerRec, s.cur.Base, s.cur.Tip, lo, hi)
	for i := 0; err == nil && i < len(recs); i += headerRec {
		dst = append(dst, chainhash.DoubleHashH(recs[i:i+headerSize]))
	}
	return dst, err
}

// Truncate lowers the header tip to tip, and the filter tip with it; it
// may not go below the anchor. Committed headers above tip are dropped by
// committing the lowered state first.
func (s *Store) Truncate(tip int32) error {
	if err := s.writable(); err != nil {
		return err
	}
	if tip < s.cur.Anchor || tip > s.cur.Tip {
		return fmt.Errorf("store: truncate to %d outside anchor %d to tip %d", tip, s.cur.Anchor, s.cur.Tip)
	}
	if tip == s.cur.Tip {
		return nil
	}
	_, hash, err := s.Header(tip)
	if err != nil {
		return err
	}
	if s.cur.FilterTip > tip {
		if err := s.lowerFilters(tip); err != nil {
			return err
		}
	}
	s.cur.Tip, s.cur.TipHash, s.dirty = tip, hash, true
	if tip < s.committed.Tip {
		if err := s.Commit(); err != nil {
			return err
		}
	}
	return s.truncateFiles()
}

// truncateFiles cuts both files to the current tips.
func (s *Store) truncateFiles() error {
	if err := s.truncate(s.headers, headersFile, int64(s.cur.Tip+1-s.cur.Base)*headerRec); err != nil {
		return err
	}
	return s.truncate(s.filters, filtersFile, int64(s.cur.FilterTip+1-s.cur.FilterBase)*filterRec)
}

// records reads the records at heights lo to hi of a file holding base to
// tip, checking each one's checksum.
func (s *Store) records(f file, name string, size int, base, tip, lo, hi int32) ([]byte, error) {
	if s.empty || lo < base || hi > tip || lo > hi {
		return nil, fmt.Errorf("store: %s %d to %d outside %d to %d", name, lo, hi, base, tip)
	}
	buf := s.scratch(int(hi-lo+1) * size)
	if _, err := f.ReadAt(buf, int64(lo-base)*int64(size)); err != nil {
		return nil, s.ioErr("read", name, err)
	}
	for i := 0; i < len(buf); i += size {
		if h := lo + int32(i/size); !intact(buf[i:i+size], h) {
			return nil, fmt.Errorf("store: %s record %d fails its checksum: %w", name, h, ErrCorrupt)
		}
	}
	return buf, nil
}

// scratch returns s.buf resized to n bytes.
func (s *Store) scratch(n int) []byte {
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	return s.buf[:n]
}

// recoverHeaders reconciles the headers file with the state: see the
// package doc.
func (s *Store) recoverHeaders() error {
	n, err := s.count(s.headers, headersFile, headerRec)
	if err != nil {
		return err
	}
	want := int64(s.cur.Tip - s.cur.Base + 1)
	switch {
	case n > want:
		s.note("dropped %d uncommitted headers above %d", n-want, s.cur.Tip)
	case n < want:
		s.note("headers end at %d, below the committed tip %d", s.cur.Base+int32(n)-1, s.cur.Tip)
		s.cur.Tip = s.cur.Base + int32(n) - 1
	}
	if err := s.checkHeaderTail(); err != nil {
		return err
	}
	if s.cur.Tip < s.cur.Anchor {
		return fmt.Errorf("store: headers end at %d, below the anchor %d, in %s (remove the directory to start again): %w",
			s.cur.Tip, s.cur.Anchor, s.dir, ErrCorrupt)
	}
	return s.truncate(s.headers, headersFile, int64(s.cur.Tip+1-s.cur.Base)*headerRec)
}

// checkHeaderTail lowers the tip below the first of the last tailCheck
// records that fails its checksum or does not link to the one before.
func (s *Store) checkHeaderTail() error {
	lo := max(s.cur.Base, s.cur.Tip-tailCheck+1)
	if s.cur.Tip < lo {
		return nil
	}
	buf := s.scratch(int(s.cur.Tip-lo+1) * headerRec)
	if _, err := s.headers.ReadAt(buf, int64(lo-s.cur.Base)*headerRec); err != nil {
		return s.ioErr("read", headersFile, err)
	}
	var prev chainhash.Hash
	for h := lo; h <= s.cur.Tip; h++ {
		rec := buf[(h-lo)*headerRec : (h-lo+1)*headerRec]
		if !intact(rec, h) || (h > lo && getHeader(rec).PrevBlock != prev) {
			s.note("header %d is torn or does not link: tip lowered from %d to %d", h, s.cur.Tip, h-1)
			s.cur.Tip = h - 1
			break
		}
		prev = chainhash.DoubleHashH(rec[:headerSize])
	}
	if s.cur.Tip >= lo {
		tipHash := chainhash.DoubleHashH(buf[(s.cur.Tip-lo)*headerRec:][:headerSize])
		if s.cur.Tip == s.committed.Tip && tipHash != s.committed.TipHash {
			s.note("header %d is %s, the state committed %s: kept (it links)", s.cur.Tip, tipHash, s.committed.TipHash)
		}
		s.cur.TipHash = tipHash
	}
	return nil
}

// count returns how many whole records f holds, dropping a partial last
// one.
func (s *Store) count(f file, name string, size int64) (int64, error) {
	n, err := f.size()
	if err != nil {
		return 0, s.ioErr("stat", name, err)
	}
	if n%size != 0 {
		s.note("dropped a partial %s record (%d of %d bytes)", name, n%size, size)
		if err := s.truncate(f, name, n-n%size); err != nil {
			return 0, err
		}
	}
	return n / size, nil
}

// Verify reads every record, checking checksums, header links, and the
// anchor and tip hashes: what Open checks of the last records only.
func (s *Store) Verify() error {
	if s.empty {
		return nil
	}
	const batch = 4096
	var prev chainhash.Hash
	for lo := s.cur.Base; lo <= s.cur.Tip; lo += batch {
		hi := min(lo+batch-1, s.cur.Tip)
		recs, err := s.records(s.headers, headersFile, headerRec, s.cur.Base, s.cur.Tip, lo, hi)
		if err != nil {
			return err
		}
		for i := 0; i < len(recs); i += headerRec {
			h := lo + int32(i/headerRec)
			if h > s.cur.Base && getHeader(recs[i:]).PrevBlock != prev {
				return fmt.Errorf("store: header %d does not link to %d: %w", h, h-1, ErrCorrupt)
			}
			prev = chainhash.DoubleHashH(recs[i : i+headerSize])
			if h == s.cur.Anchor && prev != s.cur.AnchorHash {
				return fmt.Errorf("store: header %d is %s, not the anchor %s: %w", h, prev, s.cur.AnchorHash, ErrCorrupt)
			}
		}
	}
	if prev != s.cur.TipHash {
		return fmt.Errorf("store: tip %d is %s, the state says %s: %w", s.cur.Tip, prev, s.cur.TipHash, ErrCorrupt)
	}
	for lo := s.cur.FilterBase; lo <= s.cur.FilterTip; lo += batch {
		if _, err := s.records(s.filters, filtersFile, filterRec, s.cur.FilterBase, s.cur.FilterTip, lo, min(lo+batch-1, s.cur.FilterTip)); err != nil {
			return err
		}
	}
	return nil
}
