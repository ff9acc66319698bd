package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"path/filepath"
	"strings"
)

// A store directory also keeps small files for the store's users beside
// the chain (a wallet's state, the peers a client learnt): each written
// whole by [Store.PutFile], atomically and durably, and read back by
// [Store.ReadFile], which checks it. They share the store's lock, so one
// process at a time writes them.
//
//	0  "CSFL"
//	4  length of the data (uint32, little-endian)
//	8  the data
//	…  CRC-32C of the file's name, then of bytes 0 to the end of the data
const (
	fileMagic  = "CSFL"
	fileFrame  = 12      // magic, length, checksum
	maxFileLen = 1 << 31 // what a length field may say
)

// PutFile replaces the file name in the store's directory with data: it
// writes name.tmp, fsyncs it, renames it over name and fsyncs the
// directory, so a crash at any instant leaves the old file or the new one.
// name is one path element that is not the store's own (headers,
// filters, state, lock). PutFile touches nothing else of the store, so it
// may run while another goroutine uses the store's other methods.
func (s *Store) PutFile(name string, data []byte) error {
	if err := checkName(name); err != nil {
		return err
	}
	if len(data) > maxFileLen-fileFrame {
		return fmt.Errorf("store: %s: %d bytes is too large a file", name, len(data))
	}
	b := make([]byte, 8, fileFrame+len(data))
	copy(b, fileMagic)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(data)))
	b = append(b, data...)
	b = binary.LittleEndian.AppendUint32(b, fileSum(name, b))
	tmp := name + ".tmp"
	f, err := s.dir.open(tmp)
	if err != nil {
		return s.ioErr("create", tmp, err)
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt(b, 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return s.ioErr("write", tmp, err)
	}
	if err := s.dir.rename(tmp, name); err != nil {
		return s.ioErr("rename", tmp, err)
	}
	if err := s.dir.syncDir(); err != nil {
		return s.ioErr("fsync", s.dir.String(), err)
	}
	return nil
}

// ReadFile returns the data [Store.PutFile] last wrote to the file name,
// or an error wrapping fs.ErrNotExist if there is none. A file that would
// hold more than limit bytes of data is refused before it is read, and
// one whose frame or checksum does not match is an error wrapping
// [ErrCorrupt]; both name the file. Like PutFile, it may run beside the
// store's other methods.
func (s *Store) ReadFile(name string, limit int) ([]byte, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(s.dir.String(), name)
	b, err := s.dir.readFile(name, int64(min(limit, maxFileLen-fileFrame))+fileFrame)
	var big *sizeError
	switch {
	case errors.As(err, &big):
		return nil, fmt.Errorf("store: %s is %d bytes, more than the %d of data it may hold: %w", path, big.size, limit, ErrCorrupt)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("store: %s: %w", path, fs.ErrNotExist)
	case err != nil:
		return nil, s.ioErr("read", name, err)
	}
	data, err := decodeFile(name, b)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w: %w", path, err, ErrCorrupt)
	}
	return data, nil
}

// decodeFile checks a file's frame and returns its data.
func decodeFile(name string, b []byte) ([]byte, error) {
	switch {
	case len(b) < fileFrame:
		return nil, fmt.Errorf("%d bytes, shorter than a file's frame", len(b))
	case string(b[:4]) != fileMagic:
		return nil, fmt.Errorf("starts with %q, not %q", b[:4], fileMagic)
	}
	n := int64(binary.LittleEndian.Uint32(b[4:]))
	if n != int64(len(b)-fileFrame) {
		return nil, fmt.Errorf("%d bytes, but its frame says %d of data", len(b), n)
	}
	end := len(b) - 4
	if fileSum(name, b[:end]) != binary.LittleEndian.Uint32(b[end:]) {
		return nil, errors.New("checksum mismatch")
	}
	return b[8:end], nil
}

// fileSum is the CRC-32C of name and b: a file copied under another name
// fails its check.
func fileSum(name string, b []byte) uint32 {
	return crc32.Update(crc32.Checksum([]byte(name), castagnoli), castagnoli, b)
}

// checkName refuses a name that is not one path element, or is one of
// the store's own files; a programmer's error, so it is not recoverable
// by the user.
func checkName(name string) error {
	switch {
	case name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." || strings.HasSuffix(name, ".tmp"):
		return fmt.Errorf("store: file name %q is not one path element", name)
	case name == headersFile || name == filtersFile || name == stateFile || name == "lock":
		return fmt.Errorf("store: %q is the store's own file", name)
	}
	return nil
}
